"""Quote objects of the scripted session, shaped as the stub's TickSTKv1, BidAskSTKv1, QuoteSTKv1, TickFOPv1,
BidAskFOPv1, QuoteFOPv1 and QuoteIdxV1."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from .lookalike import LookAlike

TAIPEI = dt.timezone(dt.timedelta(hours=8))
STAMP = ("exchange", "code", "date", "time", "datetime")
TRADE = ("open", "avg_price", "close", "high", "low", "amount", "total_amount", "volume", "total_volume",
         "tick_type", "chg_type", "price_chg", "pct_chg")
SIDES = ("bid_side_total_vol", "ask_side_total_vol", "bid_side_total_cnt", "ask_side_total_cnt")
ODDLOT = ("closing_oddlot_shares", "fixed_trade_vol", "closing_oddlot_close", "closing_oddlot_amount",
          "closing_oddlot_bid_price", "closing_oddlot_ask_price", "fixed_trade_amount")
BOOK = ("bid_price", "bid_volume", "diff_bid_vol", "ask_price", "ask_volume", "diff_ask_vol")
DERIVED = ("first_derived_bid_price", "first_derived_ask_price", "first_derived_bid_vol", "first_derived_ask_vol")

FIELDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "tick_stk": ("TickSTKv1", (*STAMP, *TRADE, *SIDES, *ODDLOT, "suspend", "simtrade", "intraday_odd")),
    "bidask_stk": ("BidAskSTKv1", (*STAMP, *BOOK, "suspend", "simtrade", "intraday_odd")),
    "quote_stk": ("QuoteSTKv1", (*STAMP, *TRADE, *SIDES, *ODDLOT, *BOOK, "avail_borrowing", "suspend", "simtrade")),
    "tick_fop": ("TickFOPv1", (*STAMP, *TRADE, "underlying_price", "bid_side_total_vol", "ask_side_total_vol",
                               "simtrade")),
    "bidask_fop": ("BidAskFOPv1", (*STAMP, "bid_total_vol", "ask_total_vol", *BOOK, *DERIVED, "underlying_price",
                                   "simtrade")),
    "quote_fop": ("QuoteFOPv1", (*STAMP, "underlying_price", *TRADE, *SIDES, *BOOK, *DERIVED, "simtrade")),
    "quote_idx": ("QuoteIdxV1", (*STAMP, "reference", "open", "high", "low", "close", "amount_sum", "amount",
                                 "volume", "vol_sum", "count", "limit_up_count", "raise_count", "flat_count",
                                 "fall_count", "limit_down_count")),
}


# The index analytics streams, by the quote type as the session compares it (lower case, no underscore).
ANALYTICS = {"indexcontribution": "index_contribution", "industrycontribution": "industry_contribution",
             "indexcomponents": "index_components"}


def family_of(security_type: str, quote_type: str) -> str | None:
    if quote_type == "kbar":
        return "kbar" if security_type == "STK" else None
    if quote_type == "calculatedindex":
        return "calculated_index" if security_type == "IND" else None
    if quote_type in ANALYTICS:
        return ANALYTICS[quote_type] if security_type == "IND" else None
    if security_type == "IND":
        return "quote_idx" if quote_type == "quote" else None
    suffix = "stk" if security_type in ("STK", "WRT") else "fop"
    return f"{quote_type}_{suffix}"


def _price(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return text or "0"


def _values(info: dict[str, Any], count: int, intraday_odd: bool, now: dt.datetime) -> dict[str, Any]:
    reference = float(info["reference"])
    tick = float(info.get("tick") or (0.5 if reference < 500 else 5.0 if reference >= 1000 else 1.0))
    close = reference
    fop = info["security_type"] in ("FUT", "OPT")
    return {
        "exchange": info["exchange"], "code": info["code"], "date": now.date(), "time": now.time().replace(tzinfo=None),
        "datetime": now, "open": _price(reference), "avg_price": _price(reference), "close": _price(close),
        "high": _price(reference), "low": _price(reference), "amount": _price(close), "total_amount": _price(close * count),
        "volume": 1, "total_volume": count, "tick_type": 1, "chg_type": 3, "price_chg": "0",
        "pct_chg": "0" if fop else Decimal("0"), "bid_side_total_vol": count, "ask_side_total_vol": count,
        "bid_side_total_cnt": count, "ask_side_total_cnt": count, "closing_oddlot_shares": 0, "fixed_trade_vol": 0,
        "closing_oddlot_close": None, "closing_oddlot_amount": None, "closing_oddlot_bid_price": None,
        "closing_oddlot_ask_price": None, "fixed_trade_amount": None, "suspend": False, "simtrade": False,
        "intraday_odd": intraday_odd, "bid_price": [_price(close - tick * level) for level in range(1, 6)],
        "bid_volume": [10] * 5, "diff_bid_vol": [0] * 5, "ask_price": [_price(close + tick * level) for level in range(1, 6)],
        "ask_volume": [10] * 5, "diff_ask_vol": [0] * 5, "avail_borrowing": 0, "underlying_price": _price(reference),
        "bid_total_vol": 50, "ask_total_vol": 50, "first_derived_bid_price": "0", "first_derived_ask_price": "0",
        "first_derived_bid_vol": 0, "first_derived_ask_vol": 0, "reference": _price(reference),
        "amount_sum": _price(close * count), "vol_sum": count, "count": 1, "limit_up_count": 0, "raise_count": 0,
        "flat_count": 0, "fall_count": 0, "limit_down_count": 0,
    }


def kbar(info: dict[str, Any], count: int) -> LookAlike:
    """The bar of the minute before now: the scripted price is flat, one trade a bar."""
    start = (dt.datetime.now(TAIPEI) - dt.timedelta(minutes=1)).replace(second=0, microsecond=0)
    price = float(info["reference"])
    return LookAlike("KBar", code=info["code"], date=start.strftime("%Y/%m/%d"), time=start.strftime("%H:%M:%S"),
                     open=price, high=price, low=price, close=price, volume=count, amount=int(price * count * 1000),
                     tick_count=count)


def calculated_index(info: dict[str, Any], count: int) -> LookAlike:
    """The scripted index holds its reference all day: each recomputation adds turnover, not change."""
    now = dt.datetime.now(TAIPEI)
    level = Decimal(str(info["reference"]))
    return LookAlike("CalculatedIndex", code=info["code"], date=now.strftime("%Y-%m-%d"),
                     time=now.strftime("%H:%M:%S.%f"), open=level, high=level, low=level, close=level,
                     total_amount=count * 1_000_000, price_chg=Decimal("0"), pct_chg=Decimal("0"), simtrade=False)


def quote(family: str, info: dict[str, Any], count: int, intraday_odd: bool) -> LookAlike:
    if family == "kbar":
        return kbar(info, count)
    if family == "calculated_index":
        return calculated_index(info, count)
    stub, names = FIELDS[family]
    values = _values(info, count, intraday_odd, dt.datetime.now(TAIPEI))
    if values["exchange"] is not None:
        import shioaji as sj

        values["exchange"] = sj.Exchange(values["exchange"])
    return LookAlike(stub, **{name: values[name] for name in names})
