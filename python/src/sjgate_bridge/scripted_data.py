"""The scripted session's built-in data: its default accounts and contracts (SinoPac-shaped, field names of the
stub's StockInfo, FuturesInfo, OptionInfo and IndexInfo)."""

from __future__ import annotations

import datetime as dt
from typing import Any

DEFAULT_ACCOUNTS: list[dict[str, Any]] = [
    {"account_type": "S", "person_id": "A123456789", "broker_id": "9A95", "account_id": "1234567", "signed": True,
     "username": "scripted"},
    {"account_type": "F", "person_id": "A123456789", "broker_id": "F002000", "account_id": "1234567", "signed": True,
     "username": "scripted"},
]

TODAY = dt.date(2026, 11, 2)


def _stock(code: str, name: str, category: str, reference: float, up: float, down: float) -> dict[str, Any]:
    return {
        "stub": "StockInfo", "security_type": "STK", "region": "TW", "exchange": "TSE", "code": code,
        "target_code": None, "name": name, "category": category, "currency": "TWD", "unit": 1000.0, "day_trade": "Yes",
        "reference": reference, "limit_up": up, "limit_down": down, "margin_trading_balance": 0,
        "short_selling_balance": 0, "trading_suspended": False, "margin_loan_ratio": 0.6, "margin_quota_lots": 0,
        "short_margin_ratio": 0.9, "short_quota_lots": 0, "margin_shortable": True, "sbl_shortable": True,
        "below_ref_shortable": False, "disposition_level": 0, "attention_flag": False, "etf_constituent": True,
        "settlement_type": "T+2", "disposition_match_interval_min": None, "disposition_max_lots_single_order": None,
        "disposition_max_lots_total_orders": None, "disposition_prepay_ratio": None, "update_date": TODAY,
    }


def _derivative(code: str, target: str | None, month: str, delivery: dt.date, reference: float) -> dict[str, Any]:
    return {
        "security_type": "FUT", "region": "TW", "exchange": "TAIFEX", "code": code, "target_code": target,
        "name": f"臺股期貨{month[4:]}", "root": "TXF", "delivery_month": month, "delivery_date": delivery,
        "last_trading_date": delivery, "begin_date": dt.date(2025, 1, 1), "underlying_kind": "I",
        "underlying_code": "TXF", "multiplier": 200.0, "contract_size": 200.0, "size_unit": "index_point",
        "quote_ccy": "TWD", "tick_basis": "fixed", "tick_rule": None, "tick": 1.0, "tick_value": 200.0,
        "spec_kind": "index_fut", "decimal_locator": 0, "dynamic_banding": True, "flow_group": "TXF",
        "reference": reference, "limit_up": round(reference * 1.1), "limit_down": round(reference * 0.9),
        "limit_up_2": round(reference * 1.1), "limit_down_2": round(reference * 0.9),
        "limit_up_3": round(reference * 1.1), "limit_down_3": round(reference * 0.9), "update_date": TODAY,
    }


def _future(code: str, target: str | None, month: str, delivery: dt.date, reference: float) -> dict[str, Any]:
    return {"stub": "FuturesInfo", **_derivative(code, target, month, delivery, reference)}


# TXO codes: root, strike, a month letter (calls A-L, puts M-X for January to December) and the year's last digit.
OPTION_MONTH_LETTERS = {"C": "ABCDEFGHIJKL", "P": "MNOPQRSTUVWX"}
OPTION_STRIKES = range(22600, 23401, 100)
TXO_UNDERLYING = 23000.0


def _premium(strike: int, right: str) -> float:
    """A plausible December premium: the intrinsic value and some time value, on the TXO premium ticks."""
    intrinsic = max(0.0, TXO_UNDERLYING - strike if right == "C" else strike - TXO_UNDERLYING)
    premium = intrinsic + max(20.0, 300.0 - abs(strike - TXO_UNDERLYING) / 4)
    return float(round(premium / 5) * 5 if premium >= 500 else round(premium))


def _option(strike: int, right: str) -> dict[str, Any]:
    code = f"TXO{strike}{OPTION_MONTH_LETTERS[right][11]}6"
    fields = _derivative(code, None, "202612", dt.date(2026, 12, 16), _premium(strike, right))
    fields.update(
        stub="OptionInfo", security_type="OPT", name=f"臺指選擇權12月 {strike}{right}", root="TXO",
        spec_kind="index_opt", tick_basis="premium", tick_rule="TXO", tick=0.1, tick_value=5.0, multiplier=50.0, contract_size=50.0,
        limit_up=2800.0, limit_down=0.1, limit_up_2=2800.0, limit_down_2=0.1, limit_up_3=2800.0, limit_down_3=0.1,
        underlying_code="TXF", flow_group="TXO", strike_price=float(strike), option_right=right,
        expiry_weekday="Wednesday", week_of_month=3, strike_decimal_locator=0,
    )
    return fields


def default_contracts() -> list[dict[str, Any]]:
    return [
        _stock("2330", "台積電", "24", 1000.0, 1100.0, 900.0),
        _stock("2884", "玉山金", "17", 32.65, 35.9, 29.4),
        _stock("2890", "永豐金", "17", 20.0, 22.0, 18.0),
        {"stub": "IndexInfo", "security_type": "IND", "region": "TW", "exchange": "TSE", "code": "IX0001",
         "target_code": None, "name": "TSE001", "reference": 23000.0, "open_time": "09:00", "close_time": "13:30",
         "update_date": TODAY},
        _future("TXFL6", None, "202612", dt.date(2026, 12, 16), 23000.0),
        _future("TXFA7", None, "202701", dt.date(2027, 1, 20), 23050.0),
        _future("TXFR1", "TXFL6", "202612", dt.date(2026, 12, 16), 23000.0),
        *(_option(strike, right) for right in ("C", "P") for strike in OPTION_STRIKES),
    ]
