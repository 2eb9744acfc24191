"""The market scanner through the bridge: the SDK presets built from the gateway's ids, the scripted session's
scanner events (look-alikes of declared stub classes only), their conversion to the `scanner` payloads, and
subscribe_scanner end to end over the protocol."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
import shioaji as sj

from sjgate_bridge import scanner
from sjgate_bridge.errors import BridgeError
from sjgate_bridge.lookalike import LookAlike
from sjgate_bridge.scripted import ScriptedShioaji

from .helpers import Sidecar, scripted_env
from .test_conformance import declared

RULES = (*scanner.LIMIT_RULES, *scanner.PRICE_MOVE_FACTORIES, "volume_burst")


def test_every_gateway_id_builds_the_sdk_preset_of_that_id() -> None:
    for rule in RULES:
        assert scanner.preset(sj, rule).id == rule
    assert scanner.preset(sj, "simtrade") == sj.StreamScanner.Simtrade
    assert scanner.preset(sj, "suspend") == sj.StreamScanner.Suspend
    with pytest.raises(BridgeError):
        scanner.preset(sj, "moon")
    with pytest.raises(BridgeError):
        scanner.arguments(sj, {"scanner": "volume_burst", "exchange": "TAIFEX"})
    preset, scope = scanner.arguments(sj, {"scanner": "volume_burst", "exchange": "OTC"})
    assert scope == {"region": sj.Region.TW, "security_type": sj.SecurityType.Stock, "exchange": sj.Exchange.OTC}


def _events(api: ScriptedShioaji) -> list[Any]:
    heard: list[Any] = []
    api.dispatcher.post = lambda callback, *args: heard.append(args[0])  # type: ignore[method-assign]
    api._emit_scanners()
    return heard


def _parts(value: Any) -> Iterator[LookAlike]:
    if isinstance(value, LookAlike):
        yield value
        for field in value.fields().values():
            yield from _parts(field)


@pytest.fixture
def api(tmp_path: Path) -> ScriptedShioaji:
    session = ScriptedShioaji(scenario={"state_path": str(tmp_path / "s.json")})
    session.login("key", "secret")
    return session


def test_scripted_scanner_events_use_declared_names_and_convert(api: ScriptedShioaji) -> None:
    scope = {"region": sj.Region.TW, "security_type": sj.SecurityType.Stock, "exchange": sj.Exchange.TSE}
    api.subscribe_scanner(sj.LimitScanner.bid_touch_limit_up(), **scope)
    api.subscribe_scanner(sj.PriceMoveScanner.ask_drop(), **scope)
    api.subscribe_scanner(sj.VolumeScanner.burst(), **scope)
    api.subscribe_scanner(sj.StreamScanner.Simtrade, **scope)
    events = _events(api)
    assert [type(e) for e in events] == [LookAlike] * 4
    for event in events:
        for part in _parts(event):
            assert set(part.fields()) <= declared(part.stub), (part.stub, set(part.fields()) - declared(part.stub))
    payloads = {p.get("scanner") or p["scanners"][0]: p for p in map(scanner.scanner_payload, events)}
    touch = payloads["bid_touch_limit_up"]
    assert list(touch) == ["scanner", "region", "security_type", "exchange", "quote", "extra"]
    assert (touch["region"], touch["security_type"], touch["exchange"]) == ("TW", "STK", "TSE")
    assert list(touch["extra"]) == ["previous_best_price", "trigger_price", "limit_price"]
    assert isinstance(touch["extra"]["limit_price"], str)
    for key in ("code", "date", "time", "open", "close", "amount_sum", "vol_sum", "diff_price", "simtrade"):
        assert key in touch["quote"], key
    assert isinstance(touch["quote"]["bid_price"], str), "the best bid, not the five levels"
    drop = payloads["ask_price_drop"]["extra"]
    assert list(drop) == ["reference_time", "reference_price", "change_price", "change_percent", "tick_change",
                          "elapsed_ms"]
    assert drop["tick_change"] == -3 and drop["change_price"].startswith("-")
    burst = payloads["volume_burst"]["extra"]
    assert list(burst) == ["amount", "volume", "price", "threshold"]
    assert isinstance(burst["amount"], int) and isinstance(burst["threshold"], int)
    state = payloads["simtrade"]
    assert list(state) == ["scanners", "region", "security_type", "exchange", "quote"]
    assert state["scanners"] == ["simtrade"] and state["quote"]["simtrade"] is True


def test_unsubscribe_stops_and_an_unknown_exchange_is_refused(api: ScriptedShioaji) -> None:
    scope = {"region": sj.Region.TW, "security_type": sj.SecurityType.Stock, "exchange": sj.Exchange.OTC}
    api.subscribe_scanner(sj.StreamScanner.Suspend, **scope)
    assert len(_events(api)) == 1
    api.unsubscribe_scanner(sj.StreamScanner.Suspend, **scope)
    assert _events(api) == []
    with pytest.raises(sj.ShioajiValueError):
        api.subscribe_scanner(sj.StreamScanner.Suspend, region=sj.Region.TW, security_type=sj.SecurityType.Stock,
                              exchange=sj.Exchange.TAIFEX)


def test_gap_report_passes_on_with_its_subscriptions() -> None:
    gap = LookAlike("ScannerGapEvent", dropped_count=7, first_time="09:00:01.000000", last_time="09:00:02.000000",
                    subscriptions=[LookAlike("ScannerGapSubscription", scanner=sj.VolumeScanner.burst(),
                                             region=sj.Region.TW, security_type=sj.SecurityType.Stock,
                                             exchange=sj.Exchange.TSE)])
    assert scanner.scanner_payload(gap) == {
        "dropped_count": 7, "first_time": "09:00:01.000000", "last_time": "09:00:02.000000",
        "subscriptions": [{"scanner": "volume_burst", "region": "TW", "security_type": "STK", "exchange": "TSE"}],
    }


def test_subscribe_scanner_over_the_protocol(tmp_path: Path) -> None:
    process = Sidecar(scripted_env(tmp_path, {"quotes": {"interval_ms": 20}}))
    try:
        process.result("login", {"api_key": "key", "secret_key": "secret"})
        params = {"scanner": "limit_up_unlocked", "region": "TW", "security_type": "STK", "exchange": "TSE"}
        assert process.result("subscribe_scanner", params) == {}
        event = process.wait_event(lambda e: e["event"] == "quote" and e["data"]["name"] == "scanner")
        assert event["data"]["data"]["scanner"] == "limit_up_unlocked"
        assert event["data"]["data"]["extra"]["previous_best_price"] is None
        assert process.result("unsubscribe_scanner", params) == {}
        refused = process.call("subscribe_scanner", {**params, "scanner": "moon"})
        assert "error" in refused
    finally:
        process.close()
