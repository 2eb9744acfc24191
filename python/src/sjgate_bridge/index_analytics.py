"""The SDK's index analytics to the gateway's JSON (src/broker/sim/quotes/analytics-payloads.ts and
src/domain/index-components.ts): the subscribe keywords of index_contribution (ranking) and index_components
(projection), the payloads of the three streams and the index_components answer, with numbers (the derived streams'
form on the official server, not the quote families' decimal strings)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from .convert import enum_value, number
from .errors import invalid
from .quotes import derived_date_and_time

ENTRY = ("price", "reference", "price_chg", "pct_chg")
STATUS = ("price_source", "trading_status", "data_status")
COMPONENT_ENTRY = ("category", *ENTRY, "points", "reference_weight_ppm", "total_amount", "amount_share_bps", *STATUS)
GROUP = ("category", "name", "item_count", "equal_weight_pct_chg", "weighted_pct_chg", "points", "reference_weight_ppm",
         "total_amount", "amount_share_bps", "advance_count", "decline_count", "unchanged_count", "breadth_bps")


def subscribe_keywords(sj: Any, params: dict[str, Any]) -> dict[str, Any]:
    """`ranking=` or `projection=` of api.subscribe, from the sidecar's params (the gateway checked them)."""
    ranking, projection = params.get("ranking"), params.get("projection")
    if ranking is not None:
        return {"ranking": sj.ContributionRanking(ranking)}
    if projection is None:
        return {}
    kind, metric = projection.get("kind"), projection.get("metric")
    build = sj.IndexComponentsProjection
    if kind == "group_metric":
        return {"projection": build.group_metric(sj.IndexComponentsGroupMetric(metric))}
    order, limit = sj.IndexComponentsRankingOrder(projection.get("order")), int(projection.get("limit"))
    if projection.get("target") == "group":
        return {"projection": build.group_ranking(sj.IndexComponentsGroupMetric(metric), order, limit)}
    if projection.get("target") == "component":
        metric_value = sj.IndexComponentsComponentMetric(metric)
        return {"projection": build.component_ranking(metric_value, order, limit, projection.get("group"))}
    raise invalid(f"projection: unknown kind {kind!r} or target {projection.get('target')!r}")


def projection_json(projection: Any) -> dict[str, Any]:
    return {
        "kind": str(projection.kind), "target": projection.target, "metric": enum_value(projection.metric),
        "order": enum_value(projection.order) if projection.order is not None else None,
        "limit": projection.limit, "group": projection.group,
    }


def base_contract_json(contract: Any) -> dict[str, Any]:
    return {name: enum_value(getattr(contract, name, None)) for name in
            ("security_type", "region", "exchange", "code", "target_code")}


def _day(value: Any) -> str:
    return value.isoformat() if isinstance(value, (dt.date, dt.datetime)) else str(value)


def _clock(value: Any) -> str:
    return value.strftime("%H:%M:%S.%f") if isinstance(value, dt.time) else str(value)


def _stamp(value: Any) -> Any:
    return value.isoformat() if isinstance(value, (dt.datetime, dt.date)) else value


def index_contribution_payload(event: Any) -> dict[str, Any]:
    entries = [{"code": entry.code, **{key: number(getattr(entry, key)) for key in (*ENTRY, "points")}}
               for entry in event.entries]
    date, time = derived_date_and_time(event)
    return {"ranking": enum_value(event.ranking), "code": event.code, "date": date, "time": time,
            "entries": entries, "simtrade": bool(event.simtrade)}


def industry_contribution_payload(event: Any) -> dict[str, Any]:
    date, time = derived_date_and_time(event)
    return {
        "code": event.code, "date": date, "time": time,
        "entries": [{"category": entry.category, "points": number(entry.points)} for entry in event.entries],
        "simtrade": bool(event.simtrade), "index_close": number(event.index_close),
        "index_price_chg": number(event.index_price_chg),
    }


def index_components_payload(update: Any) -> dict[str, Any]:
    """A ranking update carries entries; a group update its unit and groups. Each is a full replacement."""
    payload: dict[str, Any] = {
        "contract": base_contract_json(update.contract), "projection": projection_json(update.projection),
        "date": _day(update.date), "time": _clock(update.time), "calculated_at": _stamp(update.calculated_at),
        "reference_date": _day(update.reference_date), "market_phase": enum_value(update.market_phase),
        "simtrade": bool(update.simtrade),
    }
    if hasattr(update, "groups"):
        payload["unit"] = enum_value(update.unit)
        payload["groups"] = [{"category": group.category, "name": group.name, "item_count": int(group.item_count),
                              "value": number(group.value)} for group in update.groups]
        return payload
    payload["entries"] = [{
        "code": entry.code, "category": entry.category, **{key: number(getattr(entry, key)) for key in ENTRY},
        "value": number(entry.value), "reference_weight_ppm": int(entry.reference_weight_ppm),
        **{key: enum_value(getattr(entry, key)) for key in STATUS},
    } for entry in update.entries]
    return payload


def _rest(value: Any) -> Any:
    if isinstance(value, (int, float)) or value is None or isinstance(value, bool):
        return value
    if hasattr(value, "is_finite"):
        return number(value)
    return enum_value(value)


def index_components_json(snapshot: Any) -> dict[str, Any]:
    """POST /data/index_components: the whole decomposition, numbers as numbers."""
    entries = [{"contract": base_contract_json(entry.contract),
                **{key: _rest(getattr(entry, key)) for key in COMPONENT_ENTRY},
                "source_at": _stamp(entry.source_at)} for entry in snapshot.entries]
    return {
        "refresh_state": enum_value(snapshot.refresh_state), "contract": base_contract_json(snapshot.contract),
        "currency": enum_value(snapshot.currency), "date": _day(snapshot.date), "time": _clock(snapshot.time),
        "calculated_at": _stamp(snapshot.calculated_at), "reference_date": _day(snapshot.reference_date),
        "market_phase": enum_value(snapshot.market_phase), "simtrade": bool(snapshot.simtrade),
        "classification": str(snapshot.classification), "weight_method": enum_value(snapshot.weight_method),
        "total_amount": int(snapshot.total_amount), "entries": entries,
        "groups": [{key: _rest(getattr(group, key)) for key in GROUP} for group in snapshot.groups],
    }
