"""The index analytics of the scripted session: look-alikes of the stub's IndexContribution, IndustryContribution,
IndexComponentsRankingUpdate, IndexComponentsGroupUpdate and IndexComponents (with their entries and groups).

The scripted index holds its reference all day (see scripted_quotes.calculated_index), so its components' points add
up to no change: 2330 is a tick up, 2884 down by as many points, 2890 flat."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import shioaji as sj

from .lookalike import LookAlike

TAIPEI = dt.timezone(dt.timedelta(hours=8))

# code: (price offset from the reference, points, reference weight in ppm, turnover)
COMPONENTS: dict[str, tuple[Decimal, Decimal, int, int]] = {
    "2330": (Decimal("5"), Decimal("1.25"), 700_000, 5_000_000_000),
    "2884": (Decimal("-0.05"), Decimal("-1.25"), 200_000, 300_000_000),
    "2890": (Decimal("0"), Decimal("0"), 100_000, 200_000_000),
}
INDUSTRIES = {"24": "半導體業", "17": "金融保險業"}


def view_key(ranking: Any, projection: Any) -> str | None:
    """What distinguishes a subscription of the same index: its ranking or its projection."""
    if ranking is not None:
        return str(getattr(ranking, "value", ranking))
    if projection is not None:
        return str(projection.value)
    return None


def _components(infos: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for code, (offset, points, ppm, amount) in COMPONENTS.items():
        info = infos[code]
        reference = Decimal(str(info["reference"]))
        price = reference + offset
        rows.append({"code": code, "category": info["category"], "price": price, "reference": reference,
                     "price_chg": offset, "pct_chg": (offset / reference * 100).quantize(Decimal("0.01")),
                     "points": points, "ppm": ppm, "amount": amount})
    return rows


def _base(info: dict[str, Any]) -> Any:
    return sj.BaseContract(info["security_type"], info["exchange"], info["code"])


def _stamp(info: dict[str, Any]) -> dict[str, Any]:
    now = dt.datetime.now(TAIPEI)
    return {"date": now.date(), "time": now.time().replace(tzinfo=None), "calculated_at": now,
            "reference_date": now.date() - dt.timedelta(days=1),
            "market_phase": sj.TwStockMarketPhase("continuous_trading"), "simtrade": False}


def _status() -> dict[str, Any]:
    return {"price_source": sj.PriceSource.Regular, "trading_status": sj.TradingStatus.Active,
            "data_status": sj.DataStatus.Live}


def _groups(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    groups = []
    for category in sorted({row["category"] for row in rows}):
        members = [row for row in rows if row["category"] == category]
        advance = sum(row["price_chg"] > 0 for row in members)
        decline = sum(row["price_chg"] < 0 for row in members)
        groups.append({
            "category": category, "name": INDUSTRIES.get(category, category), "item_count": len(members),
            "equal_weight_pct_chg": sum(row["pct_chg"] for row in members) / len(members),
            "weighted_pct_chg": sum(row["pct_chg"] * row["ppm"] for row in members) / sum(r["ppm"] for r in members),
            "points": sum(row["points"] for row in members), "reference_weight_ppm": sum(r["ppm"] for r in members),
            "total_amount": sum(row["amount"] for row in members), "amount_share_bps": 0, "advance_count": advance,
            "decline_count": decline, "unchanged_count": len(members) - advance - decline,
            "breadth_bps": (advance - decline) * 10_000 // len(members),
        })
    return groups


def index_contribution(index: dict[str, Any], infos: dict[str, dict[str, Any]], ranking: Any) -> LookAlike:
    rows = sorted(_components(infos), key=lambda row: -row["points"])
    now = dt.datetime.now(TAIPEI)
    entries = [LookAlike("IndexContributionEntry", code=row["code"], price=row["price"], reference=row["reference"],
                         price_chg=row["price_chg"], pct_chg=row["pct_chg"], points=row["points"]) for row in rows]
    if str(getattr(ranking, "value", ranking)) == "positive25":
        entries = [entry for entry in entries if entry.points > 0]
    if str(getattr(ranking, "value", ranking)) == "negative25":
        entries = [entry for entry in reversed(entries) if entry.points < 0]
    return LookAlike("IndexContribution", ranking=ranking, code=index["code"], date=now.strftime("%Y-%m-%d"),
                     time=now.strftime("%H:%M:%S.%f"), entries=entries, simtrade=False)


def industry_contribution(index: dict[str, Any], infos: dict[str, dict[str, Any]]) -> LookAlike:
    groups = _groups(_components(infos))
    now = dt.datetime.now(TAIPEI)
    entries = [LookAlike("IndustryContributionEntry", category=group["category"], points=group["points"])
               for group in sorted(groups, key=lambda group: -group["points"])]
    change = sum((group["points"] for group in groups), Decimal("0"))
    return LookAlike("IndustryContribution", code=index["code"], date=now.strftime("%Y-%m-%d"),
                     time=now.strftime("%H:%M:%S.%f"), entries=entries, simtrade=False,
                     index_close=Decimal(str(index["reference"])) + change, index_price_chg=change)


def index_components_update(index: dict[str, Any], infos: dict[str, dict[str, Any]], projection: Any) -> LookAlike:
    rows = _components(infos)
    header = {"contract": _base(index), "projection": projection, **_stamp(index)}
    metric = str(getattr(projection.metric, "value", projection.metric))
    if projection.kind == "group_metric" or projection.target == "group":
        key = {"contribution": "points", "weight": "reference_weight_ppm", "amount": "total_amount",
               "breadth": "breadth_bps", "amount_share": "amount_share_bps",
               "equal_weight_performance": "equal_weight_pct_chg", "weighted_performance": "weighted_pct_chg"}[metric]
        unit = {"contribution": "Points", "weight": "Weight", "amount": "CurrencyAmount", "breadth": "Breadth",
                "amount_share": "AmountShare"}.get(metric, "Percent")
        groups = [LookAlike("IndexComponentGroupValue", category=group["category"], name=group["name"],
                            item_count=group["item_count"], value=Decimal(str(group[key])))
                  for group in _groups(rows)]
        return LookAlike("IndexComponentsGroupUpdate", **header, unit=getattr(sj.IndexComponentsUnit, unit),
                         groups=groups)
    key = {"contribution": "points", "pct_chg": "pct_chg", "weight": "ppm", "amount": "amount"}.get(metric, "points")
    ranked = sorted(rows, key=lambda row: -row[key])[: projection.limit or 10]
    entries = [LookAlike("IndexComponentRankingEntry", code=row["code"], category=row["category"], price=row["price"],
                         reference=row["reference"], price_chg=row["price_chg"], pct_chg=row["pct_chg"],
                         value=Decimal(str(row[key])), reference_weight_ppm=row["ppm"], **_status())
               for row in ranked]
    return LookAlike("IndexComponentsRankingUpdate", **header, entries=entries)


def index_components(index: dict[str, Any], infos: dict[str, dict[str, Any]]) -> LookAlike:
    rows = _components(infos)
    stamp = _stamp(index)
    entries = [LookAlike("IndexComponentEntry", contract=_base(infos[row["code"]]), category=row["category"],
                         price=row["price"], reference=row["reference"], price_chg=row["price_chg"],
                         pct_chg=row["pct_chg"], points=row["points"], reference_weight_ppm=row["ppm"],
                         total_amount=row["amount"], amount_share_bps=0, **_status(), source_at=stamp["calculated_at"])
               for row in rows]
    groups = [LookAlike("IndexComponentGroup", **group) for group in _groups(rows)]
    return LookAlike("IndexComponents", refresh_state=sj.RefreshState.Ready, contract=_base(index),
                     currency=sj.Currency.TWD, **{k: v for k, v in stamp.items() if k != "calculated_at"},
                     calculated_at=stamp["calculated_at"], classification="twse_industry",
                     weight_method=sj.IndexWeightMethod.ReferenceMarketCap, total_amount=sum(r["amount"] for r in rows),
                     entries=entries, groups=groups)
