"""The scripted SinoPac's books of one account: its fills matched first in, first out per position (a stock's code
and condition, a future's code), giving each position's open lots and each closing fill's realized lots. The
portfolio queries (scripted_portfolio) read these; positions are numbered as list_positions numbers them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

TAIPEI = dt.timezone(dt.timedelta(hours=8))


@dataclass
class Fill:
    """One deal: `units` are shares for stocks, contracts for futures; negative for a sale."""

    date: dt.date
    dseq: str
    seqno: str
    price: float
    units: int


@dataclass
class Closure:
    """A fill that closed (part of) a position: the lots it closed, each with the units it took."""

    key: Any
    cover: Fill
    lots: list[tuple[Fill, int]] = field(default_factory=list)

    @property
    def units(self) -> int:
        return sum(units for _, units in self.lots)

    @property
    def long(self) -> bool:
        return self.cover.units < 0


@dataclass
class Book:
    open: dict[Any, list[Fill]] = field(default_factory=dict)
    closures: list[Closure] = field(default_factory=list)

    def keys(self) -> list[Any]:
        """Every position key, as list_positions orders and numbers them (its id is the index)."""
        return sorted(self.open)


def fill_of(record: dict[str, Any], deal: dict[str, Any], units: int) -> Fill:
    signed = units if record["action"] == "Buy" else -units
    day = dt.datetime.fromtimestamp(deal["ts"], TAIPEI).date()
    return Fill(date=day, dseq=f"{record['ordno']}{deal['seq'][-2:]}", seqno=record["seqno"], price=deal["price"],
                units=signed)


def book_of(deals: Iterable[tuple[dict[str, Any], dict[str, Any]]], key_of: Callable[[dict[str, Any]], Any],
            units_of: Callable[[dict[str, Any], dict[str, Any]], int]) -> Book:
    """The book of (record, deal) pairs, oldest first."""
    book = Book()
    for record, deal in deals:
        key, fill = key_of(record), fill_of(record, deal, units_of(record, deal))
        lots = book.open.setdefault(key, [])
        remaining = fill.units
        closure = Closure(key, fill)
        while remaining and lots and (lots[0].units > 0) != (remaining > 0):
            taken = min(abs(remaining), abs(lots[0].units))
            closure.lots.append((lots[0], taken))
            step = taken if remaining < 0 else -taken
            lots[0] = Fill(lots[0].date, lots[0].dseq, lots[0].seqno, lots[0].price, lots[0].units - step)
            remaining += step
            if lots[0].units == 0:
                lots.pop(0)
        if closure.lots:
            book.closures.append(closure)
        if remaining:
            lots.append(Fill(fill.date, fill.dseq, fill.seqno, fill.price, remaining))
    return book
