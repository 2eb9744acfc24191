"""Trade and ComboTrade objects to Trade JSON (src/domain/orders.ts, docs/official-behaviour.md)."""

from __future__ import annotations

from typing import Any

from .convert import account_json, enum_value, epoch_seconds, number, text

STOCK_SECURITY_TYPES = ("STK", "WRT")


def contract_json(contract: Any) -> dict[str, Any]:
    return {
        "security_type": enum_value(contract.security_type),
        "exchange": enum_value(contract.exchange),
        "code": contract.code,
        "target_code": getattr(contract, "target_code", None) or None,
    }


def deal_json(deal: Any) -> dict[str, Any]:
    return {"seq": text(deal.seq), "price": number(deal.price), "quantity": number(deal.quantity), "ts": number(deal.ts)}


def _order_common(order: Any) -> dict[str, Any]:
    return {
        "id": order.id,
        "seqno": text(order.seqno),
        "ordno": text(order.ordno),
        "action": enum_value(order.action),
        "price": number(order.price),
        "quantity": number(order.quantity),
        "time_in_force": enum_value(order.time_in_force) or "ROD",
        "order_type": enum_value(order.time_in_force) or "ROD",
        "custom_field": text(order.custom_field),
        "account": account_json(order.account),
        "ca": "",
    }


def stock_order_json(order: Any) -> dict[str, Any]:
    return {
        **_order_common(order),
        "price_type": enum_value(order.price_type),
        "order_cond": enum_value(order.order_cond) or "Cash",
        "order_lot": enum_value(order.order_lot) or "Common",
    }


def futures_order_json(order: Any) -> dict[str, Any]:
    return {**_order_common(order), "price_type": enum_value(order.price_type), "octype": enum_value(order.octype) or "Auto"}


def _status_common(status: Any) -> dict[str, Any]:
    return {
        "id": status.id,
        "status": enum_value(status.status),
        "status_code": text(status.status_code),
        "web_id": text(getattr(status, "web_id", None)),
        "order_ts": epoch_seconds(status.order_datetime),
        "msg": text(status.msg),
        "modified_ts": epoch_seconds(status.modified_time),
        "modified_price": number(status.modified_price),
        "order_quantity": number(status.order_quantity),
        "deal_quantity": number(status.deal_quantity),
        "cancel_quantity": number(status.cancel_quantity),
    }


def is_stock_trade(trade: Any) -> bool:
    return enum_value(trade.contract.security_type) in STOCK_SECURITY_TYPES


def trade_json(trade: Any) -> dict[str, Any]:
    order = stock_order_json(trade.order) if is_stock_trade(trade) else futures_order_json(trade.order)
    status = {**_status_common(trade.status), "deals": [deal_json(deal) for deal in list(trade.status.deals)]}
    return {"contract": contract_json(trade.contract), "order": order, "status": status}


def combo_leg_json(leg: Any) -> dict[str, Any]:
    return {**contract_json(leg), "action": enum_value(getattr(leg, "action", None))}


def combo_trade_json(trade: Any) -> dict[str, Any]:
    order = trade.order
    combo_type = getattr(order, "combo_type", None) or getattr(trade.contract, "combo_type", None)
    order_json = {
        key: value for key, value in _order_common(order).items() if key not in ("custom_field", "ca")
    }
    order_json.update(
        price_type=enum_value(order.price_type),
        octype=enum_value(order.octype) or "Auto",
        combo_type=enum_value(combo_type),
    )
    deals = {code: [deal_json(deal) for deal in leg_deals] for code, leg_deals in dict(trade.status.deals or {}).items()}
    return {
        "contract": {"legs": [combo_leg_json(leg) for leg in trade.contract.legs]},
        "order": order_json,
        "status": {**_status_common(trade.status), "deals": deals},
    }
