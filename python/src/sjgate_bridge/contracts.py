"""The SDK's contracts: finding one by code, and each as the gateway's ContractInfo JSON (src/domain/contracts.ts)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Iterator

from .convert import enum_value
from .errors import invalid, not_found

CATEGORY_OF_TYPE = {"STK": "Stocks", "WRT": "Stocks", "IND": "Indexs", "FUT": "Futures", "OPT": "Options"}
CATEGORIES = ("Stocks", "Futures", "Options", "Indexs")

IDENTITY = ("security_type", "region", "exchange", "code", "target_code")
STOCK_FIELDS = {
    "name": "", "category": "", "currency": "TWD", "unit": 1000, "day_trade": "No", "reference": 0, "limit_up": 0,
    "limit_down": 0, "margin_trading_balance": 0, "short_selling_balance": 0, "trading_suspended": False,
    "margin_loan_ratio": 0, "margin_quota_lots": 0, "short_margin_ratio": 0, "short_quota_lots": 0,
    "margin_shortable": False, "sbl_shortable": False, "below_ref_shortable": False, "disposition_level": 0,
    "attention_flag": False, "etf_constituent": False, "settlement_type": "", "disposition_match_interval_min": None,
    "disposition_max_lots_single_order": None, "disposition_max_lots_total_orders": None,
    "disposition_prepay_ratio": None, "update_date": "",
}
DERIVATIVE_FIELDS = {
    "name": "", "root": "", "delivery_month": "", "delivery_date": "", "last_trading_date": "", "begin_date": "",
    "underlying_kind": "", "underlying_code": "", "multiplier": 0, "contract_size": 0, "size_unit": "",
    "quote_ccy": "TWD", "tick_basis": "fixed", "tick_rule": None, "tick": 0, "tick_value": 0, "decimal_locator": 0,
    "dynamic_banding": False, "flow_group": "", "reference": 0, "limit_up": 0, "limit_down": 0, "limit_up_2": 0,
    "limit_down_2": 0, "limit_up_3": 0, "limit_down_3": 0, "update_date": "",
}
FUTURES_FIELDS = {**DERIVATIVE_FIELDS, "spec_kind": "unknown"}
OPTION_FIELDS = {
    **DERIVATIVE_FIELDS, "spec_kind": "unknown", "strike_price": 0, "option_right": "C", "expiry_weekday": "",
    "week_of_month": 0, "strike_decimal_locator": 0,
}
INDEX_FIELDS = {"name": "", "reference": 0, "open_time": "", "close_time": "", "update_date": ""}
WARRANT_FIELDS = {
    "name": "", "underlying_code": "", "underlying_type": "", "call_put": "C", "financial": "", "strike_price": 0,
    "expiry_date": "", "last_trading_date": "", "exercise_ratio": 0, "exercise_style": "European", "listing_date": "",
    "delisting_date": "", "exercise_start_date": "", "exercise_end_date": "", "barrier_upper": None,
    "barrier_lower": None, "residual_value": None, "settlement_method": "", "investor_restriction": "", "issue_size": 0,
    "reference": 0, "limit_up": 0, "limit_down": 0, "update_date": "",
}
FIELDS_OF_TYPE = {
    "STK": STOCK_FIELDS, "FUT": FUTURES_FIELDS, "OPT": OPTION_FIELDS, "IND": INDEX_FIELDS, "WRT": WARRANT_FIELDS,
}
OPTION_RIGHTS = {"Call": "C", "Put": "P", "C": "C", "P": "P"}


def _date_text(value: Any) -> Any:
    if isinstance(value, (dt.date, dt.datetime)):
        return value.strftime("%Y-%m-%d")
    if isinstance(value, str) and len(value) == 10 and value[4] in "/-":
        return value.replace("/", "-")
    return value


def _field(contract: Any, name: str, default: Any) -> Any:
    try:
        value = getattr(contract, name, None)
    except Exception:
        value = None
    if value is None:
        return default
    value = _date_text(enum_value(value))
    if name in ("option_right", "call_put"):
        return OPTION_RIGHTS.get(value, value)
    return value


def contract_info_json(contract: Any) -> dict[str, Any]:
    security_type = enum_value(contract.security_type)
    info: dict[str, Any] = {
        "security_type": security_type,
        "region": _field(contract, "region", "TW"),
        "exchange": enum_value(contract.exchange),
        "code": contract.code,
        "target_code": _field(contract, "target_code", None) or None,
    }
    for name, default in FIELDS_OF_TYPE.get(security_type, {}).items():
        info[name] = _field(contract, name, default)
    return info


def _is_contract(candidate: Any, code: str) -> bool:
    try:
        return getattr(candidate, "code", None) == code and getattr(candidate, "security_type", None) is not None
    except Exception:
        return False


def _lookup(category: Any, code: str) -> Any | None:
    try:
        candidate = category.get(code)
    except Exception:
        return None
    return candidate if _is_contract(candidate, code) else None


def resolve(contracts: Any, spec: dict[str, Any]) -> Any:
    """The SDK's own contract object for {security_type?, exchange?, code}."""
    code = spec.get("code") if isinstance(spec, dict) else None
    if not isinstance(code, str) or not code:
        raise invalid("contract: code is required")
    security_type = spec.get("security_type")
    names = [CATEGORY_OF_TYPE[security_type]] if security_type in CATEGORY_OF_TYPE else list(CATEGORIES)
    for name in names:
        found = _lookup(getattr(contracts, name), code)
        if found is not None:
            return found
    raise not_found(f"contract {security_type or ''} {code} not found among the SDK's contracts".replace("  ", " "))


def iterate(contracts: Any) -> Iterator[Any]:
    seen: set[tuple[Any, str]] = set()
    for name in CATEGORIES:
        for group in getattr(contracts, name):
            for contract in group:
                key = (enum_value(contract.security_type), contract.code)
                if key not in seen:
                    seen.add(key)
                    yield contract
