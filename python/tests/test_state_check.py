"""The comparison behind the check rejected_request_changes_nothing: what it reports and what it leaves to the market."""

from __future__ import annotations

import copy
from typing import Any

from schemathesis_hooks import _orders, differences


def trade(trade_id: str, *, price: float = 500, status: str = "Submitted", dealt: int = 0) -> dict[str, Any]:
    return {
        "order": {"id": trade_id, "price": price, "quantity": 2},
        "status": {
            "status": status,
            "modified_price": 0,
            "order_quantity": 2,
            "cancel_quantity": 0,
            "deal_quantity": dealt,
        },
    }


def state(trades: list[dict[str, Any]], *, filled: int = 0, positions: Any = None) -> dict[str, Any]:
    return {
        "orders": _orders(trades),
        "combo_orders": _orders([]),
        "filled": filled,
        "positions": positions or {"S": [], "F": []},
        "subscriptions": {"subscriptions": [], "count": 0},
        "accounts": [],
        "apps": {"apps": []},
        "watchlists": [],
    }


def test_the_same_state_has_no_differences() -> None:
    before = state([trade("a1"), trade("b2")])
    assert differences(before, copy.deepcopy(before)) == []


def test_a_new_order_a_cancel_and_a_price_change_are_reported() -> None:
    before = state([trade("a1"), trade("b2")])
    assert differences(before, state([trade("a1"), trade("b2"), trade("c3")])) == ["orders: 2 before, 3 after"]
    cancelled = differences(before, state([trade("a1", status="Cancelled"), trade("b2")]))
    assert len(cancelled) == 1 and cancelled[0].startswith("orders[a1]:")
    repriced = state([trade("a1"), trade("b2")])
    repriced["orders"]["by_id"]["b2"]["modified_price"] = 510
    assert [line.split(":")[0] for line in differences(before, repriced)] == ["orders[b2]"]


def test_a_subscription_or_an_app_is_reported() -> None:
    before = state([])
    after = copy.deepcopy(before)
    after["subscriptions"] = {"subscriptions": [{"code": "2330"}], "count": 1}
    after["apps"] = {"apps": ["x"]}
    assert [line.split(":")[0] for line in differences(before, after)] == ["subscriptions", "apps"]


def test_fills_are_the_market_and_positions_count_only_without_them() -> None:
    held = {"S": [("2330", "Buy", 1, 0, "Cash")], "F": []}
    before = state([trade("a1")], filled=0)
    # the market filled a resting order in between: the position moved with it, nothing is reported
    filled = state([trade("a1", status="Filled", dealt=2)], filled=2, positions=held)
    assert differences(before, filled) == []
    # a position that moved without a fill is reported
    assert [line.split(":")[0] for line in differences(before, state([trade("a1")], positions=held))] == ["positions"]
