"""The methods of the bridge protocol (docs/bridge-protocol.md), each over the SDK's `Shioaji` object."""

from __future__ import annotations

from typing import Any, Callable

from . import callbacks, contracts, index_analytics, orders, queries, scanner
from .answers import answer_json
from .convert import account_json
from .errors import BridgeError, from_exception, invalid, not_found, not_logged_in, protocol_error
from .params import get
from .sdk import Sdk
from .trades import combo_trade_json, trade_json
from .wire import Wire

QUOTE_TYPES = {
    "tick": "tick", "bidask": "bidask", "bid_ask": "bidask", "quote": "quote", "kbar": "kbar",
    "calculatedindex": "calculated_index", "calculated_index": "calculated_index",
    **{name: family for family in ("index_contribution", "industry_contribution", "index_components")
       for name in (family, family.replace("_", ""))},
}
NO_LOGIN_METHODS = ("ping", "login", "logout")


class Bridge:
    def __init__(self, sdk: Sdk, wire: Wire) -> None:
        self.sdk = sdk
        self.wire = wire
        self.api: Any | None = None
        self.methods: dict[str, Callable[[dict[str, Any]], Any]] = {
            "ping": self.ping, "login": self.login, "activate_ca": self.activate_ca, "logout": self.logout,
            "ca_expiretime": self.ca_expiretime,
            "accounts": self.accounts, "usage": self.usage, "contracts": self.contracts,
            "place_order": self.place_order, "update_order": self.update_order, "cancel_order": self.cancel_order,
            "trades": self.trades, "place_comboorder": self.place_comboorder,
            "cancel_comboorder": self.cancel_comboorder, "combo_trades": self.combo_trades,
            "subscribe": self.subscribe, "unsubscribe": self.unsubscribe, "subscribe_trade": self.subscribe_trade,
            "subscribe_scanner": self.subscribe_scanner, "unsubscribe_scanner": self.unsubscribe_scanner,
            "call": self.call,
        }

    def handle(self, method: str, params: dict[str, Any]) -> Any:
        handler = self.methods.get(method)
        if handler is None:
            raise protocol_error(f"unknown method {method!r}")
        if method != "ping" and self.sdk.module is None:
            raise BridgeError("sdk", f"the shioaji SDK cannot be imported: {self.sdk.error}", "Run `sjgate setup production`.")
        if method not in NO_LOGIN_METHODS and self.api is None:
            raise not_logged_in()
        try:
            return handler(params)
        except BridgeError:
            raise
        except Exception as exc:
            raise from_exception(exc, method) from exc

    def shutdown(self) -> None:
        if self.api is not None:
            try:
                self.api.logout()
            except Exception:
                pass
            self.api = None

    # -- session --------------------------------------------------------------------------------------------------

    def ping(self, params: dict[str, Any]) -> Any:
        return {"sdk": self.sdk.version}

    def login(self, params: dict[str, Any]) -> Any:
        api_key = get(params, "api_key", str)
        secret_key = get(params, "secret_key", str)
        simulation = get(params, "simulation", bool, False)
        receive_window = get(params, "receive_window", int, 30000)
        fetch = get(params, "fetch_contracts", bool, True)
        self.shutdown()
        api = self.sdk.make_api(simulation=simulation)
        callbacks.install_event(api, self.wire)
        try:
            accounts = api.login(api_key, secret_key, subscribe_trade=True, receive_window=receive_window)
        except Exception as exc:
            raise from_exception(exc, "login") from exc
        self.api = api
        callbacks.install(api, self.wire)
        if fetch:
            api.fetch_contracts()
        return {"accounts": [account_json(account) for account in (accounts or api.list_accounts())]}

    def activate_ca(self, params: dict[str, Any]) -> Any:
        ca_path = get(params, "ca_path", str)
        ca_passwd = get(params, "ca_passwd", str)
        # The certificate is the person's; their id is on every account the login returned.
        person_id = get(params, "person_id", str, None) or next(
            (account.person_id for account in self.api.list_accounts() if account.person_id), None)
        if not self.api.activate_ca(ca_path, ca_passwd, person_id=person_id):
            raise BridgeError("ca", "activate_ca answered false", "Check SJ_CA_PATH, the CA password and the person id.")
        return {"activated": True, "expires_at": self._ca_expiry(person_id)}

    def _ca_expiry(self, person_id: str | None) -> str | None:
        if not person_id:
            return None
        try:
            return self.api.get_ca_expiretime(person_id).isoformat()
        except Exception:
            return None

    def ca_expiretime(self, params: dict[str, Any]) -> Any:
        return {"expire_time": self.api.get_ca_expiretime(get(params, "person_id", str)).isoformat()}

    def logout(self, params: dict[str, Any]) -> Any:
        api, self.api = self.api, None
        if api is not None:
            api.logout()
        return {}

    def accounts(self, params: dict[str, Any]) -> Any:
        return [account_json(account) for account in self.api.list_accounts()]

    def usage(self, params: dict[str, Any]) -> Any:
        usage = self.api.usage()
        return {key: getattr(usage, key, 0) for key in ("connections", "bytes", "limit_bytes", "remaining_bytes")}

    def contracts(self, params: dict[str, Any]) -> Any:
        return [contracts.contract_info_json(contract) for contract in contracts.iterate(self.api.Contracts)]

    # -- orders ---------------------------------------------------------------------------------------------------

    def _resolve(self, spec: Any) -> Any:
        if not isinstance(spec, dict):
            raise protocol_error("params.contract must be an object")
        return contracts.resolve(self.api.Contracts, spec)

    def _account(self, selector: Any, kind: str) -> Any:
        if selector is not None and not isinstance(selector, dict):
            raise invalid("account must be an object")
        return orders.select_account(self.api.list_accounts(), selector, kind)

    def place_order(self, params: dict[str, Any]) -> Any:
        contract = self._resolve(get(params, "contract", dict))
        stock_body = get(params, "stock_order", dict, None)
        futures_body = get(params, "futures_order", dict, None)
        if (stock_body is None) == (futures_body is None):
            raise protocol_error("params: exactly one of stock_order and futures_order")
        if stock_body is not None:
            order = orders.stock_order(self.sdk.module, stock_body, self._account(stock_body.get("account"), "stock"))
        else:
            order = orders.futures_order(self.sdk.module, futures_body, self._account(futures_body.get("account"), "futures"))
        return trade_json(self.api.place_order(contract, order))

    def _find_trade(self, trade_id: str) -> Any:
        for refresh in (False, True):
            if refresh:
                self.api.update_status()
            for trade in self.api.list_trades():
                if trade.order.id == trade_id:
                    return trade
        raise not_found(f"trade {trade_id} not found")

    def update_order(self, params: dict[str, Any]) -> Any:
        trade = self._find_trade(get(params, "id", str))
        price = get(params, "price", (int, float), None)
        qty = get(params, "qty", int, None)
        if price is None and qty is None:
            raise invalid("update_order: give price or qty")
        return trade_json(self.api.update_order(trade, price=price, qty=qty))

    def cancel_order(self, params: dict[str, Any]) -> Any:
        return trade_json(self.api.cancel_order(self._find_trade(get(params, "id", str))))

    def trades(self, params: dict[str, Any]) -> Any:
        if get(params, "refresh", bool, False):
            self.api.update_status()
        return [trade_json(trade) for trade in self.api.list_trades()]

    def place_comboorder(self, params: dict[str, Any]) -> Any:
        legs = get(params, "legs", list)
        body = get(params, "order", dict)
        combo = orders.combo_contract(self.sdk.module, legs, self._resolve)
        order = orders.combo_order(self.sdk.module, body, self._account(body.get("account"), "futures"))
        return combo_trade_json(self.api.place_comboorder(combo, order))

    def _find_combo(self, trade_id: str) -> Any:
        for refresh in (False, True):
            if refresh:
                self.api.update_combostatus()
            for trade in self.api.list_combotrades():
                if trade.order.id == trade_id:
                    return trade
        raise not_found(f"combo trade {trade_id} not found")

    def cancel_comboorder(self, params: dict[str, Any]) -> Any:
        return combo_trade_json(self.api.cancel_comboorder(self._find_combo(get(params, "id", str))))

    def combo_trades(self, params: dict[str, Any]) -> Any:
        if get(params, "refresh", bool, False):
            self.api.update_combostatus()
        return [combo_trade_json(trade) for trade in self.api.list_combotrades()]

    # -- market data and queries ----------------------------------------------------------------------------------

    def _subscription(self, params: dict[str, Any]) -> tuple[Any, str, bool]:
        if "legs" in params:
            contract = self._managed_combo(get(params, "legs", list), get(params, "combo_type", str, None))
        else:
            contract = self._resolve({key: params.get(key) for key in ("security_type", "exchange", "code")})
        quote_type = QUOTE_TYPES.get(get(params, "quote_type", str, "Tick").lower())
        if quote_type is None:
            raise invalid(f"quote_type must be Tick, BidAsk or Quote, got {params.get('quote_type')!r}")
        return contract, quote_type, get(params, "intraday_odd", bool, False)

    def _managed_combo(self, legs: list[Any], combo_type: str | None) -> Any:
        """A futures combo for market data: the SDK streams only a managed combo, built by api.contracts.combo()."""
        if len(legs) != 2:
            raise invalid("a combo has exactly two legs")
        bases = [self._base_contract(self._resolve(leg)) for leg in legs]
        return self.api.contracts.combo(bases, combo_type=combo_type)

    def _base_contract(self, contract: Any) -> Any:
        def value(name: str) -> Any:
            raw = getattr(contract, name)
            return getattr(raw, "value", raw)

        return self.sdk.module.BaseContract(value("security_type"), value("exchange"), contract.code)

    def subscribe(self, params: dict[str, Any]) -> Any:
        contract, quote_type, intraday_odd = self._subscription(params)
        extra = index_analytics.subscribe_keywords(self.sdk.module, params)
        self.api.subscribe(contract, quote_type=quote_type, intraday_odd=intraday_odd, **extra)
        return {}

    def unsubscribe(self, params: dict[str, Any]) -> Any:
        contract, quote_type, intraday_odd = self._subscription(params)
        extra = index_analytics.subscribe_keywords(self.sdk.module, params)
        self.api.unsubscribe(contract, quote_type=quote_type, intraday_odd=intraday_odd, **extra)
        return {}

    def subscribe_scanner(self, params: dict[str, Any]) -> Any:
        preset, scope = scanner.arguments(self.sdk.module, params)
        self.api.subscribe_scanner(preset, **scope)
        return {}

    def unsubscribe_scanner(self, params: dict[str, Any]) -> Any:
        preset, scope = scanner.arguments(self.sdk.module, params)
        self.api.unsubscribe_scanner(preset, **scope)
        return {}

    def subscribe_trade(self, params: dict[str, Any]) -> Any:
        selector = get(params, "account", dict)
        kind = "futures" if selector.get("account_type") == "F" else "stock"
        account = self._account(selector, kind)
        if account is None:
            raise not_found(f"no logged-in account matches {selector}")
        self.api.subscribe_trade(account)
        return {}

    def call(self, params: dict[str, Any]) -> Any:
        name = get(params, "name", str)
        arguments = get(params, "params", dict, {})
        return answer_json(name, queries.run(self.api, self.sdk.module, name, arguments, self._resolve, self._account))
