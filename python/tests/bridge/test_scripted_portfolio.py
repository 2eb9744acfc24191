"""The scripted session's lists and account queries: look-alikes that expose only what the stub declares, booked
from the fills (first in, first out), and converted to exactly the gateway's shapes (src/domain/market-data.ts,
src/domain/portfolio.ts; the simulator's answers in test/e2e/production-shapes.test.ts)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import shioaji as sj

from sjgate_bridge import answers
from sjgate_bridge.errors import from_exception
from sjgate_bridge.lookalike import LookAlike
from sjgate_bridge.scripted import ScriptedShioaji

from .test_conformance import declared

FAR = ("1970-01-01", "9999-12-31")


def _parts(answer: Any) -> list[LookAlike]:
    """The look-alikes of an answer, nested ones included."""
    found: list[LookAlike] = []
    for item in answer if isinstance(answer, list) else [answer]:
        if isinstance(item, LookAlike):
            found.append(item)
            for value in item.fields().values():
                if isinstance(value, (LookAlike, list)):
                    found += _parts(value)
    return found


@pytest.fixture
def api(tmp_path: Path):
    session = ScriptedShioaji(scenario={"state_path": str(tmp_path / "s.json")})
    session.login("k", "s")
    stock, alias = session.Contracts.Stocks.get("2330"), session.Contracts.Futures.get("TXFR1")
    for action, quantity in (("Buy", 2), ("Sell", 1)):
        session.place_order(stock, sj.StockOrder(action=action, price=1000, quantity=quantity, price_type="LMT",
                                                 time_in_force="ROD"))
    for action in ("Buy", "Sell", "Buy"):
        session.place_order(alias, sj.FuturesOrder(action=action, price=23000, quantity=1, price_type="LMT",
                                                   time_in_force="ROD"))
    yield session
    session.logout()


def futures_account(api: ScriptedShioaji) -> Any:
    return next(a for a in api.list_accounts() if a.account_type == sj.AccountType.Future)


def all_answers(api: ScriptedShioaji) -> dict[str, Any]:
    stocks = [api.Contracts.Stocks.get("2330"), api.Contracts.Stocks.get("2884")]
    futures = futures_account(api)
    return {
        "scanners": api.scanners(sj.ScannerType.VolumeRank, count=2), "credit_enquires": api.credit_enquires(stocks),
        "short_stock_sources": api.short_stock_sources(stocks), "punish": api.punish(), "notice": api.notice(),
        "daily_quotes": api.daily_quotes(dt.date(2026, 11, 25)), "margin": api.margin(futures),
        "trading_limits": api.trading_limits(None), "account_balance": api.account_balance(None),
        "list_position_detail": api.list_position_detail(None, 0) + api.list_position_detail(futures, 0),
        "list_profit_loss": api.list_profit_loss(None, *FAR) + api.list_profit_loss(futures, *FAR),
        "list_profit_loss_detail": api.list_profit_loss_detail(None, 0) + api.list_profit_loss_detail(futures, 0),
        "list_profit_loss_summary": api.list_profit_loss_summary(None, *FAR),
    }


def test_the_lookalikes_expose_only_declared_names(api: ScriptedShioaji) -> None:
    for name, answer in all_answers(api).items():
        parts = _parts(answer)
        assert parts, name
        for part in parts:
            assert set(part.fields()) <= declared(part.stub), (part.stub, set(part.fields()) - declared(part.stub))


def test_the_answers_convert_to_the_gateway_shapes(api: ScriptedShioaji) -> None:
    gateway = {name: answers.answer_json(name, answer) for name, answer in all_answers(api).items()}
    assert list(gateway["scanners"][0]) == list(answers.SCANNER_ITEM)
    assert gateway["scanners"][0]["rank_value"] >= gateway["scanners"][1]["rank_value"], "largest first"
    assert len(gateway["short_stock_sources"][0]["datetime"]) == len("2026-11-26T13:29:43")
    assert gateway["punish"]["updated_at"][0].endswith("T17:30:00")
    assert all(isinstance(day, str) and len(day) == 10 for day in gateway["punish"]["start_date"])
    assert gateway["daily_quotes"]["Date"] == ["2026-11-25"] * 3
    assert len(gateway["account_balance"]["date"]) == len("2026-11-26 19:44:48.065091")
    assert gateway["margin"]["initial_margin"] == 338_000.0 and gateway["margin"]["fee"] == 180.0
    assert gateway["trading_limits"]["trading_used"] == 2_000_000
    stock_detail, futures_detail = gateway["list_position_detail"]
    assert (stock_detail["quantity"], stock_detail["direction"], "entry_quantity" in futures_detail) == (1000, "Buy", True)
    stock_loss, futures_loss = gateway["list_profit_loss"]
    assert (stock_loss["quantity"], stock_loss["cond"], futures_loss["direction"]) == (1, "Cash", "Buy")
    assert stock_loss["pnl"] == -(1425 + 1425 + 3000), "fees of both sides and the sale's tax"
    assert [row["trade_type"] for row in gateway["list_profit_loss_detail"][:2]] == ["DayTrade", "DayTrade"]
    assert "entry_seqno" in gateway["list_profit_loss_detail"][2]
    summary = gateway["list_profit_loss_summary"]
    assert list(summary) == ["profitloss_sum", "total"] and summary["profitloss_sum"][0]["quantity"] == 1000
    assert summary["total"]["pnl"] == stock_loss["pnl"]


def test_an_unknown_detail_id_answers_no_rows(api: ScriptedShioaji) -> None:
    assert api.list_position_detail(None, 9) == [] and api.list_profit_loss_detail(None, 9) == []


def test_a_closed_short_is_realized_too(api: ScriptedShioaji) -> None:
    stock = api.Contracts.Stocks.get("2884")
    for action in ("Sell", "Buy"):
        api.place_order(stock, sj.StockOrder(action=action, price=32.65, quantity=1, price_type="LMT",
                                             time_in_force="ROD"))
    rows = answers.answer_json("list_profit_loss", api.list_profit_loss(None, *FAR))
    assert [row["code"] for row in rows] == ["2330", "2884"]
    assert api.list_positions(None)[0].code == "2330"


@pytest.mark.parametrize("error", [AttributeError("'ScriptedShioaji' object has no attribute 'x'"),
                                   TypeError("f() got an unexpected keyword argument 'y'")])
def test_a_missing_method_or_a_wrong_call_is_the_bridges_bug(error: Exception) -> None:
    assert from_exception(error, "call").kind == "protocol"


def test_the_sdks_own_errors_keep_their_kinds() -> None:
    assert from_exception(sj.ShioajiTypeError("bad type"), "call").kind == "invalid"
    assert from_exception(ValueError("bad value"), "call").kind == "invalid"
    assert from_exception(RuntimeError("upstream said no"), "call").kind == "sdk"
