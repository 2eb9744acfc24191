"""The queries of the scripted session (`call`): market data from scripted_market, and an account's balance,
positions and settlements booked from the deals of its orders. Answers are look-alikes of the stub's Snapshot, Ticks,
KBars, AccountBalance, StockPosition, FuturePosition and SettlementV1; a mixin of ScriptedShioaji."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, List, Optional

import shioaji as sj

from . import scripted_index
from . import scripted_market as market
from .lookalike import LookAlike

SHARES_PER_LOT = 1000
ODD_LOTS = ("Odd", "IntradayOdd")
FEE_RATE = 0.001425
MIN_FEE = 20
SELL_TAX_RATE = 0.003


def _value_of(item: Any) -> Any:
    return getattr(item, "value", item)


def _trading_days_after(day: dt.date, count: int) -> dt.date:
    while count > 0:
        day += dt.timedelta(days=1)
        if day.weekday() < 5:
            count -= 1
    return day


def _trading_days_between(earlier: dt.date, later: dt.date) -> int:
    days = 0
    while earlier < later:
        earlier += dt.timedelta(days=1)
        days += earlier.weekday() < 5
    return days


def stock_fee(value: float) -> int:
    return max(MIN_FEE, round(value * FEE_RATE))


def _net_cost(action: str, value: float) -> float:
    """What a deal of `value` moves in cash at settlement: a buy pays it and the fee; a sale gets it less fee and tax."""
    fee = stock_fee(value)
    return -(value + fee) if action == "Buy" else value - fee - round(value * SELL_TAX_RATE)


class ScriptedQueries:
    infos: dict[str, dict[str, Any]]
    books: Any
    _require_login: Callable[[], None]
    _info: Callable[[Any], dict[str, Any]]
    _default_account: Callable[[str], Any]

    # -- market data ----------------------------------------------------------------------------------------------

    def index_components(self, index: Any, timeout: int = 30000) -> Any:
        self._require_login()
        info = self._info(index)
        if info["security_type"] != "IND":
            raise sj.ShioajiValueError(f"index_components: {info['code']} is not an index")
        return scripted_index.index_components(info, self.infos)

    def snapshots(self, contracts: List[Any], timeout: Optional[int] = 30000,
                  cb: Optional[Callable[[List[Any]], None]] = None) -> List[Any]:
        self._require_login()
        return [market.snapshot(self._info(contract), contract.code) for contract in contracts]

    def ticks(self, contract: Any, date: Optional[str] = None, query_type: Optional[Any] = None,
              time_start: Optional[Any] = None, time_end: Optional[Any] = None, last_cnt: Optional[int] = None,
              timeout: Optional[int] = 30000, cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        kind = str(_value_of(query_type) or "AllDay")
        return market.ticks(self._info(contract), date, kind, time_start, time_end, last_cnt)

    def kbars(self, contract: Any, start: Optional[str] = None, end: Optional[str] = None,
              timeout: Optional[int] = 30000, cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        return market.kbars(self._info(contract), start, end)

    # -- portfolio ------------------------------------------------------------------------------------------------

    def account_balance(self, account: Optional[Any] = None, timeout: Optional[int] = 30000,
                        cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        now = dt.datetime.now(market.TAIPEI).strftime("%Y-%m-%d %H:%M:%S.%f")
        return LookAlike("AccountBalance", acc_balance=1_000_000.0, date=now, errmsg="")

    def _deals_of(self, account: Any, kind: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(order record, deal) of every fill of the account's orders of a kind (stock or futures), oldest first."""
        account = account or self._default_account("S" if kind == "stock" else "F")
        with self.books.lock:
            return sorted(
                ((record, deal) for record in self.books.orders.values() if record["kind"] == kind
                 and record["account"]["account_id"] == account.account_id
                 and record["account"]["broker_id"] == account.broker_id for deal in record["deals"]),
                key=lambda pair: pair[1]["ts"],
            )

    def list_positions(self, account: Optional[Any] = None, unit: Optional[Any] = None,
                       timeout: Optional[int] = 30000, cb: Optional[Callable[[List[Any]], None]] = None) -> List[Any]:
        self._require_login()
        futures = account is not None and _value_of(account.account_type) == "F"
        if futures:
            return self._futures_positions(account)
        return self._stock_positions(account, str(_value_of(unit) or "Common"))

    def _stock_positions(self, account: Any, unit: str) -> list[Any]:
        held: dict[tuple[str, str], dict[str, float]] = {}
        today = market.today()
        for record, deal in self._deals_of(account, "stock"):
            shares = deal["quantity"] * (1 if record["order_lot"] in ODD_LOTS else SHARES_PER_LOT)
            signed = shares if record["action"] == "Buy" else -shares
            row = held.setdefault((record["code"], record["order_cond"]), {"shares": 0, "cost": 0, "bought": 0, "yd": 0})
            row["shares"] += signed
            row["yd"] += signed if dt.datetime.fromtimestamp(deal["ts"], market.TAIPEI).date() < today else 0
            if signed > 0:
                row["cost"] += deal["price"] * shares
                row["bought"] += shares
        per_unit = SHARES_PER_LOT if unit == "Common" else 1
        positions = []
        for number, ((code, cond), row) in enumerate(sorted(held.items())):
            if row["shares"] == 0:
                continue
            price = round(row["cost"] / row["bought"], 4) if row["bought"] else 0.0
            last = float(self.infos[code]["reference"])
            positions.append(LookAlike(
                "StockPosition", id=number, code=code, direction=sj.Action("Buy" if row["shares"] > 0 else "Sell"),
                quantity=int(abs(row["shares"]) // per_unit), price=price, last_price=last,
                pnl=round((last - price) * row["shares"], 2) + 0.0, yd_quantity=int(abs(row["yd"]) // per_unit),
                cond=sj.StockOrderCond(cond), margin_purchase_amount=0, collateral=0, short_sale_margin=0, interest=0,
            ))
        return positions

    def _futures_positions(self, account: Any) -> list[Any]:
        held: dict[str, int] = {}
        cost: dict[str, float] = {}
        for record, deal in self._deals_of(account, "futures"):
            signed = deal["quantity"] if record["action"] == "Buy" else -deal["quantity"]
            # A continuous-month alias books the month it stands for.
            code = self.infos[record["code"]].get("target_code") or record["code"]
            held[code] = held.get(code, 0) + signed
            cost[code] = cost.get(code, 0.0) + deal["price"] * signed
        positions = []
        for number, (code, quantity) in enumerate(sorted(held.items())):
            if quantity == 0:
                continue
            info = self.infos[code]
            price, last = round(cost[code] / quantity, 4), float(info["reference"])
            positions.append(LookAlike(
                "FuturePosition", id=number, code=code, direction=sj.Action("Buy" if quantity > 0 else "Sell"),
                quantity=abs(quantity), price=price, last_price=last,
                pnl=round((last - price) * quantity * float(info.get("multiplier") or 1), 2) + 0.0,
            ))
        return positions

    def settlements(self, account: Optional[Any] = None, timeout: Optional[int] = 30000,
                    cb: Optional[Callable[[List[Any]], None]] = None) -> List[Any]:
        """T, T+1 and T+2: what the stock deals of the last three trading days settle on each (deals settle T+2)."""
        self._require_login()
        today = market.today()
        amounts = [0.0, 0.0, 0.0]
        for record, deal in self._deals_of(account, "stock"):
            traded = dt.datetime.fromtimestamp(deal["ts"], market.TAIPEI).date()
            due = 2 - _trading_days_between(traded, today)
            if due >= 0:
                shares = deal["quantity"] * (1 if record["order_lot"] in ODD_LOTS else SHARES_PER_LOT)
                amounts[due] += _net_cost(record["action"], deal["price"] * shares)
        return [LookAlike("SettlementV1", date=_trading_days_after(today, t), amount=round(amounts[t], 2), T=t)
                for t in range(3)]
