"""A scripted SinoPac session for tests: used in place of `sj.Shioaji` when SJGATE_BRIDGE_SCRIPT names a scenario
(see python/README.md). Same method names and signatures as the stub; answers with look-alike Trade objects built
from the REAL sj enums and sj.Account; order callbacks carry the stub's TypedDict keys. SinoPac's side (the orders)
persists in the scenario's state_path, so orders outlive a sidecar restart."""

from __future__ import annotations

import datetime as dt
import json
import os
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, List, Optional

import shioaji as sj

from . import scripted_events as events
from . import scripted_index
from . import scripted_quotes as quotes
from .lookalike import Category, ContractsView, LookAlike
from .scripted_data import DEFAULT_ACCOUNTS, default_contracts
from .scripted_lists import ScriptedLists
from .scripted_portfolio import ScriptedPortfolio
from .scripted_reserve import ScriptedReserve
from .scripted_queries import ScriptedQueries
from .scripted_realized import ScriptedRealized
from .scripted_scanner import ScriptedScanner

TAIPEI = dt.timezone(dt.timedelta(hours=8))
ACCOUNT_TYPES = {"S": sj.AccountType.Stock, "F": sj.AccountType.Future, "H": sj.AccountType.Intl}
FINAL = ("Filled", "Cancelled", "Failed")
CATEGORY_OF = {"STK": "Stocks", "IND": "Indexs", "FUT": "Futures", "OPT": "Options"}
NOT_AUTHENTICATED = "Not authenticated"


def load_scenario(path: str) -> dict[str, Any]:
    scenario = json.loads(Path(path).read_text(encoding="utf-8")) if path and Path(path).exists() else {}
    if not isinstance(scenario, dict):
        raise ValueError(f"{path}: a scenario is a JSON object")
    return scenario


def value_of(item: Any) -> Any:
    return getattr(item, "value", item)


def make_account(data: dict[str, Any]) -> Any:
    return sj.Account(
        account_type=ACCOUNT_TYPES[data["account_type"]], person_id=data["person_id"], broker_id=data["broker_id"],
        account_id=data["account_id"], signed=bool(data.get("signed", True)), username=data.get("username", ""),
    )


def account_data(account: Any) -> dict[str, Any]:
    return {
        "account_type": value_of(account.account_type), "person_id": account.person_id,
        "broker_id": account.broker_id, "account_id": account.account_id, "signed": bool(account.signed),
        "username": account.username,
    }


def taipei(epoch: float) -> dt.datetime | None:
    return dt.datetime.fromtimestamp(epoch, TAIPEI) if epoch else None


class Books:
    """SinoPac's side: every order placed, kept in state_path when the scenario gives one."""

    def __init__(self, path: str | None) -> None:
        self.path = Path(path) if path else None
        self.lock = threading.RLock()
        data = json.loads(self.path.read_text()) if self.path and self.path.exists() else {}
        self.orders: dict[str, dict[str, Any]] = {o["id"]: o for o in data.get("orders", [])}
        self.combos: dict[str, dict[str, Any]] = {o["id"]: o for o in data.get("combos", [])}
        self.seq: int = data.get("seq", 0)
        # What happened once in SinoPac's session history (a scripted drop), so a new sidecar does not do it again.
        self.happened: list[str] = data.get("happened", [])

    def once(self, what: str) -> bool:
        with self.lock:
            if what in self.happened:
                return False
            self.happened.append(what)
            self.save()
            return True

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def save(self) -> None:
        if not self.path:
            return
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(json.dumps(
            {"orders": list(self.orders.values()), "combos": list(self.combos.values()), "seq": self.seq,
             "happened": self.happened}))
        os.replace(temporary, self.path)


class Dispatcher:
    """Delivers callbacks on one thread of its own, in order, as the SDK does from its threads."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._items: list[tuple[Callable[..., None], tuple[Any, ...]]] = []
        threading.Thread(target=self._run, name="scripted-callbacks", daemon=True).start()

    def post(self, callback: Callable[..., None] | None, *args: Any) -> None:
        if callback is None:
            return
        with self._lock:
            self._items.append((callback, args))
            self._lock.notify()

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._items:
                    self._lock.wait()
                callback, args = self._items.pop(0)
            try:
                callback(*args)
            except Exception:
                pass


class ScriptedShioaji(ScriptedQueries, ScriptedLists, ScriptedPortfolio, ScriptedRealized, ScriptedReserve,
                      ScriptedScanner):
    def __init__(self, simulation: Optional[bool] = None, proxy: Optional[str] = None, vpn: Optional[bool] = None,
                 *, scenario: dict[str, Any]) -> None:
        self.simulation = bool(simulation)
        self.scenario = scenario
        self.books = Books(scenario.get("state_path"))
        self.infos = {info["code"]: info for info in default_contracts()}
        self.logged_in = False
        self.known: set[str] = set()
        self.known_combos: set[str] = set()
        self.callbacks: dict[str, Callable[..., None] | None] = {}
        self.subscriptions: dict[tuple[str, str, bool], int] = {}
        # The ranking or projection of each index analytics subscription, by its key.
        self.views: dict[tuple[str, str, bool], Any] = {}
        self.quotes_stopped = threading.Event()
        self.closed = threading.Event()
        self.dispatcher = Dispatcher()
        self._accounts = [make_account(data) for data in scenario.get("accounts") or DEFAULT_ACCOUNTS]

    # -- session --------------------------------------------------------------------------------------------------

    def login(self, api_key: str, secret_key: str, subscribe_trade: bool = True, receive_window: int = 30000,
              force_refresh: bool = False) -> List[Any]:
        rules = self.scenario.get("login") or {}
        error = rules.get("error")
        if error == "connection":
            raise sj.ShioajiConnectionError("login: connection error")
        if error == "timeout":
            raise sj.ShioajiTimeoutError("login: timeout")
        if error == "value":
            raise sj.ShioajiValueError("login validation error: invalid secret_key (expected 32 bytes after base58 decode, got 3)")
        if rules.get("refuse"):
            raise sj.AuthError(str(rules["refuse"]))
        self.logged_in = True
        self.dispatcher.post(self.callbacks.get("event"), 0, 0, "Session up", "Session connect")
        self._start_timers()
        return list(self._accounts)

    def _start_timers(self) -> None:
        threading.Thread(target=self._quote_loop, name="scripted-quotes", daemon=True).start()
        self._after(self.scenario.get("session_down_after_ms"), self._session_down)
        self._after(self.scenario.get("silent_after_ms"), self._fall_silent)
        with self.books.lock:
            for record in self.books.orders.values():
                if record["status"] not in FINAL and record.get("due_at"):
                    self._schedule_fill(record)

    def _after(self, delay_ms: Any, action: Callable[[], None]) -> None:
        if isinstance(delay_ms, (int, float)) and delay_ms >= 0:
            timer = threading.Timer(delay_ms / 1000, lambda: None if self.closed.is_set() else action())
            timer.daemon = True
            timer.start()

    def _session_down(self) -> None:
        if self.books.path and not self.books.once("session_down"):
            return
        self.quotes_stopped.set()
        self.dispatcher.post(self.callbacks.get("session_down"))

    def _fall_silent(self) -> None:
        if self.books.path and not self.books.once("silent"):
            return
        self.quotes_stopped.set()

    def _require_login(self) -> None:
        if not self.logged_in:
            raise sj.AuthError(NOT_AUTHENTICATED)

    def logout(self) -> None:
        self.logged_in = False
        self.closed.set()
        self.quotes_stopped.set()

    def usage(self, timeout: Optional[int] = 30000, cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        limit = 500 * 1024 * 1024
        return LookAlike("UsageOut", connections=1, bytes=0, limit_bytes=limit, remaining_bytes=limit)

    def list_accounts(self) -> List[Any]:
        self._require_login()
        return list(self._accounts)

    def subscribe_trade(self, account: Any, timeout: Optional[int] = 30000) -> bool:
        self._require_login()
        return True

    def unsubscribe_trade(self, account: Any, timeout: Optional[int] = 30000) -> bool:
        self._require_login()
        return True

    def activate_ca(self, ca_path: str, ca_passwd: str, person_id: Optional[str] = None) -> bool:
        self._require_login()
        refuse = (self.scenario.get("ca") or {}).get("refuse")
        if refuse:
            raise sj.CaPasswordError(str(refuse))
        return True

    def get_ca_expiretime(self, person_id: str) -> dt.datetime:
        self._require_login()
        expires = (self.scenario.get("ca") or {}).get("expires_at")
        return dt.datetime.fromisoformat(expires) if expires else dt.datetime(2027, 12, 31, 23, 59, 59, tzinfo=TAIPEI)

    # -- callbacks ------------------------------------------------------------------------------------------------

    def _set(self, name: str, callback: Callable[..., None], need_login: bool = True) -> None:
        if need_login:
            self._require_login()
        self.callbacks[name] = callback

    def set_order_callback(self, callback: Callable[[Any, Any], None]) -> None:
        self._set("order", callback)

    def set_event_callback(self, callback: Callable[[int, int, str, str], None]) -> None:
        self._set("event", callback, need_login=False)

    def set_session_down_callback(self, callback: Callable[[], None]) -> None:
        self._set("session_down", callback)

    def set_on_tick_stk_v1_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("tick_stk", callback)

    def set_on_bidask_stk_v1_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("bidask_stk", callback)

    def set_on_quote_stk_v1_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("quote_stk", callback)

    def set_on_tick_fop_v1_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("tick_fop", callback)

    def set_on_bidask_fop_v1_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("bidask_fop", callback)

    def set_on_quote_fop_v1_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("quote_fop", callback)

    def set_on_quote_idx_v1_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("quote_idx", callback)

    def set_on_kbar_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("kbar", callback)

    def set_on_calculated_index_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("calculated_index", callback)

    def set_on_index_contribution_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("index_contribution", callback)

    def set_on_industry_contribution_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("industry_contribution", callback)

    def set_on_index_components_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("index_components", callback)

    # -- contracts ------------------------------------------------------------------------------------------------

    def fetch_contracts(self, contract_download: Optional[bool] = False, contracts_timeout: Optional[int] = 30000,
                        contracts_cb: Optional[Callable[[Any], None]] = None) -> Any:
        return self.Contracts

    @property
    def Contracts(self) -> Any:
        self._require_login()
        groups: dict[str, dict[str, list[Any]]] = {name: {} for name in ("Stocks", "Futures", "Options", "Indexs")}
        for info in self.infos.values():
            if info.get("stub") == "ComboContract":
                continue
            fields = {key: value for key, value in info.items() if key != "stub"}
            fields["security_type"] = sj.SecurityType(info["security_type"])
            fields["exchange"] = sj.Exchange(info["exchange"])
            group = info.get("root") or info["exchange"]
            groups[CATEGORY_OF[info["security_type"]]].setdefault(group, []).append(LookAlike(info["stub"], **fields))
        return ContractsView({name: Category(by_group) for name, by_group in groups.items()})

    @property
    def contracts(self) -> Any:
        self._require_login()
        return ScriptedContractsApi(self)

    def _info(self, contract: Any) -> dict[str, Any]:
        code = getattr(contract, "code", None)
        if code not in self.infos:
            raise sj.ShioajiValueError(f"contract not found: {code}")
        return self.infos[code]

    # -- orders ---------------------------------------------------------------------------------------------------

    def place_order(self, contract: Any, order: Any, timeout: Optional[int] = 30000,
                    cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        info = self._info(contract)
        record = self._new_record(info, order)
        with self.books.lock:
            self.books.orders[record["id"]] = record
            self.known.add(record["id"])
            if self._outside_limits(record, info):
                self._fail(record, info, f"價格超過漲跌停 ({info['limit_down']:g}~{info['limit_up']:g})")
            else:
                self._accept(record, info)
            self.books.save()
            return self._trade(record)

    def _new_record(self, info: dict[str, Any], order: Any) -> dict[str, Any]:
        stock = type(order).__name__ == "StockOrder"
        account = order.account or self._default_account("S" if stock else "F")
        seq = self.books.next_seq()
        now = time.time()
        return {
            "id": uuid.uuid4().hex[:8], "seqno": f"{seq:06d}", "ordno": f"S{seq:04d}", "kind": "stock" if stock else "futures",
            "code": info["code"], "account": account_data(account), "action": value_of(order.action),
            "price": float(order.price), "quantity": int(order.quantity), "price_type": value_of(order.price_type),
            "order_type": value_of(order.time_in_force), "order_lot": value_of(getattr(order, "order_lot", None)) or "Common",
            "order_cond": value_of(getattr(order, "order_cond", None)) or "Cash",
            "daytrade_short": bool(getattr(order, "daytrade_short", False)), "custom_field": order.custom_field or "",
            "octype": value_of(getattr(order, "octype", None)) or "Auto", "status": "PendingSubmit", "status_code": "0",
            "msg": "", "web_id": "137", "order_ts": now, "modified_ts": 0.0, "modified_price": 0.0,
            "order_quantity": 0, "deal_quantity": 0, "cancel_quantity": 0, "deals": [], "due_at": None,
        }

    def _default_account(self, account_type: str) -> Any:
        for account in self._accounts:
            if value_of(account.account_type) == account_type:
                return account
        raise sj.AccountNotProvideError(f"no {account_type} account")

    def _outside_limits(self, record: dict[str, Any], info: dict[str, Any]) -> bool:
        if not self.scenario.get("reject_outside_limits", True) or record["price_type"] != "LMT":
            return False
        return not info["limit_down"] <= record["price"] <= info["limit_up"]

    def _emit_order(self, record: dict[str, Any], info: dict[str, Any], operation: tuple[str, str, str]) -> None:
        state = sj.OrderState.StockOrder if record["kind"] == "stock" else sj.OrderState.FuturesOrder
        self.dispatcher.post(self.callbacks.get("order"), state, events.order_event(record, info, operation, time.time()))

    def _fail(self, record: dict[str, Any], info: dict[str, Any], message: str) -> None:
        record.update(status="Failed", status_code="88", msg=message, modified_ts=time.time())
        self._emit_order(record, info, ("New", "88", message))

    def _accept(self, record: dict[str, Any], info: dict[str, Any]) -> None:
        record.update(status="Submitted", status_code="00", msg="委託成功", modified_ts=time.time(),
                      order_quantity=record["quantity"])
        self._emit_order(record, info, ("New", "00", ""))
        self._match(record, info)

    def _effective_price(self, record: dict[str, Any]) -> float:
        return record["modified_price"] or record["price"]

    def _marketable(self, record: dict[str, Any], info: dict[str, Any]) -> bool:
        if record["price_type"] != "LMT":
            return True
        price, reference = self._effective_price(record), info["reference"]
        return price >= reference if record["action"] == "Buy" else price <= reference

    def _match(self, record: dict[str, Any], info: dict[str, Any]) -> None:
        fill = self.scenario.get("fill") or {}
        if fill.get("marketable", True) and self._marketable(record, info):
            price = info["reference"] if record["price_type"] != "LMT" else min(self._effective_price(record), info["reference"]) if record["action"] == "Buy" else max(self._effective_price(record), info["reference"])
            self._fill(record, info, price, time.time(), notify=True)
            return
        delay = fill.get("resting_after_ms")
        if isinstance(delay, (int, float)) and record["due_at"] is None:
            record["due_at"] = record["order_ts"] + delay / 1000
            self._schedule_fill(record)

    def _schedule_fill(self, record: dict[str, Any]) -> None:
        self._after(max(0.0, (record["due_at"] - time.time()) * 1000), lambda: self._due_fill(record["id"], notify=True))

    def _due_fill(self, order_id: str, notify: bool) -> None:
        with self.books.lock:
            record = self.books.orders.get(order_id)
            if record and record["status"] not in FINAL and record.get("due_at") and record["due_at"] <= time.time():
                self._fill(record, self.infos[record["code"]], self._effective_price(record), record["due_at"], notify)
                self.books.save()

    def _fill(self, record: dict[str, Any], info: dict[str, Any], price: float, ts: float, notify: bool) -> None:
        quantity = record["order_quantity"] - record["deal_quantity"] - record["cancel_quantity"]
        if quantity <= 0:
            return
        deal = {"seq": f"{len(record['deals']) + 1:06d}", "price": float(price), "quantity": quantity, "ts": ts}
        record["deals"].append(deal)
        record.update(deal_quantity=record["deal_quantity"] + quantity, status="Filled", modified_ts=ts)
        if notify:
            state = sj.OrderState.StockDeal if record["kind"] == "stock" else sj.OrderState.FuturesDeal
            self.dispatcher.post(self.callbacks.get("order"), state, events.deal_event(record, info, deal))

    def _record_of(self, trade: Any) -> dict[str, Any]:
        record = self.books.orders.get(trade.order.id)
        if record is None:
            raise sj.ShioajiValueError(f"trade {trade.order.id} not found")
        return record

    def update_order(self, trade: Any, price: Optional[float] = None, qty: Optional[int] = None,
                     timeout: Optional[int] = 30000, cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        with self.books.lock:
            record = self._record_of(trade)
            info = self.infos[record["code"]]
            op_type = "UpdatePrice" if price is not None else "UpdateQty"
            if record["status"] in FINAL:
                self._emit_order(record, info, (op_type, "88", "此筆委託已完成，無法修改"))
                return self._trade(record)
            if price is not None:
                record.update(modified_price=float(price), modified_ts=time.time())
            if qty is not None:
                open_quantity = record["order_quantity"] - record["deal_quantity"] - record["cancel_quantity"]
                record["cancel_quantity"] += min(int(qty), open_quantity)
                record["modified_ts"] = time.time()
                if record["cancel_quantity"] + record["deal_quantity"] >= record["order_quantity"]:
                    record["status"] = "Cancelled"
            self._emit_order(record, info, (op_type, "00", ""))
            if record["status"] not in FINAL:
                self._match(record, info)
            self.books.save()
            return self._trade(record)

    def cancel_order(self, trade: Any, timeout: Optional[int] = 30000,
                     cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        with self.books.lock:
            record = self._record_of(trade)
            info = self.infos[record["code"]]
            if record["status"] in FINAL:
                self._emit_order(record, info, ("Cancel", "88", "此筆委託已完成，無法刪單"))
                return self._trade(record)
            open_quantity = record["order_quantity"] - record["deal_quantity"] - record["cancel_quantity"]
            record.update(cancel_quantity=record["cancel_quantity"] + open_quantity, status="Cancelled",
                          modified_ts=time.time())
            self._emit_order(record, info, ("Cancel", "00", ""))
            self.books.save()
            return self._trade(record)

    def update_status(self, account: Optional[Any] = None, *, trade: Optional[Any] = None,
                      timeout: Optional[int] = 30000, cb: Optional[Callable[[List[Any]], None]] = None) -> None:
        self._require_login()
        with self.books.lock:
            for order_id in list(self.books.orders):
                self._due_fill(order_id, notify=False)
            self.known.update(self.books.orders)

    def list_trades(self) -> List[Any]:
        self._require_login()
        with self.books.lock:
            return [self._trade(self.books.orders[order_id]) for order_id in self.books.orders if order_id in self.known]

    def _trade(self, record: dict[str, Any]) -> Any:
        info = self.infos[record["code"]]
        stock = record["kind"] == "stock"
        contract = sj.BaseContract(security_type=info["security_type"], exchange=info["exchange"], code=info["code"],
                                   target_code=info.get("target_code"))
        order = LookAlike(
            "OrderResult", id=record["id"], seqno=record["seqno"], ordno=record["ordno"],
            action=sj.Action(record["action"]), price=record["price"], quantity=record["quantity"],
            time_in_force=sj.TimeInForce(record["order_type"]), order_type=sj.OrderType(record["order_type"]),
            price_type=sj.PriceType(record["price_type"]), custom_field=record["custom_field"],
            account=make_account(record["account"]), daytrade_short=record["daytrade_short"] if stock else None,
            order_cond=sj.StockOrderCond(record["order_cond"]) if stock else None,
            order_lot=sj.StockOrderLot(record["order_lot"]) if stock else None,
            octype=None if stock else sj.FuturesOCType(record["octype"]),
        )
        return LookAlike("Trade", contract=contract, order=order, status=self._status(record))

    def _status(self, record: dict[str, Any], stub: str = "OrderStatusInfo") -> Any:
        deals = [LookAlike("Deal", seq=d["seq"], price=d["price"], quantity=d["quantity"], ts=d["ts"],
                           datetime=taipei(d["ts"])) for d in record.get("deals", [])]
        fields: dict[str, Any] = {
            "id": record["id"], "status": sj.OrderStatus(record["status"]), "status_code": record["status_code"],
            "order_datetime": taipei(record["order_ts"]), "msg": record["msg"],
            "modified_time": taipei(record["modified_ts"]), "modified_price": record["modified_price"],
            "order_quantity": record["order_quantity"], "deal_quantity": record["deal_quantity"],
            "cancel_quantity": record["cancel_quantity"], "deals": deals,
        }
        if stub == "OrderStatusInfo":
            fields["web_id"] = record["web_id"]
        else:
            fields["deals"] = {}
        return LookAlike(stub, **fields)

    # -- combos ---------------------------------------------------------------------------------------------------

    def place_comboorder(self, combo_contract: Any, order: Any, timeout: Optional[int] = 30000,
                         cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        legs = [{"action": value_of(leg.action), "security_type": value_of(leg.security_type),
                 "exchange": value_of(leg.exchange), "code": leg.code} for leg in combo_contract.legs]
        for leg in legs:
            if leg["code"] not in self.infos:
                raise sj.ShioajiValueError(f"contract not found: {leg['code']}")
        seq = self.books.next_seq()
        now = time.time()
        record = {
            "id": uuid.uuid4().hex[:8], "seqno": f"{seq:06d}", "ordno": f"C{seq:04d}", "legs": legs,
            "account": account_data(order.account or self._default_account("F")), "action": value_of(order.action),
            "price": float(order.price), "quantity": int(order.quantity), "price_type": value_of(order.price_type),
            "order_type": value_of(order.time_in_force), "octype": value_of(order.octype) or "Auto",
            "combo_type": value_of(order.combo_type) or "PriceSpread", "status": "Submitted", "status_code": "00",
            "msg": "委託成功", "order_ts": now, "modified_ts": now, "modified_price": 0.0,
            "order_quantity": int(order.quantity), "deal_quantity": 0, "cancel_quantity": 0,
        }
        with self.books.lock:
            self.books.combos[record["id"]] = record
            self.known_combos.add(record["id"])
            self.books.save()
            return self._combo_trade(record)

    def cancel_comboorder(self, combo_trade: Any, timeout: Optional[int] = 30000,
                          cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        with self.books.lock:
            record = self.books.combos.get(combo_trade.order.id)
            if record is None:
                raise sj.ShioajiValueError(f"combo trade {combo_trade.order.id} not found")
            if record["status"] not in FINAL:
                record.update(status="Cancelled", modified_ts=time.time(),
                              cancel_quantity=record["order_quantity"] - record["deal_quantity"])
                self.books.save()
            return self._combo_trade(record)

    def update_combostatus(self, account: Optional[Any] = None, timeout: Optional[int] = 30000,
                           cb: Optional[Callable[[List[Any]], None]] = None) -> List[Any]:
        self._require_login()
        with self.books.lock:
            self.known_combos.update(self.books.combos)
        return self.list_combotrades()

    def list_combotrades(self) -> List[Any]:
        self._require_login()
        with self.books.lock:
            return [self._combo_trade(r) for i, r in self.books.combos.items() if i in self.known_combos]

    def _combo_trade(self, record: dict[str, Any]) -> Any:
        legs = [sj.ComboBase(**leg) for leg in record["legs"]]
        contract = LookAlike("ComboContract", legs=legs, region="TW", combo_type=sj.ComboType(record["combo_type"]),
                             managed=False, code="")
        order = LookAlike(
            "OrderResult", id=record["id"], seqno=record["seqno"], ordno=record["ordno"],
            action=sj.Action(record["action"]), price=record["price"], quantity=record["quantity"],
            time_in_force=sj.TimeInForce(record["order_type"]), order_type=sj.OrderType(record["order_type"]),
            price_type=sj.PriceType(record["price_type"]), custom_field="", account=make_account(record["account"]),
            daytrade_short=None, order_cond=None, order_lot=None, octype=sj.FuturesOCType(record["octype"]),
        )
        return LookAlike("ComboTrade", contract=contract, order=order, status=self._status(record, "ComboStatus"))

    # -- market data ----------------------------------------------------------------------------------------------

    def _subscription_key(self, contract: Any, quote_type: Any, intraday_odd: bool, ranking: Any = None,
                          projection: Any = None) -> tuple[str, str, bool]:
        info = self._info(contract)
        kind = str(value_of(quote_type)).lower().replace("_", "")
        known = ("tick", "bidask", "quote", "kbar", "calculatedindex", *quotes.ANALYTICS)
        if kind not in known or quotes.family_of(info["security_type"], kind) is None:
            raise sj.ShioajiValueError(f"quote_type {kind} is not available for {info['code']}")
        if (kind == "indexcontribution") != (ranking is not None) or (kind == "indexcomponents") != (projection is not None):
            raise sj.ShioajiValueError(f"{kind} takes ranking= for index_contribution, projection= for index_components")
        view = scripted_index.view_key(ranking, projection)
        return info["code"], kind if view is None else f"{kind}|{view}", bool(intraday_odd)

    def subscribe(self, contract: Any, quote_type: Any = "tick", intraday_odd: bool = False,
                  version: Optional[Any] = None, *, ranking: Optional[Any] = None,
                  projection: Optional[Any] = None) -> None:
        self._require_login()
        key = self._subscription_key(contract, quote_type, intraday_odd, ranking, projection)
        self.subscriptions.setdefault(key, 0)
        self.views[key] = ranking if ranking is not None else projection
        self.dispatcher.post(self.callbacks.get("event"), 200, 16, f"TIC/v1/STK/*/TSE/{key[0]}", "Subscribe or Unsubscribe ok")

    def unsubscribe(self, contract: Any, quote_type: Any = "tick", intraday_odd: bool = False,
                    version: Optional[Any] = None, *, ranking: Optional[Any] = None,
                    projection: Optional[Any] = None) -> None:
        self._require_login()
        key = self._subscription_key(contract, quote_type, intraday_odd, ranking, projection)
        self.subscriptions.pop(key, None)
        self.views.pop(key, None)

    def _quote_loop(self) -> None:
        interval = float((self.scenario.get("quotes") or {}).get("interval_ms", 50)) / 1000
        while not self.closed.wait(interval):
            if self.quotes_stopped.is_set():
                continue
            for key in list(self.subscriptions):
                self._emit_quote(key)
            self._emit_scanners()

    def _emit_quote(self, key: tuple[str, str, bool]) -> None:
        code, kind, intraday_odd = key
        if key not in self.subscriptions:
            return
        self.subscriptions[key] += 1
        info = self.infos[code]
        family = quotes.family_of(info["security_type"], kind.partition("|")[0])
        if family in ("index_contribution", "industry_contribution", "index_components"):
            event = self._index_event(family, info, self.views.get(key))
        else:
            event = quotes.quote(family, info, self.subscriptions[key], intraday_odd)
        self.dispatcher.post(self.callbacks.get(family), event)

    def _index_event(self, family: str, index: dict[str, Any], view: Any) -> Any:
        if family == "index_contribution":
            return scripted_index.index_contribution(index, self.infos, view)
        if family == "industry_contribution":
            return scripted_index.industry_contribution(index, self.infos)
        return scripted_index.index_components_update(index, self.infos, view)


class ScriptedContractsApi:
    """The part of the SDK's ContractsApi (api.contracts) the bridge uses: the managed combo of quote streams."""

    def __init__(self, session: ScriptedShioaji) -> None:
        self.session = session

    def combo(self, legs: List[Any], combo_type: Optional[Any] = None) -> Any:
        infos = sorted((self.session._info(leg) for leg in legs), key=lambda info: str(info.get("delivery_date", "")))
        if len(infos) != 2 or any(info["security_type"] != "FUT" for info in infos):
            raise sj.ShioajiValueError("a managed futures combo needs two futures legs")
        near, far = infos
        root = near.get("root") or ""
        tail = far["code"][len(root):] if root and far["code"].startswith(root) else far["code"]
        code = f"{near['code']}/{tail}"
        self.session.infos.setdefault(code, {
            "stub": "ComboContract", "security_type": "FUT", "exchange": "TAIFEX", "code": code,
            "reference": float(far["reference"]) - float(near["reference"]), "tick": 1.0,
        })
        kind = sj.ComboType(value_of(combo_type) or "TimeSpread")
        return LookAlike("ComboContract", legs=list(legs), region="TW", combo_type=kind, managed=True, code=code)
