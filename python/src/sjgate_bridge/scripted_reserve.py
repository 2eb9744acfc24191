"""The scripted session's share and cash pre-collection (`call`): stock_reserve_summary, stock_reserve_detail,
earmarking_detail, reserve_stock and reserve_earmarking, over the stock account's fills (scripted_ledger). A share
reserve may not exceed the shares held less those reserved; an earmark not the cash less earlier earmarks. Answers are
look-alikes of the stub's Reserve*/Earmark* models; requests are kept for the session only. A mixin of
ScriptedShioaji."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, Optional

from . import scripted_market as market
from .lookalike import LookAlike
from .scripted_ledger import Book

STARTING_CASH = 1_000_000


class ScriptedReserve:
    _require_login: Callable[[], None]
    _stock_book: Callable[[Any], Book]
    _default_account: Callable[[str], Any]

    def _reserve_rows(self) -> list[dict[str, Any]]:
        return self.__dict__.setdefault("_reserves", [])

    def _rows(self, account: Any, kind: str) -> list[dict[str, Any]]:
        return [r for r in self._reserve_rows() if r["account"] is account and r["kind"] == kind]

    def _held(self, account: Any, code: str) -> int:
        return int(sum(lot.units for lot in self._stock_book(account).open.get((code, "Cash"), [])))

    def _reserved(self, account: Any, code: str) -> int:
        return sum(r["share"] for r in self._rows(account, "stock") if r["status"] and r["contract"].code == code)

    def _answer(self, stub: str, response: Any) -> Any:
        return LookAlike(f"{stub}Response", response=response, error=None)

    def stock_reserve_summary(self, account: Optional[Any] = None, timeout: Optional[int] = 30000,
                              cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        account = account or self._default_account("S")
        codes = sorted({code for code, cond in self._stock_book(account).open if cond == "Cash"})
        stocks = [LookAlike("ReserveStockSummary", contract=self.Contracts.Stocks.get(code),
                            available_share=max(0, self._held(account, code) - self._reserved(account, code)),
                            reserved_share=self._reserved(account, code)) for code in codes]
        return self._answer("ReserveStocksSummary", LookAlike("ReserveStocksSummary", stocks=stocks, account=account))

    def stock_reserve_detail(self, account: Optional[Any] = None, timeout: Optional[int] = 30000,
                             cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        account = account or self._default_account("S")
        stocks = [LookAlike("ReserveStockDetail", contract=r["contract"], share=r["share"],
                            order_datetime=r["at"], status=r["status"], info=r["info"])
                  for r in self._rows(account, "stock")]
        return self._answer("ReserveStocksDetail", LookAlike("ReserveStocksDetail", stocks=stocks, account=account))

    def earmarking_detail(self, account: Optional[Any] = None, timeout: Optional[int] = 30000,
                          cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        account = account or self._default_account("S")
        stocks = [LookAlike("EarmarkStockDetail", contract=r["contract"], share=r["share"], price=r["price"],
                            amount=r["amount"], order_datetime=r["at"], status=r["status"], info=r["info"])
                  for r in self._rows(account, "earmark")]
        return self._answer("EarmarkStocksDetail", LookAlike("EarmarkStocksDetail", stocks=stocks, account=account))

    def reserve_stock(self, contract: Any, share: int, account: Optional[Any] = None, timeout: Optional[int] = 30000,
                      cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        account = account or self._default_account("S")
        available = self._held(account, contract.code) - self._reserved(account, contract.code)
        status = share <= available
        info = "" if status else f"available {available} shares"
        self._reserve_rows().append({"kind": "stock", "account": account, "contract": contract, "share": share,
                                     "price": 0.0, "amount": 0, "status": status, "info": info,
                                     "at": dt.datetime.now(market.TAIPEI).replace(tzinfo=None, microsecond=0)})
        return self._answer("ReserveStock", LookAlike("ReserveOrderResp", contract=contract, account=account,
                                                      share=share, status=status, info=info))

    def reserve_earmarking(self, contract: Any, share: int, price: float, account: Optional[Any] = None,
                           timeout: Optional[int] = 30000, cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        account = account or self._default_account("S")
        amount = round(share * price)
        available = STARTING_CASH - sum(r["amount"] for r in self._rows(account, "earmark") if r["status"])
        status = amount <= available
        info = "" if status else f"available {available}"
        self._reserve_rows().append({"kind": "earmark", "account": account, "contract": contract, "share": share,
                                     "price": price, "amount": amount, "status": status, "info": info,
                                     "at": dt.datetime.now(market.TAIPEI).replace(tzinfo=None, microsecond=0)})
        return self._answer("ReserveEarmarking", LookAlike("EarmarkingOrderResp", contract=contract, account=account,
                                                           share=share, price=price, status=status, info=info))
