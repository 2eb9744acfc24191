"""The sidecar against the INSTALLED SDK: methods and keywords it calls, enum values it maps, order bodies the SDK
accepts, and the field names its converters read or the scripted session imitates, all from the SDK's own stub."""

from __future__ import annotations

import ast
import datetime as dt
import inspect
import itertools
from functools import cache
from pathlib import Path

import pytest
import shioaji as sj

from sjgate_bridge import answers, orders, portfolio_answers, quotes, reserve_answers, scripted_quotes
from sjgate_bridge.errors import BridgeError
from sjgate_bridge.lookalike import LookAlike
from sjgate_bridge.scripted import ScriptedContractsApi, ScriptedShioaji
from sjgate_bridge.scripted_data import default_contracts

STUB = Path(sj.__file__).with_name("_core.pyi")

# Every Shioaji method the sidecar calls (bridge.py, callbacks.py, queries.py) with the keywords it passes.
CALLS = {
    "login": ("api_key", "secret_key", "subscribe_trade", "receive_window"),
    "logout": (), "usage": (), "list_accounts": (), "fetch_contracts": (),
    "activate_ca": ("ca_path", "ca_passwd", "person_id"), "get_ca_expiretime": ("person_id",),
    "place_order": ("contract", "order"), "update_order": ("trade", "price", "qty"), "cancel_order": ("trade",),
    "update_status": (), "list_trades": (), "place_comboorder": ("combo_contract", "order"),
    "cancel_comboorder": ("combo_trade",), "update_combostatus": (), "list_combotrades": (),
    "subscribe": ("contract", "quote_type", "intraday_odd", "ranking", "projection"),
    "unsubscribe": ("contract", "quote_type", "intraday_odd", "ranking", "projection"),
    "subscribe_trade": ("account",), "set_order_callback": ("callback",), "set_event_callback": ("callback",),
    "set_session_down_callback": ("callback",),
    **{setter: ("callback", "bind") for setter in (
        "set_on_tick_stk_v1_callback", "set_on_bidask_stk_v1_callback", "set_on_quote_stk_v1_callback",
        "set_on_tick_fop_v1_callback", "set_on_bidask_fop_v1_callback", "set_on_quote_fop_v1_callback",
        "set_on_quote_idx_v1_callback", "set_on_kbar_callback", "set_on_calculated_index_callback",
        "set_on_index_contribution_callback", "set_on_industry_contribution_callback",
        "set_on_index_components_callback")},
}


@cache
def stub_classes() -> dict[str, ast.ClassDef]:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def declared(name: str) -> set[str]:
    """Annotated fields and properties of a stub class and its stub bases."""
    node = stub_classes()[name]
    names = {item.target.id for item in node.body if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)}
    names |= {item.name for item in node.body if isinstance(item, ast.FunctionDef)
              and any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list)}
    for base in node.bases:
        if isinstance(base, ast.Name) and base.id in stub_classes():
            names |= declared(base.id)
    return names


@pytest.mark.parametrize("method", sorted(CALLS))
def test_every_called_method_exists_with_its_keywords(method: str) -> None:
    parameters = inspect.signature(getattr(sj.Shioaji, method)).parameters
    assert set(CALLS[method]) <= set(parameters), (method, list(parameters))


# The `call` queries the scripted session answers itself (the others exist only in the real SDK).
SCRIPTED_QUERIES = (
    "snapshots", "ticks", "kbars", "account_balance", "list_positions", "settlements", "scanners", "credit_enquires",
    "short_stock_sources", "punish", "notice", "daily_quotes", "margin", "trading_limits", "list_position_detail",
    "list_profit_loss", "list_profit_loss_detail", "list_profit_loss_summary", "stock_reserve_summary",
    "stock_reserve_detail", "earmarking_detail", "reserve_stock", "reserve_earmarking", "index_components",
)


@pytest.mark.parametrize("method", sorted(CALLS) + list(SCRIPTED_QUERIES))
def test_the_scripted_session_has_the_same_signature(method: str) -> None:
    real = inspect.signature(getattr(sj.Shioaji, method)).parameters
    scripted = inspect.signature(getattr(ScriptedShioaji, method)).parameters
    assert list(real) == list(scripted), method


def test_every_mapped_enum_value_exists() -> None:
    for enum, values in {
        sj.Action: ("Buy", "Sell"), sj.StockPriceType: ("LMT", "MKT"), sj.FuturesPriceType: ("LMT", "MKT", "MKP"),
        sj.TimeInForce: ("ROD", "IOC", "FOK"), sj.OrderType: ("ROD", "IOC", "FOK"),
        sj.StockOrderLot: ("Common", "BlockTrade", "Fixing", "Odd", "IntradayOdd"),
        sj.StockOrderCond: ("Cash", "Netting", "MarginTrading", "ShortSelling", "Emerging"),
        sj.FuturesOCType: ("Auto", "New", "Cover", "DayTrade"), sj.SecurityType: ("STK", "IND", "FUT", "OPT"),
        sj.Exchange: ("TSE", "OTC", "OES", "TAIFEX"), sj.ComboType: ("PriceSpread", "TimeSpread", "Straddle"),
        sj.OrderStatus: ("PendingSubmit", "PreSubmitted", "Submitted", "Failed", "Cancelled", "Filled", "PartFilled",
                         "Inactive"),
        sj.PriceType: ("LMT", "MKT", "MKP"),
    }.items():
        for value in values:
            assert enum(value).value == value
    assert [sj.QuoteType(value).value for value in ("tick", "bidask", "quote")] == ["tick", "bid_ask", "quote"]
    assert {state.name for state in (sj.OrderState.StockOrder, sj.OrderState.StockDeal, sj.OrderState.FuturesOrder,
                                     sj.OrderState.FuturesDeal)} == {"StockOrder", "StockDeal", "FuturesOrder", "FuturesDeal"}
    assert {sj.AccountType.Stock.value, sj.AccountType.Future.value, sj.AccountType.Intl.value} == {"S", "F", "H"}


STOCK_FORMS = list(itertools.product(("Common", "BlockTrade", "Fixing", "Odd", "IntradayOdd"),
                                     ("Cash", "Netting", "MarginTrading", "ShortSelling", "Emerging"),
                                     ("LMT", "MKT"), ("ROD", "IOC", "FOK"), (False, True)))


@pytest.mark.parametrize(("lot", "cond", "price_type", "order_type", "short"), STOCK_FORMS)
def test_every_stock_order_form_is_a_real_stock_order(lot: str, cond: str, price_type: str, order_type: str,
                                                      short: bool) -> None:
    body = {"action": "Sell", "price": 0 if price_type == "MKT" else 595.5, "quantity": 2, "price_type": price_type,
            "order_type": order_type, "order_lot": lot, "order_cond": cond, "daytrade_short": short, "custom_field": "a1"}
    order = orders.stock_order(sj, body, None)
    assert isinstance(order, sj.StockOrder)
    assert (order.order_lot.value, order.order_cond.value, order.time_in_force.value) == (lot, cond, order_type)


@pytest.mark.parametrize(("octype", "price_type", "order_type"), list(itertools.product(
    ("Auto", "New", "NewPosition", "Cover", "DayTrade", None), ("LMT", "MKT", "MKP"), ("ROD", "IOC", "FOK"))))
def test_every_futures_order_form_is_a_real_futures_order(octype: str | None, price_type: str, order_type: str) -> None:
    body = {"action": "Buy", "price": 23000, "quantity": 1, "price_type": price_type, "order_type": order_type,
            "octype": octype}
    order = orders.futures_order(sj, body, None)
    assert isinstance(order, sj.FuturesOrder)
    assert order.octype.value == {"NewPosition": "New", None: "Auto"}.get(octype, octype)


def test_combo_orders_and_contracts_are_real() -> None:
    order = orders.combo_order(sj, {"action": "Sell", "price": 10, "quantity": 1, "price_type": "LMT",
                                    "order_type": "IOC", "combo_type": "Straddle"}, None)
    assert isinstance(order, sj.ComboOrder) and order.combo_type.value == "Straddle"
    legs = [{"code": "TXFL6", "action": "Buy"}, {"code": "TXFA7", "action": "Sell"}]
    infos = {info["code"]: info for info in default_contracts()}
    combo = orders.combo_contract(sj, legs, lambda leg: sj.BaseContract(
        security_type="FUT", exchange="TAIFEX", code=infos[leg["code"]]["code"]))
    assert isinstance(combo, sj.ComboContract) and [leg.action.value for leg in combo.legs] == ["Buy", "Sell"]


@pytest.mark.parametrize(("builder", "body"), [
    (orders.stock_order, {"action": "Hold", "price": 1, "quantity": 1, "price_type": "LMT"}),
    (orders.stock_order, {"action": "Buy", "price": 1, "quantity": 1, "price_type": "MKP"}),
    (orders.stock_order, {"action": "Buy", "price": 1, "quantity": 1, "price_type": "LMT", "order_lot": "Huge"}),
    (orders.stock_order, {"action": "Buy", "price": 1, "quantity": 1, "price_type": "LMT", "order_cond": "Loan"}),
    (orders.stock_order, {"action": "Buy", "price": 1, "quantity": 1.5, "price_type": "LMT"}),
    (orders.stock_order, {"action": "Buy", "price": 1, "quantity": 1, "price_type": "LMT", "order_type": "GTC"}),
    (orders.futures_order, {"action": "Buy", "price": 1, "quantity": 1, "price_type": "LMT", "octype": "Open"}),
    (orders.futures_order, {"action": "Buy", "price": "1", "quantity": 1, "price_type": "LMT"}),
    (orders.combo_order, {"action": "Buy", "price": 1, "quantity": 1, "price_type": "LMT", "combo_type": "Butterfly"}),
])
def test_invalid_values_are_refused_as_invalid(builder, body) -> None:
    with pytest.raises(BridgeError) as refused:
        builder(sj, body, None)
    assert refused.value.kind == "invalid"


def test_trade_converter_reads_declared_fields() -> None:
    source = (Path(orders.__file__).with_name("trades.py")).read_text()
    for stub, fields in {
        "OrderResult": ("id", "seqno", "ordno", "action", "price", "quantity", "time_in_force", "custom_field",
                        "account", "price_type", "order_cond", "order_lot", "octype"),
        "OrderStatusInfo": ("id", "status", "status_code", "web_id", "order_datetime", "msg", "modified_time",
                            "modified_price", "order_quantity", "deal_quantity", "cancel_quantity", "deals"),
        "ComboStatus": ("deals",), "Deal": ("seq", "price", "quantity", "ts"), "Trade": ("contract", "order", "status"),
        "BaseContract": ("security_type", "exchange", "code", "target_code"), "ComboContract": ("legs", "combo_type"),
        "Account": ("account_type", "person_id", "broker_id", "account_id", "signed", "username"),
    }.items():
        assert set(fields) <= declared(stub), (stub, set(fields) - declared(stub))
    for field in ("order_datetime", "modified_time", "time_in_force", "status_code"):
        assert field in source


def test_quote_converters_read_declared_fields() -> None:
    for family, (stub, _) in scripted_quotes.FIELDS.items():
        fields = declared(stub)
        if family == "quote_idx":
            read = {attribute for attribute in quotes.INDEX_KEYS.values() if attribute}
        else:
            read = set(quotes.KEYS[family])
        assert read <= fields, (family, read - fields)
        assert "datetime" in fields and "code" in fields


def test_contract_infos_and_lookalikes_expose_only_declared_names() -> None:
    for info in default_contracts():
        assert set(info) - {"stub"} <= declared(info["stub"]), info["stub"]
    for family, (stub, names) in scripted_quotes.FIELDS.items():
        assert set(names) <= declared(stub), (family, set(names) - declared(stub))


def test_scripted_trades_expose_only_declared_names(tmp_path: Path) -> None:
    api = ScriptedShioaji(scenario={"state_path": str(tmp_path / "s.json")})
    api.login("k", "s")
    stock = api.Contracts.Stocks.get("2330")
    trade = api.place_order(stock, sj.StockOrder(action="Buy", price=1000, quantity=1, price_type="LMT",
                                                 time_in_force="ROD"))
    for part, stub in ((trade, "Trade"), (trade.order, "OrderResult"), (trade.status, "OrderStatusInfo"),
                       (trade.status.deals[0], "Deal"), (stock, "StockInfo"), (api.usage(), "UsageOut")):
        assert set(part.fields()) <= declared(stub), (stub, set(part.fields()) - declared(stub))
    combo = api.place_comboorder(
        sj.ComboContract(legs=[sj.ComboBase(action="Buy", security_type="FUT", exchange="TAIFEX", code="TXFL6"),
                               sj.ComboBase(action="Sell", security_type="FUT", exchange="TAIFEX", code="TXFA7")]),
        sj.ComboOrder(price=1, quantity=1, price_type="LMT", time_in_force="ROD", action="Buy"))
    for part, stub in ((combo, "ComboTrade"), (combo.contract, "ComboContract"), (combo.status, "ComboStatus")):
        assert set(part.fields()) <= declared(stub), (stub, set(part.fields()) - declared(stub))
    api.logout()


def test_scripted_order_events_carry_exactly_the_typed_dict_keys(tmp_path: Path) -> None:
    received: list[tuple[object, dict]] = []
    api = ScriptedShioaji(scenario={"state_path": str(tmp_path / "s.json")})
    api.login("k", "s")
    api.set_order_callback(lambda state, event: received.append((state, event)))
    api.place_order(api.Contracts.Stocks.get("2330"), sj.StockOrder(action="Buy", price=1000, quantity=1,
                                                                      price_type="LMT", time_in_force="ROD"))
    api.place_order(api.Contracts.Futures.get("TXFL6"), sj.FuturesOrder(action="Buy", price=23000, quantity=1,
                                                                          price_type="LMT", time_in_force="ROD"))
    import time

    deadline = time.monotonic() + 2
    while len(received) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    typed = {"StockOrder": "StockOrderEvent", "StockDeal": "StockDealEvent", "FuturesOrder": "FuturesOrderEvent",
             "FuturesDeal": "FuturesDealEvent"}
    nested = {"operation": "OperationDict", "status": "EventOrderStatusDict"}
    assert sorted(state.name for state, _ in received) == sorted(typed)
    for state, event in received:
        assert set(event) == declared(typed[state.name]), state.name
        for key, stub in nested.items():
            if key in event:
                assert set(event[key]) == declared(stub)
        if "order" in event:
            detail = "StockOrderDetailDict" if state.name == "StockOrder" else "FuturesOrderDetailDict"
            contract = "StockContractDict" if state.name == "StockOrder" else "FuturesContractDict"
            assert set(event["order"]) == declared(detail) and set(event["contract"]) == declared(contract)
            assert set(event["order"]["account"]) == declared("AccountDict")
    api.logout()


def test_answer_converters_read_declared_fields() -> None:
    for stub, fields in {
        "Snapshot": ("ts", "code", "exchange", "tick_type", "change_type", *answers.SNAPSHOT_PRICES,
                     *answers.SNAPSHOT_CHANGE, *answers.SNAPSHOT_TRADING),
        "Ticks": ("ts", *answers.TICK_COLUMNS), "KBars": ("ts", *answers.KBAR_COLUMNS),
        "StockPosition": portfolio_answers.STOCK_POSITION, "FuturePosition": portfolio_answers.FUTURE_POSITION,
        "ScannerItem": ("ts", *(name for name in answers.SCANNER_ITEM if name != "datetime")),
        "CreditEnquire": answers.CREDIT_ENQUIRE, "ShortStockSource": ("code", "short_stock_source", "ts"),
        "Punish": answers.PUNISH_COLUMNS, "Notice": answers.NOTICE_COLUMNS, "DailyQuotes": answers.DAILY_QUOTES_COLUMNS,
        "AccountBalance": ("acc_balance", "date", "errmsg"), "Margin": portfolio_answers.MARGIN,
        "TradingLimits": portfolio_answers.TRADING_LIMITS,
        "StockPositionDetail": portfolio_answers.STOCK_POSITION_DETAIL,
        "FuturePositionDetail": portfolio_answers.FUTURE_POSITION_DETAIL,
        "StockProfitLoss": portfolio_answers.STOCK_PROFIT_LOSS, "FutureProfitLoss": portfolio_answers.FUTURE_PROFIT_LOSS,
        "StockProfitDetail": portfolio_answers.STOCK_PROFIT_DETAIL,
        "FutureProfitDetail": portfolio_answers.FUTURE_PROFIT_DETAIL,
        "StockProfitLossSummary": portfolio_answers.STOCK_SUMMARY,
        "FutureProfitLossSummary": portfolio_answers.FUTURE_SUMMARY, "ProfitLossTotal": portfolio_answers.SUMMARY_TOTAL,
        "ProfitLossSummaryTotal": ("profitloss_summary", "total"),
        "SettlementV1": ("date", "amount", "T"),
        "Settlement": ("t_money", "t1_money", "t2_money", "t_day", "t1_day", "t2_day"),
        "ReserveStockSummary": reserve_answers.RESERVE_SUMMARY, "ReserveStockDetail": reserve_answers.RESERVE_DETAIL,
        "EarmarkStockDetail": reserve_answers.EARMARK_DETAIL, "ReserveOrderResp": reserve_answers.RESERVE_RESULT,
        "EarmarkingOrderResp": reserve_answers.EARMARK_RESULT, "ReserveStocksSummary": reserve_answers.LISTS,
        "ReserveStocksDetail": reserve_answers.LISTS, "EarmarkStocksDetail": reserve_answers.LISTS,
        **{f"{name}Response": reserve_answers.RESPONSE for name in (
            "ReserveStocksSummary", "ReserveStocksDetail", "ReserveStock", "EarmarkStocksDetail",
            "ReserveEarmarking")},
    }.items():
        assert set(fields) <= declared(stub), (stub, set(fields) - declared(stub))


def test_scripted_query_answers_expose_only_declared_names_and_convert_to_the_gateway_shapes(tmp_path: Path) -> None:
    api = ScriptedShioaji(scenario={"state_path": str(tmp_path / "s.json")})
    api.login("k", "s")
    stock, alias = api.Contracts.Stocks.get("2884"), api.Contracts.Futures.get("TXFR1")
    api.place_order(stock, sj.StockOrder(action="Buy", price=35.9, quantity=2, price_type="LMT", time_in_force="ROD"))
    api.place_order(alias, sj.FuturesOrder(action="Buy", price=25300, quantity=1, price_type="LMT",
                                           time_in_force="ROD"))
    futures_account = next(a for a in api.list_accounts() if a.account_type == sj.AccountType.Future)
    day = "2026-11-25"  # a Wednesday
    answers_of = {
        "snapshots": api.snapshots([stock, alias]), "ticks": api.ticks(stock, day, sj.TicksQueryType.AllDay),
        "kbars": api.kbars(stock, day, day), "list_positions": api.list_positions(None) + api.list_positions(
            futures_account), "settlements": api.settlements(None), "account_balance": api.account_balance(None),
    }
    for name, answer in answers_of.items():
        for part in answer if isinstance(answer, list) else [answer]:
            assert set(part.fields()) <= declared(part.stub), (part.stub, set(part.fields()) - declared(part.stub))
    gateway = {key: answers.answer_json(key, answer) for key, answer in answers_of.items()}
    assert [list(s) for s in gateway["snapshots"]] == [SNAPSHOT_KEYS, SNAPSHOT_KEYS]
    assert [s["code"] for s in gateway["snapshots"]] == ["2884", "TXFR1"]
    assert list(gateway["ticks"]) == ["datetime", "close", "volume", "bid_price", "bid_volume", "ask_price",
                                      "ask_volume", "tick_type"]
    assert gateway["ticks"]["datetime"][0].startswith(f"{day}T09:0")
    assert list(gateway["kbars"]) == ["datetime", "Open", "High", "Low", "Close", "Volume", "Amount"]
    assert sum(gateway["kbars"]["Volume"]) == sum(gateway["ticks"]["volume"])
    stock_position, futures_position = gateway["list_positions"]
    assert stock_position == {**stock_position, "code": "2884", "direction": "Buy", "quantity": 2, "cond": "Cash"}
    assert list(stock_position) == list(portfolio_answers.STOCK_POSITION)
    assert futures_position == {**futures_position, "code": "TXFL6", "direction": "Buy", "quantity": 1}
    assert [(row["T"], sorted(row)) for row in gateway["settlements"]] == [(t, ["T", "amount", "date"]) for t in range(3)]
    assert gateway["settlements"][2]["amount"] == -(2 * 32.65 * 1000 + round(2 * 32.65 * 1000 * 0.001425))
    api.logout()


SNAPSHOT_KEYS = [
    "datetime", "code", "exchange", "open", "high", "low", "close", "tick_type", "change_price", "change_rate",
    "change_type", "average_price", "volume", "total_volume", "amount", "total_amount", "yesterday_volume",
    "buy_price", "buy_volume", "sell_price", "sell_volume", "volume_ratio",
]


def test_legacy_settlements_become_one_row_a_day() -> None:
    legacy = LookAlike("Settlement", t_money=0.0, t1_money=-10.0, t2_money=-20.5, t_day="2026/11/26",
                       t1_day="2026/11/27", t2_day="2026/11/30")
    assert answers.answer_json("settlements", [legacy]) == [
        {"date": "2026-11-26", "amount": 0.0, "T": 0}, {"date": "2026-11-27", "amount": -10.0, "T": 1},
        {"date": "2026-11-30", "amount": -20.5, "T": 2},
    ]


def test_combo_quotes_use_the_sdks_managed_combo() -> None:
    """The SDK streams a combo only as built by api.contracts.combo(legs, combo_type) from actionless base contracts."""
    parameters = inspect.signature(sj.ContractsApi.combo).parameters
    assert {"legs", "combo_type"} <= set(parameters), list(parameters)
    scripted = inspect.signature(ScriptedContractsApi.combo).parameters
    assert list(scripted) == list(parameters)
    base = sj.BaseContract("FUT", "TAIFEX", "TXFL6")
    assert (base.code, base.target_code) == ("TXFL6", None)
    assert {"legs", "region", "combo_type", "managed", "code"} <= declared("ComboContract")


def _lookalikes(value: object) -> list[LookAlike]:
    """Every look-alike in an answer, nested ones too."""
    if isinstance(value, LookAlike):
        return [value, *(item for field in value.fields().values() for item in _lookalikes(field))]
    if isinstance(value, list):
        return [item for element in value for item in _lookalikes(element)]
    return []


def test_scripted_reserve_answers_expose_only_declared_names_and_convert_to_the_gateway_shapes(tmp_path: Path) -> None:
    api = ScriptedShioaji(scenario={"state_path": str(tmp_path / "s.json")})
    api.login("k", "s")
    stock = api.Contracts.Stocks.get("2884")
    api.place_order(stock, sj.StockOrder(action="Buy", price=35.9, quantity=2, price_type="LMT", time_in_force="ROD"))
    answers_of = {
        "reserve_stock": [api.reserve_stock(stock, 1000), api.reserve_stock(stock, 5000)],
        "reserve_earmarking": [api.reserve_earmarking(stock, 1000, 35.5), api.reserve_earmarking(stock, 99_000, 99.0)],
        "stock_reserve_summary": [api.stock_reserve_summary()],
        "stock_reserve_detail": [api.stock_reserve_detail()],
        "earmarking_detail": [api.earmarking_detail()],
    }
    for answer in answers_of.values():
        for part in _lookalikes(answer):
            if part.stub in ("Stock", "Account"):
                continue
            assert set(part.fields()) <= declared(part.stub), (part.stub, set(part.fields()) - declared(part.stub))
    gateway = {name: [answers.answer_json(name, a) for a in answer] for name, answer in answers_of.items()}
    contract = {"security_type": "STK", "exchange": "TSE", "code": "2884", "target_code": None, "region": "TW"}
    accepted, refused = gateway["reserve_stock"]
    assert list(accepted) == list(reserve_answers.RESERVE_RESULT)
    assert {**accepted, "account": None} == {"contract": contract, "account": None, "share": 1000, "status": True,
                                             "info": ""}
    assert accepted["account"]["account_type"] == "S"
    assert (refused["status"], refused["info"]) == (False, "available 1000 shares")
    earmarked, too_much = gateway["reserve_earmarking"]
    assert (earmarked["price"], earmarked["status"], too_much["status"]) == (35.5, True, False)
    [summary] = gateway["stock_reserve_summary"]
    assert summary["stocks"] == [{"contract": contract, "available_share": 1000, "reserved_share": 1000}]
    [detail] = gateway["stock_reserve_detail"]
    assert [(row["share"], row["status"]) for row in detail["stocks"]] == [(1000, True), (5000, False)]
    assert len(detail["stocks"][0]["order_datetime"]) == 19 and detail["stocks"][0]["order_datetime"][10] == "T"
    [earmarks] = gateway["earmarking_detail"]
    assert [(row["amount"], row["status"]) for row in earmarks["stocks"]] == [(35_500, True), (9_801_000, False)]
    api.logout()


def test_a_reserve_answer_with_an_error_is_the_sdks_refusal() -> None:
    answer = LookAlike("ReserveStockResponse", response=None, error="account not signed")
    with pytest.raises(BridgeError) as raised:
        answers.answer_json("reserve_stock", answer)
    assert (raised.value.kind, raised.value.message) == ("sdk", "account not signed")


def test_reserve_converters_read_aware_datetimes_as_taiwan_wall_clock() -> None:
    account = LookAlike("Account", account_type=sj.AccountType.Stock, person_id="A1", broker_id="9A95",
                        account_id="1", signed=True, username="u")
    contract = LookAlike("Stock", security_type=sj.SecurityType.Stock, exchange=sj.Exchange.TSE, code="2330",
                         target_code=None)
    at = dt.datetime(2026, 11, 23, 2, 0, 5, tzinfo=dt.timezone.utc)
    row = LookAlike("EarmarkStockDetail", contract=contract, share=1000, price=500.5, amount=500_500,
                    order_datetime=at, status=True, info=None)
    listing = LookAlike("EarmarkStocksDetailResponse", response=LookAlike(
        "EarmarkStocksDetail", stocks=[row], account=account), error=None)
    answer = answers.answer_json("earmarking_detail", listing)
    assert answer["stocks"] == [{"contract": {"security_type": "STK", "exchange": "TSE", "code": "2330",
                                              "target_code": None, "region": "TW"},
                                 "share": 1000, "price": 500.5, "amount": 500_500,
                                 "order_datetime": "2026-11-23T10:00:05", "status": True, "info": ""}]
    assert answer["account"]["broker_id"] == "9A95"
