"""The scripted session's realized profit and loss (`call`): each fill that closed lots of a position (scripted_ledger)
is a row of list_profit_loss, numbered in the account's order of fills; its detail is the lots it closed and itself;
the summary sums the rows of a code. Look-alikes of the stub's StockProfitLoss, FutureProfitLoss, StockProfitDetail,
FutureProfitDetail, ProfitLossSummaryTotal, StockProfitLossSummary, FutureProfitLossSummary and ProfitLossTotal; a
mixin of ScriptedShioaji, with scripted_portfolio's books."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import shioaji as sj

from .lookalike import LookAlike
from .scripted_ledger import Closure
from .scripted_portfolio import FUTURES_FEE, FUTURES_TAX_RATE, SELL_TAX_RATE, SHARES_PER_LOT, TWD, _action, _ratio, stock_fee


def _per_unit(unit: Any) -> int:
    return SHARES_PER_LOT if str(getattr(unit, "value", unit) or "Common") == "Common" else 1


class ScriptedRealized:
    _require_login: Callable[[], None]
    _is_futures: Callable[[Any], bool]
    _multiplier: Callable[[str], float]
    _closures: Callable[[Any, str, str], list[tuple[int, Closure]]]


    def _stock_amounts(self, closure: Closure) -> tuple[float, float, float, float, float]:
        """Entry value, cover value, buy cost (value and fees), sale net (value less fee and tax), pnl."""
        entry = sum(lot.price * units for lot, units in closure.lots)
        cover = closure.cover.price * closure.units
        bought, sold = (entry, cover) if closure.long else (cover, entry)
        buy_cost = bought + stock_fee(bought)
        sale_net = sold - stock_fee(sold) - round(sold * SELL_TAX_RATE)
        return entry, cover, buy_cost, sale_net, round(sale_net - buy_cost, 2)

    def _futures_pnl(self, closure: Closure) -> float:
        sign = 1 if closure.long else -1
        return sum((closure.cover.price - lot.price) * units * sign for lot, units in closure.lots) * self._multiplier(
            closure.key)

    def list_profit_loss(self, account: Optional[Any] = None, begin_date: str = "", end_date: str = "",
                         unit: Optional[Any] = None, timeout: Optional[int] = 30000,
                         cb: Optional[Callable[[List[Any]], None]] = None) -> List[Any]:
        self._require_login()
        per_unit = _per_unit(unit)
        rows = []
        for number, closure in self._closures(account, begin_date, end_date):
            if self._is_futures(account):
                rows.append(self._future_profit_loss(number, closure))
                continue
            _, _, buy_cost, _, pnl = self._stock_amounts(closure)
            code, cond = closure.key
            rows.append(LookAlike(
                "StockProfitLoss", id=number, code=code, quantity=closure.units // per_unit, pnl=pnl,
                date=closure.cover.date.isoformat(), dseq=closure.cover.dseq, price=closure.cover.price,
                pr_ratio=_ratio(pnl, buy_cost), cond=sj.StockOrderCond(cond), seqno=closure.cover.seqno,
            ))
        return rows

    def _future_profit_loss(self, number: int, closure: Closure) -> Any:
        value = closure.cover.price * closure.units * self._multiplier(closure.key)
        fee, tax = FUTURES_FEE * closure.units * 2, round(value * FUTURES_TAX_RATE) * 2
        entry = sum(lot.price * units for lot, units in closure.lots) / closure.units
        return LookAlike(
            "FutureProfitLoss", id=number, code=closure.key, quantity=closure.units,
            pnl=round(self._futures_pnl(closure) - fee - tax, 2), date=closure.cover.date.isoformat(),
            entry_price=round(entry, 4), cover_price=closure.cover.price, tax=tax, fee=fee,
            direction=_action(1 if closure.long else -1),
        )

    def list_profit_loss_detail(self, account: Optional[Any] = None, detail_id: int = 0,
                                unit: Optional[Any] = None, timeout: Optional[int] = 30000,
                                cb: Optional[Callable[[List[Any]], None]] = None) -> List[Any]:
        self._require_login()
        closure = dict(self._closures(account, "1970-01-01", "9999-12-31")).get(detail_id)
        if closure is None:
            return []
        if self._is_futures(account):
            return [self._future_profit_detail(closure, lot, units) for lot, units in closure.lots]
        code, cond = closure.key
        per_unit = _per_unit(unit)
        fills = [(lot, units if lot.units > 0 else -units) for lot, units in closure.lots]
        fills.append((closure.cover, closure.units if closure.cover.units > 0 else -closure.units))
        rows = []
        for fill, units in fills:
            value = fill.price * abs(units)
            fee, tax = stock_fee(value), 0 if units > 0 else round(value * SELL_TAX_RATE)
            rows.append(LookAlike(
                "StockProfitDetail", date=fill.date.isoformat(), code=code, quantity=abs(units) // per_unit,
                dseq=fill.dseq, fee=fee, tax=tax, currency="TWD", price=fill.price,
                cost=round(value + fee if units > 0 else value - fee - tax), rep_margintrading_amt=0, rep_collateral=0,
                rep_margin=0, shortselling_fee=0, ex_dividend_amt=0, interest=0,
                trade_type=sj.TradeType("DayTrade" if all(lot.date == closure.cover.date for lot, _ in closure.lots)
                                        else "Common"),
                cond=sj.StockOrderCond(cond),
            ))
        return rows

    def _future_profit_detail(self, closure: Closure, lot: Any, units: int) -> Any:
        multiplier, sign = self._multiplier(closure.key), 1 if closure.long else -1
        fee = float(FUTURES_FEE * units * 2)
        tax = float(round((lot.price + closure.cover.price) * units * multiplier * FUTURES_TAX_RATE))
        return LookAlike(
            "FutureProfitDetail", date=closure.cover.date.isoformat(), code=closure.key, quantity=units,
            dseq=closure.cover.dseq, fee=fee, tax=tax, currency="TWD", direction=_action(sign),
            entry_date=lot.date.isoformat(), entry_quantity=units, entry_seqno=lot.seqno, entry_price=lot.price,
            cover_price=closure.cover.price, pnl=round((closure.cover.price - lot.price) * units * sign * multiplier),
        )

    def list_profit_loss_summary(self, account: Optional[Any] = None, begin_date: str = "", end_date: str = "",
                                 timeout: Optional[int] = 30000, cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        futures = self._is_futures(account)
        groups: dict[Any, list[Closure]] = {}
        for _, closure in self._closures(account, begin_date, end_date):
            groups.setdefault((closure.key, closure.long), []).append(closure)
        rows, totals = [], dict.fromkeys(("entry_amount", "cover_amount", "quantity", "buy_cost", "sell_cost", "pnl"), 0.0)
        for (key, long), closures in sorted(groups.items()):
            units = sum(c.units for c in closures)
            entry = sum(lot.price * n for c in closures for lot, n in c.lots)
            cover = sum(c.cover.price * c.units for c in closures)
            if futures:
                row = self._future_summary(key, long, closures, units, entry, cover)
                buy_cost = sell_cost = row.fee / 2 + row.tax / 2
            else:
                amounts = [self._stock_amounts(c) for c in closures]
                buy_cost, sell_cost = sum(a[2] for a in amounts), sum(a[3] for a in amounts)
                pnl = round(sum(a[4] for a in amounts), 2)
                row = LookAlike(
                    "StockProfitLossSummary", code=key[0], quantity=units, entry_price=round(entry / units, 4),
                    cover_price=round(cover / units, 4), pnl=pnl, currency="TWD", entry_cost=round(entry),
                    cover_cost=round(cover), buy_cost=round(buy_cost), sell_cost=round(sell_cost),
                    pr_ratio=_ratio(pnl, buy_cost), cond=sj.StockOrderCond(key[1]),
                )
            rows.append(row)
            multiplier = self._multiplier(key) if futures else 1
            for name, value in (("entry_amount", entry * multiplier), ("cover_amount", cover * multiplier),
                                ("quantity", units), ("buy_cost", buy_cost), ("sell_cost", sell_cost),
                                ("pnl", row.pnl)):
                totals[name] += value
        total = LookAlike("ProfitLossTotal", **{k: round(v, 2) for k, v in totals.items()}, pr_ratio=_ratio(
            totals["pnl"], totals["buy_cost"] if not futures else totals["entry_amount"]))
        total.quantity = int(totals["quantity"])
        return LookAlike("ProfitLossSummaryTotal", profitloss_summary=rows, total=total)

    def _future_summary(self, code: str, long: bool, closures: list[Closure], units: int, entry: float,
                        cover: float) -> Any:
        rows = [self._future_profit_loss(0, closure) for closure in closures]
        return LookAlike(
            "FutureProfitLossSummary", code=code, quantity=units, entry_price=round(entry / units, 4),
            cover_price=round(cover / units, 4), pnl=round(sum(r.pnl for r in rows), 2), currency="TWD",
            direction=_action(1 if long else -1), tax=sum(r.tax for r in rows), fee=sum(r.fee for r in rows),
        )
