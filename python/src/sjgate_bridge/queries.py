"""`call`: the whitelisted market-data and portfolio queries, their params turned into the SDK's objects."""

from __future__ import annotations

import datetime as dt
import inspect
from types import ModuleType
from typing import Any, Callable

from .errors import protocol_error

QUERIES = (
    "snapshots", "ticks", "kbars", "scanners", "credit_enquires", "short_stock_sources", "punish", "notice",
    "daily_quotes", "account_balance", "margin", "list_positions", "list_position_detail", "list_profit_loss",
    "list_profit_loss_detail", "list_profit_loss_summary", "settlements", "trading_limits",
    "stock_reserve_summary", "stock_reserve_detail", "earmarking_detail", "reserve_stock", "reserve_earmarking",
    "index_components",
)
ENUM_PARAMS = {"scanner_type": "ScannerType", "unit": "Unit", "query_type": "TicksQueryType"}
STOCK_QUERIES = ("account_balance", "list_positions", "list_position_detail", "list_profit_loss",
                 "list_profit_loss_detail", "list_profit_loss_summary", "settlements", "trading_limits",
                 "stock_reserve_summary", "stock_reserve_detail", "earmarking_detail", "reserve_stock",
                 "reserve_earmarking")


def _enum(sj: ModuleType, class_name: str, value: Any) -> Any:
    enum_class = getattr(sj, class_name, None)
    if enum_class is None or not isinstance(value, str):
        return value
    member = getattr(enum_class, value, None)
    if member is not None:
        return member
    try:
        return enum_class(value)
    except Exception:
        return value


def _argument(sj: ModuleType, name: str, value: Any, query: str, resolve: Callable, account: Callable) -> Any:
    if name == "contract":
        return resolve(value)
    if name in ("contracts", "index"):
        return [resolve(item) for item in value] if isinstance(value, list) else resolve(value)
    if name == "account":
        return account(value, "futures" if query == "margin" or (value or {}).get("account_type") == "F" else "stock")
    if name in ENUM_PARAMS:
        return _enum(sj, ENUM_PARAMS[name], value)
    if name == "date" and query == "daily_quotes" and isinstance(value, str):
        return dt.date.fromisoformat(value)
    return value


def run(api: Any, sj: ModuleType, name: str, params: dict[str, Any], resolve: Callable, account: Callable) -> Any:
    if name not in QUERIES:
        raise protocol_error(f"call: {name!r} is not one of {', '.join(QUERIES)}")
    method = getattr(api, name)
    accepted = inspect.signature(method).parameters
    unknown = [key for key in params if key not in accepted or key in ("cb", "timeout")]
    if unknown:
        raise protocol_error(f"call {name}: unknown params {', '.join(unknown)}")
    arguments = {key: _argument(sj, key, value, name, resolve, account) for key, value in params.items()}
    return method(**arguments)
