"""The protocol end to end over a subprocess sidecar driving the scripted SinoPac session."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import Sidecar, scripted_env

STOCK = {"security_type": "STK", "exchange": "TSE", "code": "2330"}
FUTURE = {"security_type": "FUT", "exchange": "TAIFEX", "code": "TXFR1"}
LOGIN = {"api_key": "scripted-key", "secret_key": "scripted-secret", "simulation": False, "receive_window": 30000,
         "fetch_contracts": True}


def stock_order(**fields: object) -> dict[str, object]:
    return {"action": "Buy", "price": 950, "quantity": 1, "price_type": "LMT", "order_type": "ROD", **fields}


@pytest.fixture
def sidecar(tmp_path: Path):
    process = Sidecar(scripted_env(tmp_path, {"quotes": {"interval_ms": 20}}))
    yield process
    process.close()


@pytest.fixture
def logged_in(sidecar: Sidecar) -> Sidecar:
    sidecar.result("login", LOGIN)
    return sidecar


def test_hello_comes_first_and_says_scripted(sidecar: Sidecar) -> None:
    assert sidecar.hello["type"] == "hello"
    assert sidecar.hello["protocol"] == 1 and sidecar.hello["sdk"] == "1.7.9" and sidecar.hello["scripted"] is True
    assert sidecar.result("ping") == {"sdk": "1.7.9"}


def test_protocol_errors_each_answered_once(sidecar: Sidecar) -> None:
    unknown = sidecar.send("no_such_method", {})
    bad_params = sidecar.send("login", {"api_key": 3})
    not_object = sidecar.send("ping", [])  # type: ignore[arg-type]
    sidecar.send_raw("not json")
    sidecar.send_raw(json.dumps({"type": "request", "id": 99, "method": 5}))
    for request_id in (unknown, bad_params, not_object, 99):
        assert sidecar.reply(request_id)["error"]["kind"] == "protocol"
    assert sidecar.reply(None)["error"]["kind"] == "protocol"
    assert sidecar.call("accounts")["error"]["kind"] == "not_logged_in"
    sidecar.drain(0.2)
    assert all(len(replies) == 1 for replies in sidecar.replies.values())
    assert sidecar.close() == 0


def test_login_accounts_contracts(logged_in: Sidecar) -> None:
    accounts = logged_in.result("accounts")
    assert {account["account_type"] for account in accounts} == {"S", "F"}
    assert accounts[0] == {"account_type": "S", "person_id": "A123456789", "broker_id": "9A95",
                           "account_id": "1234567", "signed": True, "username": "scripted"}
    contracts = {info["code"]: info for info in logged_in.result("contracts")}
    assert contracts["2330"]["limit_up"] == 1100.0 and contracts["2330"]["update_date"] == "2026-11-02"
    assert contracts["TXFR1"]["target_code"] == "TXFL6"
    assert contracts["TXO23000L6"]["option_right"] == "C" and contracts["IX0001"]["security_type"] == "IND"
    assert set(logged_in.result("usage")) == {"connections", "bytes", "limit_bytes", "remaining_bytes"}


def test_place_update_cancel_with_order_events(logged_in: Sidecar) -> None:
    trade = logged_in.result("place_order", {"contract": STOCK, "stock_order": stock_order(custom_field="ab1")})
    assert trade["status"]["status"] == "Submitted" and trade["order"]["custom_field"] == "ab1"
    assert trade["order"]["order_lot"] == "Common" and trade["order"]["ca"] == ""
    assert isinstance(trade["status"]["order_ts"], float)
    order_id = trade["order"]["id"]
    event = logged_in.wait_event(lambda e: e["event"] == "order" and e["data"]["body"]["order"]["id"] == order_id)
    assert event["data"]["state"] == "StockOrder" and event["data"]["body"]["operation"]["op_code"] == "00"
    updated = logged_in.result("update_order", {"id": order_id, "price": 960})
    assert updated["status"]["modified_price"] == 960
    cancelled = logged_in.result("cancel_order", {"id": order_id})
    assert cancelled["status"]["status"] == "Cancelled" and cancelled["status"]["cancel_quantity"] == 1
    assert logged_in.call("cancel_order", {"id": "nope"})["error"]["kind"] == "not_found"
    assert [t["order"]["id"] for t in logged_in.result("trades", {"refresh": True})] == [order_id]


def test_marketable_fills_and_outside_limits_fails(logged_in: Sidecar) -> None:
    filled = logged_in.result("place_order", {"contract": FUTURE, "futures_order": {
        "action": "Buy", "price": 23000, "quantity": 2, "price_type": "LMT", "order_type": "ROD", "octype": "NewPosition"}})
    assert filled["status"]["status"] == "Filled" and filled["order"]["octype"] == "New"
    assert filled["contract"]["target_code"] == "TXFL6" and filled["status"]["deals"][0]["quantity"] == 2
    deal = logged_in.wait_event(lambda e: e["event"] == "order" and e["data"]["state"] == "FuturesDeal")
    assert deal["data"]["body"]["trade_id"] == filled["order"]["id"]
    failed = logged_in.result("place_order", {"contract": STOCK, "stock_order": stock_order(price=1200)})
    assert failed["status"]["status"] == "Failed" and failed["status"]["msg"]
    rejected = logged_in.wait_event(lambda e: e["event"] == "order" and e["data"]["body"].get("operation", {}).get("op_code") == "88")
    assert rejected["data"]["body"]["order"]["id"] == failed["order"]["id"]


def test_invalid_orders_and_unknown_contracts(logged_in: Sidecar) -> None:
    bad = logged_in.call("place_order", {"contract": STOCK, "stock_order": stock_order(price_type="MKP")})
    assert bad["error"]["kind"] == "invalid" and "StockPriceType" in bad["error"]["message"]
    missing = logged_in.call("place_order", {"contract": {**STOCK, "code": "9999"}, "stock_order": stock_order()})
    assert missing["error"]["kind"] == "not_found"
    both = logged_in.call("place_order", {"contract": STOCK})
    assert both["error"]["kind"] == "protocol"


def test_quotes_pushed_after_subscribe(logged_in: Sidecar) -> None:
    assert logged_in.result("subscribe", {**STOCK, "quote_type": "Tick", "intraday_odd": False}) == {}
    first = logged_in.wait_event(lambda e: e["event"] == "quote" and e["data"]["name"] == "tick_stk")
    later = logged_in.wait_event(lambda e: e["event"] == "quote" and e["data"]["data"]["total_volume"] > 2)
    data = first["data"]["data"]
    assert data["code"] == "2330" and data["close"] == "1000" and data["intraday_odd"] is False
    assert len(data["date"]) == 10 and data["date"][4] == "-" and len(data["time"]) == 15
    assert later["data"]["data"]["total_volume"] > data["total_volume"]
    logged_in.result("subscribe", {**FUTURE, "quote_type": "BidAsk"})
    book = logged_in.wait_event(lambda e: e["event"] == "quote" and e["data"]["name"] == "bidask_fop")
    assert len(book["data"]["data"]["bid_price"]) == 5 and isinstance(book["data"]["data"]["bid_price"][0], str)
    assert logged_in.result("unsubscribe", {**STOCK, "quote_type": "Tick"}) == {}


def test_combo_and_call(logged_in: Sidecar) -> None:
    legs = [{"code": "TXFL6", "security_type": "FUT", "action": "Buy"},
            {"code": "TXFA7", "security_type": "FUT", "action": "Sell"}]
    combo = logged_in.result("place_comboorder", {"legs": legs, "order": {
        "action": "Buy", "price": 50, "quantity": 1, "price_type": "LMT", "order_type": "IOC", "combo_type": "TimeSpread"}})
    assert combo["order"]["combo_type"] == "TimeSpread" and combo["status"]["deals"] == {}
    assert [leg["action"] for leg in combo["contract"]["legs"]] == ["Buy", "Sell"]
    cancelled = logged_in.result("cancel_comboorder", {"id": combo["order"]["id"]})
    assert cancelled["status"]["status"] == "Cancelled"
    assert len(logged_in.result("combo_trades", {"refresh": True})) == 1
    assert logged_in.result("call", {"name": "account_balance", "params": {}})["acc_balance"] == 1_000_000.0
    assert logged_in.call("call", {"name": "place_order", "params": {}})["error"]["kind"] == "protocol"


def test_session_down_and_login_errors(tmp_path: Path) -> None:
    process = Sidecar(scripted_env(tmp_path, {"session_down_after_ms": 50}))
    process.result("login", LOGIN)
    process.wait_event(lambda e: e["event"] == "session_down")
    assert process.close() == 0
    for error, kind in (("connection", "connection"), ("value", "login"), ("timeout", "timeout")):
        failing = Sidecar(scripted_env(tmp_path, {"login": {"error": error}}))
        answer = failing.call("login", LOGIN)["error"]
        assert answer["kind"] == kind and answer["hint"], answer
        failing.close()
    refused = Sidecar(scripted_env(tmp_path, {"ca": {"refuse": "憑證密碼錯誤"}}))
    refused.result("login", LOGIN)
    answer = refused.call("activate_ca", {"ca_path": "/x.pfx", "ca_passwd": "p", "person_id": "A123456789"})["error"]
    assert answer == {"kind": "ca", "message": "憑證密碼錯誤", "hint": answer["hint"]}
    refused.close()


def test_orders_survive_a_restart_and_fill_while_down(tmp_path: Path) -> None:
    scenario = {"fill": {"resting_after_ms": 150}}
    first = Sidecar(scripted_env(tmp_path, dict(scenario)))
    first.result("login", LOGIN)
    placed = first.result("place_order", {"contract": STOCK, "stock_order": stock_order(price=950)})
    assert first.close() == 0
    second = Sidecar(scripted_env(tmp_path, dict(scenario)))
    second.result("login", LOGIN)
    second.drain(0.25)
    assert second.result("trades", {"refresh": False}) == []
    trades = second.result("trades", {"refresh": True})
    assert trades[0]["order"]["id"] == placed["order"]["id"] and trades[0]["status"]["status"] == "Filled"
    assert trades[0]["status"]["deals"][0]["ts"] == pytest.approx(placed["status"]["order_ts"] + 0.15, abs=0.01)
    second.close()
