"""Share and cash pre-collection (預收券款) answers in the gateway's shapes (src/domain/reserve.ts): the SDK's
ReserveStocksSummaryResponse, ReserveStocksDetailResponse, EarmarkStocksDetailResponse, ReserveStockResponse and
ReserveEarmarkingResponse unwrapped (`response`; an `error` is the SDK's refusal), each model read field by field.
A contract is the gateway's Contract; order_datetime is Taiwan wall-clock 'YYYY-MM-DDTHH:MM:SS'."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from .convert import account_json, number
from .errors import BridgeError
from .trades import contract_json

TAIPEI = dt.timezone(dt.timedelta(hours=8))
RESERVE_SUMMARY = ("contract", "available_share", "reserved_share")
RESERVE_DETAIL = ("contract", "share", "order_datetime", "status", "info")
EARMARK_DETAIL = ("contract", "share", "price", "amount", "order_datetime", "status", "info")
RESERVE_RESULT = ("contract", "account", "share", "status", "info")
EARMARK_RESULT = ("contract", "account", "share", "price", "status", "info")
LISTS = ("stocks", "account")
RESPONSE = ("response", "error")


def _wall_clock(value: Any) -> str:
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(TAIPEI).replace(tzinfo=None)
        return value.strftime("%Y-%m-%dT%H:%M:%S")
    return str(value or "").replace(" ", "T")[:19]


def _field(name: str, value: Any) -> Any:
    if name == "contract":
        return {**contract_json(value), "region": "TW"}
    if name == "account":
        return account_json(value)
    if name == "order_datetime":
        return _wall_clock(value)
    if name == "status":
        return bool(value)
    if name == "info":
        return "" if value is None else str(value)
    return number(value)


def _fields(names: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    return lambda model: {name: _field(name, getattr(model, name)) for name in names}


def _response(answer: Any) -> Any:
    """The `response` of an SDK answer; its `error`, when set, is SinoPac's refusal."""
    error = getattr(answer, "error", None)
    if error:
        raise BridgeError("sdk", str(error))
    return getattr(answer, "response", answer)


def _listing(row: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    convert = _fields(row)

    def listing(answer: Any) -> dict[str, Any]:
        response = _response(answer)
        return {"stocks": [convert(item) for item in list(response.stocks or [])], "account": account_json(response.account)}

    return listing


def _result(row: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    convert = _fields(row)
    return lambda answer: convert(_response(answer))


RESERVE_CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "stock_reserve_summary": _listing(RESERVE_SUMMARY),
    "stock_reserve_detail": _listing(RESERVE_DETAIL),
    "earmarking_detail": _listing(EARMARK_DETAIL),
    "reserve_stock": _result(RESERVE_RESULT),
    "reserve_earmarking": _result(EARMARK_RESULT),
}
