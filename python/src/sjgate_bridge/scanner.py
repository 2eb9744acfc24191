"""The market scanner (1.7.1): the SDK's scanner presets built from the gateway's ids, and its three events
(ScannerSignalEvent, ScannerQuoteEvent, ScannerGapEvent) to the `scanner` SSE payloads the simulator sends
(src/broker/sim/scanner/scanner-payloads.ts)."""

from __future__ import annotations

from typing import Any

from .convert import enum_value
from .errors import invalid
from .params import get
from .quotes import date_and_time, decimal_text, wire_value

LIMIT_RULES = (
    "bid_near_limit_up", "bid_touch_limit_up", "limit_up_unlocked", "ask_near_limit_down", "ask_touch_limit_down",
    "limit_down_unlocked",
)
# The SDK's PriceMoveScanner and VolumeScanner factories are named apart from the ids their presets carry.
PRICE_MOVE_FACTORIES = {
    "trade_price_surge": "trade_surge", "trade_price_drop": "trade_drop", "bid_price_surge": "bid_surge",
    "ask_price_drop": "ask_drop",
}
STATES = ("simtrade", "suspend")
EXCHANGES = ("TSE", "OTC")

# The quote's names on the scanner stream where the SDK's quote names them otherwise.
QUOTE_ALIASES = {"total_amount": "amount_sum", "total_volume": "vol_sum", "price_chg": "diff_price",
                 "pct_chg": "diff_rate"}
QUOTE_KEYS = ("open", "high", "low", "close", "avg_price", "amount", "total_amount", "volume", "total_volume",
              "tick_type", "chg_type", "price_chg", "pct_chg", "bid_price", "ask_price", "suspend", "simtrade")


def preset(sj: Any, scanner_id: str) -> Any:
    """The SDK object of a scanner id; the presets are fixed, so the id is all it takes."""
    if scanner_id in STATES:
        return sj.StreamScanner(scanner_id)
    if scanner_id in LIMIT_RULES:
        return getattr(sj.LimitScanner, scanner_id)()
    if scanner_id in PRICE_MOVE_FACTORIES:
        return getattr(sj.PriceMoveScanner, PRICE_MOVE_FACTORIES[scanner_id])()
    if scanner_id == "volume_burst":
        return sj.VolumeScanner.burst()
    raise invalid(f"unknown scanner {scanner_id!r}")


def arguments(sj: Any, params: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """subscribe_scanner's positional scanner and its keyword-only scope."""
    exchange = get(params, "exchange", str)
    if exchange not in EXCHANGES:
        raise invalid(f"a scanner covers TSE or OTC stocks, not {exchange!r}")
    scope = {"region": sj.Region.TW, "security_type": sj.SecurityType.Stock, "exchange": sj.Exchange(exchange)}
    return preset(sj, get(params, "scanner", str)), scope


def scanner_id(scanner: Any) -> str:
    """A preset's id, or a StreamScanner's value."""
    return str(getattr(scanner, "id", None) or enum_value(scanner))


def _best(value: Any) -> Any:
    return value[0] if isinstance(value, list) else value


def scanner_quote(quote: Any) -> dict[str, Any]:
    date, time = date_and_time(quote)
    payload: dict[str, Any] = {"code": quote.code, "date": date, "time": time}
    for key in QUOTE_KEYS:
        if not hasattr(quote, key):
            continue
        value = wire_value(getattr(quote, key))
        payload[QUOTE_ALIASES.get(key, key)] = _best(value) if key in ("bid_price", "ask_price") else value
    return payload


def _extra(extra: Any) -> dict[str, Any]:
    names = [name for name in ("previous_best_price", "trigger_price", "limit_price", "reference_time",
                               "reference_price", "change_price", "change_percent", "tick_change", "elapsed_ms",
                               "amount", "volume", "price", "threshold") if hasattr(extra, name)]
    payload: dict[str, Any] = {}
    for name in names:
        value = getattr(extra, name)
        payload[name] = int(value) if name in ("tick_change", "elapsed_ms", "amount", "volume", "threshold") \
            else None if value is None else str(value) if name == "reference_time" else decimal_text(value)
    return payload


def _scope(event: Any) -> dict[str, Any]:
    return {"region": enum_value(event.region), "security_type": enum_value(event.security_type),
            "exchange": enum_value(event.exchange)}


def scanner_payload(event: Any) -> dict[str, Any]:
    """A signal {scanner, region, security_type, exchange, quote, extra}, a state quote {scanners, ...}, or a gap
    report {dropped_count, first_time, last_time, subscriptions} as the SDK delivers it on the same lane."""
    if hasattr(event, "dropped_count"):
        return {
            "dropped_count": int(event.dropped_count), "first_time": str(event.first_time),
            "last_time": str(event.last_time),
            "subscriptions": [{"scanner": scanner_id(item.scanner), **_scope(item)} for item in event.subscriptions],
        }
    if hasattr(event, "scanners"):
        return {"scanners": [scanner_id(item) for item in event.scanners], **_scope(event),
                "quote": scanner_quote(event.quote)}
    return {"scanner": scanner_id(event.scanner), **_scope(event), "quote": scanner_quote(event.quote),
            "extra": _extra(event.extra)}
