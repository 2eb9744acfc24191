"""The order callback payloads of the scripted session: exactly the keys of the stub's StockOrderEvent,
StockDealEvent, FuturesOrderEvent and FuturesDealEvent TypedDicts."""

from __future__ import annotations

from typing import Any

OPTION_RIGHTS = {"C": "OptionCall", "P": "OptionPut"}


def _operation(op_type: str, op_code: str, op_msg: str) -> dict[str, Any]:
    return {"op_type": op_type, "op_code": op_code, "op_msg": op_msg}


def _status(record: dict[str, Any], exchange_ts: float) -> dict[str, Any]:
    return {
        "id": record["id"], "exchange_ts": exchange_ts, "modified_price": float(record["modified_price"]),
        "cancel_quantity": record["cancel_quantity"], "order_quantity": record["order_quantity"],
        "web_id": record["web_id"],
    }


def _order_common(record: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": record["id"], "seqno": record["seqno"], "ordno": record["ordno"], "account": dict(record["account"]),
        "action": record["action"], "price": float(record["price"]), "quantity": record["quantity"],
        "time_in_force": record["order_type"], "order_type": record["order_type"], "price_type": record["price_type"],
    }


def _right(info: dict[str, Any]) -> str:
    return OPTION_RIGHTS.get(info.get("option_right") or "", "Future")


def order_event(record: dict[str, Any], info: dict[str, Any], operation: tuple[str, str, str], ts: float) -> dict[str, Any]:
    event: dict[str, Any] = {"event_id": f"ev-{record['id']}-{ts:.6f}", "operation": _operation(*operation)}
    if record["kind"] == "stock":
        event["order"] = {**_order_common(record), "order_cond": record["order_cond"], "order_lot": record["order_lot"],
                          "custom_field": record["custom_field"]}
        event["status"] = _status(record, ts)
        event["contract"] = {"exchange": info["exchange"], "code": info["code"], "security_type": info["security_type"],
                             "symbol": info["exchange"] + info["code"], "name": info["name"], "currency": "TWD"}
        return event
    event["order"] = {**_order_common(record), "market_type": "Day", "oc_type": record["octype"], "subaccount": "",
                      "combo": False}
    event["status"] = _status(record, ts)
    event["contract"] = {
        "security_type": info["security_type"], "code": info.get("root", info["code"]), "exchange": "TIM",
        "delivery_month": info.get("delivery_month", ""), "full_code": info.get("target_code") or info["code"],
        "delivery_date": str(info.get("delivery_date", "")).replace("-", "/"),
        "strike_price": float(info.get("strike_price") or 0), "option_right": _right(info),
    }
    return event


def deal_event(record: dict[str, Any], info: dict[str, Any], deal: dict[str, Any]) -> dict[str, Any]:
    common = {
        "event_id": f"ev-{record['id']}-deal-{deal['seq']}", "trade_id": record["id"], "seqno": record["seqno"],
        "ordno": record["ordno"] + deal["seq"][-3:], "exchange_seq": deal["seq"],
        "broker_id": record["account"]["broker_id"], "account_id": record["account"]["account_id"],
        "action": record["action"], "code": info["code"], "price": float(deal["price"]), "quantity": deal["quantity"],
    }
    if record["kind"] == "stock":
        return {**common, "order_cond": record["order_cond"], "order_lot": record["order_lot"],
                "web_id": record["web_id"], "custom_field": record["custom_field"], "ts": deal["ts"]}
    return {
        **common, "code": info.get("root", info["code"]), "full_code": info.get("target_code") or info["code"], "subaccount": "",
        "security_type": info["security_type"], "delivery_month": info.get("delivery_month", ""),
        "strike_price": float(info.get("strike_price") or 0), "option_right": _right(info), "market_type": "Day",
        "combo": False, "ts": deal["ts"],
    }
