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


def _stock(code: str, name: str, reference: float, up: float, down: float) -> dict[str, Any]:
    return {
        "stub": "StockInfo", "security_type": "STK", "region": "TW", "exchange": "TSE", "code": code,
        "target_code": None, "name": name, "category": "24", "currency": "TWD", "unit": 1000.0, "day_trade": "Yes",
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


def _option() -> dict[str, Any]:
    fields = _derivative("TXO23000L6", None, "202612", dt.date(2026, 12, 16), 500.0)
    fields.update(
        stub="OptionInfo", security_type="OPT", name="臺指選擇權12月 23000C", root="TXO", spec_kind="index_opt",
        tick_basis="premium", tick=0.1, tick_value=5.0, multiplier=50.0, contract_size=50.0, limit_up=2800.0,
        limit_down=0.1, limit_up_2=2800.0, limit_down_2=0.1, limit_up_3=2800.0, limit_down_3=0.1, underlying_code="TXF",
        flow_group="TXO", strike_price=23000.0, option_right="C", expiry_weekday="Wednesday", week_of_month=3,
        strike_decimal_locator=0,
    )
    return fields


def default_contracts() -> list[dict[str, Any]]:
    return [
        _stock("2330", "台積電", 1000.0, 1100.0, 900.0),
        _stock("2890", "永豐金", 20.0, 22.0, 18.0),
        {"stub": "IndexInfo", "security_type": "IND", "region": "TW", "exchange": "TSE", "code": "IX0001",
         "target_code": None, "name": "TSE001", "reference": 23000.0, "open_time": "09:00", "close_time": "13:30",
         "update_date": TODAY},
        _future("TXFL6", None, "202612", dt.date(2026, 12, 16), 23000.0),
        _future("TXFA7", None, "202701", dt.date(2027, 1, 20), 23050.0),
        _future("TXFR1", "TXFL6", "202612", dt.date(2026, 12, 16), 23000.0),
        _option(),
    ]
