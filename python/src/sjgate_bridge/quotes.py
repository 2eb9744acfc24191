"""The SDK's quote objects to the gateway's SSE payloads (src/broker/sim/quotes/payloads.ts): prices as decimal
strings, volumes as numbers, `date` YYYY-MM-DD and `time` HH:MM:SS.ffffff on the Taiwan wall clock."""

from __future__ import annotations

import datetime as dt
import enum
from decimal import Decimal
from typing import Any

from .convert import enum_value, number

TRADE = (
    "open", "avg_price", "close", "high", "low", "amount", "total_amount", "volume", "total_volume", "tick_type",
    "chg_type", "price_chg", "pct_chg",
)
BOOK = ("bid_price", "bid_volume", "diff_bid_vol", "ask_price", "ask_volume", "diff_ask_vol")
SIDES = ("bid_side_total_vol", "ask_side_total_vol", "bid_side_total_cnt", "ask_side_total_cnt")
ODDLOT = (
    "closing_oddlot_shares", "closing_oddlot_close", "closing_oddlot_amount", "closing_oddlot_bid_price",
    "closing_oddlot_ask_price", "fixed_trade_vol", "fixed_trade_amount",
)
DERIVED = ("first_derived_bid_price", "first_derived_ask_price", "first_derived_bid_vol", "first_derived_ask_vol")
STOCK_TICK = (*TRADE, *SIDES, *ODDLOT, "suspend", "simtrade")

KEYS: dict[str, tuple[str, ...]] = {
    "tick_stk": (*STOCK_TICK, "intraday_odd"),
    "quote_stk": (*STOCK_TICK, *BOOK, "avail_borrowing"),
    "bidask_stk": (*BOOK, "suspend", "simtrade", "intraday_odd"),
    "tick_fop": (
        "open", "underlying_price", "bid_side_total_vol", "ask_side_total_vol", "avg_price", "close", "high", "low",
        "amount", "total_amount", "volume", "total_volume", "tick_type", "chg_type", "price_chg", "pct_chg",
        "simtrade",
    ),
    "bidask_fop": ("bid_total_vol", "ask_total_vol", *BOOK, *DERIVED, "underlying_price", "simtrade"),
    "quote_fop": ("underlying_price", *TRADE, *SIDES, *BOOK, *DERIVED, "simtrade"),
}

# quote_idx keeps the upstream PascalCase keys; None: the SDK's QuoteIdxV1 does not carry the field.
INDEX_KEYS: dict[str, str | None] = {
    "Reference": "reference", "Open": "open", "High": "high", "Low": "low", "Close": "close",
    "AmountSum": "amount_sum", "Amount": "amount", "Volume": "volume", "VolSum": "vol_sum", "Count": "count",
    "CountSum": None, "PrevDate": None, "PrevAmountSum": None, "NoTrade": None, "RaiseStop": "limit_up_count",
    "Raise": "raise_count", "Flat": "flat_count", "Fall": "fall_count", "FallStop": "limit_down_count",
}
INDEX_CATEGORY_KEYS = tuple(
    f"{group}{measure}"
    for group in ("Fund", "Stock", "Bull", "Bear", "TIB", "Fixed")
    for measure in ("Amount", "Volume", "Count")
) + ("EstimateAmountSum",)

FAMILIES = (*KEYS, "quote_idx", "kbar", "calculated_index")


def decimal_text(value: Decimal | float) -> str:
    text = format(Decimal(str(value)) if isinstance(value, float) else value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def wire_value(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (Decimal, float)):
        return decimal_text(value)
    if isinstance(value, (list, tuple)):
        return [wire_value(item) for item in value]
    if value is None or isinstance(value, (str, int, bool)):
        return value
    return enum_value(value)


def quote_datetime(quote: Any) -> dt.datetime:
    stamp = getattr(quote, "datetime", None)
    if isinstance(stamp, dt.datetime):
        return stamp
    return dt.datetime.combine(quote.date, quote.time)


def date_and_time(quote: Any) -> tuple[str, str]:
    stamp = quote_datetime(quote)
    return stamp.strftime("%Y-%m-%d"), stamp.strftime("%H:%M:%S.%f")


def _read(quote: Any, name: str) -> Any:
    return wire_value(getattr(quote, name, None))


def quote_payload(family: str, quote: Any) -> dict[str, Any]:
    if family == "quote_idx":
        return index_payload(quote)
    if family == "kbar":
        return kbar_payload(quote)
    if family == "calculated_index":
        return calculated_index_payload(quote)
    date, time = date_and_time(quote)
    payload: dict[str, Any] = {"code": quote.code, "date": date, "time": time}
    for key in KEYS[family]:
        payload[key] = _read(quote, key)
    if "intraday_odd" in payload:
        payload["intraday_odd"] = bool(payload["intraday_odd"])
    return payload


def derived_date_and_time(event: Any) -> tuple[str, str]:
    """The derived streams' date and time: YYYY/MM/DD and HH:MM:SS.ffffff, whichever form the SDK gave."""
    time = str(event.time)
    return str(event.date).replace("-", "/"), time if "." in time else f"{time}.000000"


def kbar_payload(bar: Any) -> dict[str, Any]:
    """A completed one-minute bar: its start as date and time, prices and amount as numbers."""
    date, time = derived_date_and_time(bar)
    payload: dict[str, Any] = {"code": bar.code, "date": date, "time": time}
    for key in ("open", "high", "low", "close"):
        payload[key] = number(getattr(bar, key))
    payload.update(volume=int(bar.volume), amount=int(bar.amount), tick_count=int(bar.tick_count))
    return payload


def calculated_index_payload(index: Any) -> dict[str, Any]:
    """An index recomputed from its constituents: prices and changes as numbers, as the live server sends them."""
    date, time = derived_date_and_time(index)
    payload: dict[str, Any] = {"code": index.code, "date": date, "time": time}
    for key in ("open", "high", "low", "close", "price_chg", "pct_chg"):
        payload[key] = number(getattr(index, key))
    payload["total_amount"] = int(index.total_amount)
    payload["simtrade"] = bool(index.simtrade)
    return {key: payload[key] for key in CALCULATED_INDEX_KEYS}


CALCULATED_INDEX_KEYS = ("code", "date", "time", "open", "high", "low", "close", "total_amount", "price_chg",
                         "pct_chg", "simtrade")


def index_payload(quote: Any) -> dict[str, Any]:
    date, time = date_and_time(quote)
    payload: dict[str, Any] = {
        "exchange": enum_value(getattr(quote, "exchange", None)),
        "code": quote.code,
        "Date": date,
        "Time": time,
    }
    for key, attribute in INDEX_KEYS.items():
        payload[key] = _read(quote, attribute) if attribute else None
    payload.update({key: None for key in INDEX_CATEGORY_KEYS})
    return payload
