"""The scripted session's account queries beyond positions (`call`): margin, trading limits, position details and
realized profit and loss, all derived from the account's fills (scripted_ledger). Answers are look-alikes of the
stub's Margin, TradingLimits, StockPositionDetail, FuturePositionDetail, StockProfitLoss, FutureProfitLoss,
StockProfitDetail, FutureProfitDetail, ProfitLossSummaryTotal and its rows; a mixin of ScriptedShioaji."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, List, Optional

import shioaji as sj

from . import scripted_market as market
from .lookalike import LookAlike
from .scripted_ledger import Book, Closure, Fill, book_of, fill_of
from .scripted_queries import ODD_LOTS, SELL_TAX_RATE, SHARES_PER_LOT, stock_fee

__all__ = ["SELL_TAX_RATE", "SHARES_PER_LOT", "ScriptedPortfolio", "stock_fee"]
FUTURES_FEE = 60
FUTURES_TAX_RATE = 0.00002
# TAIFEX's margins of a TXF contract, as the simulator's.
INITIAL_MARGIN, MAINTENANCE_MARGIN = 338_000, 259_000
STARTING_COLLATERAL = 2_000_000
TRADING_LIMIT, MARGIN_LIMIT, SHORT_LIMIT = 10_000_000, 5_000_000, 3_000_000
TWD = sj.Currency("TWD")


def _action(units: float) -> Any:
    return sj.Action("Buy" if units > 0 else "Sell")


def _day(text: Any) -> dt.date:
    return dt.date.fromisoformat(str(text)) if text else market.today()


def _ratio(pnl: float, cost: float) -> float:
    return round(pnl / cost * 100, 2) if cost else 0.0


class ScriptedPortfolio:
    infos: dict[str, dict[str, Any]]
    _require_login: Callable[[], None]
    _deals_of: Callable[[Any, str], list[tuple[dict[str, Any], dict[str, Any]]]]
    _futures_pnl: Callable[[Closure], float]

    # -- the books ------------------------------------------------------------------------------------------------

    def _stock_book(self, account: Any) -> Book:
        return book_of(self._deals_of(account, "stock"), lambda r: (r["code"], r["order_cond"]),
                       lambda r, d: d["quantity"] * (1 if r["order_lot"] in ODD_LOTS else SHARES_PER_LOT))

    def _futures_book(self, account: Any) -> Book:
        return book_of(self._deals_of(account, "futures"), self._futures_code, lambda r, d: d["quantity"])

    def _futures_code(self, record: dict[str, Any]) -> str:
        """The month a fill books: a continuous-month alias (TXFR1) books the month it stands for."""
        return self.infos[record["code"]].get("target_code") or record["code"]

    def _is_futures(self, account: Any) -> bool:
        return account is not None and str(getattr(account.account_type, "value", account.account_type)) == "F"

    def _multiplier(self, code: str) -> float:
        return float(self.infos[code].get("multiplier") or 1)

    def _closures(self, account: Any, begin_date: str, end_date: str) -> list[tuple[int, Closure]]:
        book = self._futures_book(account) if self._is_futures(account) else self._stock_book(account)
        begin, end = _day(begin_date), _day(end_date)
        return [(number, c) for number, c in enumerate(book.closures) if begin <= c.cover.date <= end]

    # -- queries --------------------------------------------------------------------------------------------------

    def margin(self, account: Optional[Any] = None, timeout: Optional[int] = 30000,
               cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        book, today = self._futures_book(account), market.today()
        open_lots = [(code, lot) for code, lots in book.open.items() for lot in lots]
        contracts = sum(abs(lot.units) for _, lot in open_lots)
        open_pnl = sum((self.infos[code]["reference"] - lot.price) * lot.units * self._multiplier(code)
                       for code, lot in open_lots)
        settled = sum(self._futures_pnl(c) for c in book.closures if c.cover.date == today)
        fills = [f for f in self._futures_fills(account) if f[1].date == today]
        fee = sum(FUTURES_FEE * abs(f.units) for _, f in fills)
        tax = sum(round(abs(f.price * f.units) * self._multiplier(code) * FUTURES_TAX_RATE) for code, f in fills)
        balance = STARTING_COLLATERAL + settled - fee - tax
        equity = balance + open_pnl
        initial, maintenance = contracts * INITIAL_MARGIN, contracts * MAINTENANCE_MARGIN
        zero = dict.fromkeys(("deposit_withdrawal", "margin_call", "royalty_revenue_expenditure",
                              "option_openbuy_market_value", "option_opensell_market_value", "option_open_position",
                              "option_settle_profitloss", "plus_margin", "plus_margin_indicator",
                              "security_collateral_amount", "order_margin_premium", "collateral_amount"), 0.0)
        return LookAlike(
            "Margin", yesterday_balance=float(STARTING_COLLATERAL), today_balance=float(balance), fee=float(fee),
            tax=float(tax), initial_margin=float(initial), maintenance_margin=float(maintenance),
            risk_indicator=round(equity / maintenance * 100, 2) if maintenance else 999.0, equity=float(equity),
            equity_amount=float(equity), future_open_position=float(open_pnl),
            today_future_open_position=float(open_pnl), future_settle_profitloss=float(settled),
            available_margin=float(equity - initial), **zero,
        )

    def _futures_fills(self, account: Any) -> list[tuple[str, Fill]]:
        """(code, fill) of every futures deal of the account."""
        return [(self._futures_code(r), fill_of(r, d, d["quantity"]))
                for r, d in self._deals_of(account, "futures")]

    def trading_limits(self, account: Optional[Any] = None, timeout: Optional[int] = 30000,
                       cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        today = market.today()
        used = sum(round(deal["price"] * deal["quantity"] * (1 if record["order_lot"] in ODD_LOTS else SHARES_PER_LOT))
                   for record, deal in self._deals_of(account, "stock") if record["action"] == "Buy"
                   and dt.datetime.fromtimestamp(deal["ts"], market.TAIPEI).date() == today)
        return LookAlike("TradingLimits", trading_limit=TRADING_LIMIT, trading_used=used,
                         trading_available=TRADING_LIMIT - used, margin_limit=MARGIN_LIMIT, margin_used=0,
                         margin_available=MARGIN_LIMIT, short_limit=SHORT_LIMIT, short_used=0,
                         short_available=SHORT_LIMIT)

    def list_position_detail(self, account: Optional[Any] = None, detail_id: int = 0, timeout: Optional[int] = 30000,
                             cb: Optional[Callable[[List[Any]], None]] = None) -> List[Any]:
        self._require_login()
        futures = self._is_futures(account)
        book = self._futures_book(account) if futures else self._stock_book(account)
        keys = book.keys()
        if not 0 <= detail_id < len(keys):
            return []
        key = keys[detail_id]
        return [self._future_detail(key, lot) if futures else self._stock_detail(key, lot) for lot in book.open[key]]

    def _stock_detail(self, key: tuple[str, str], lot: Fill) -> Any:
        code, cond = key
        last, fee = float(self.infos[code]["reference"]), stock_fee(abs(lot.price * lot.units))
        return LookAlike(
            "StockPositionDetail", date=lot.date.isoformat(), code=code, quantity=abs(lot.units), price=lot.price,
            last_price=last, dseq=lot.dseq, direction=_action(lot.units), pnl=round((last - lot.price) * lot.units - fee, 2),
            currency=TWD, fee=float(fee), cond=sj.StockOrderCond(cond), ex_dividends=0, interest=0,
            margintrading_amt=0, collateral=0,
        )

    def _future_detail(self, code: str, lot: Fill) -> Any:
        last = float(self.infos[code]["reference"])
        return LookAlike(
            "FuturePositionDetail", date=lot.date.isoformat(), code=code, quantity=abs(lot.units), price=lot.price,
            last_price=last, dseq=lot.dseq, direction=_action(lot.units),
            pnl=round((last - lot.price) * lot.units * self._multiplier(code), 2), currency=TWD,
            fee=float(FUTURES_FEE * abs(lot.units)), entry_quantity=abs(lot.units),
        )
