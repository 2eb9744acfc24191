"""Market data of the scripted session: each weekday's trades of a contract, drawn from a seed of its code and day,
and the stub's Ticks, KBars and Snapshot made of them (look-alikes with the stub's field names: `ts` in nanoseconds
of Taiwan wall-clock time counted as UTC, as the SDK stamps them). A day's trades run from 09:00 to 13:30; today's
stop at the present minute."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, NamedTuple

import shioaji as sj

from .lookalike import LookAlike

TAIPEI = dt.timezone(dt.timedelta(hours=8))
OPEN_SECOND = 9 * 3600
CLOSE_SECOND = 13 * 3600 + 30 * 60
NS = 1_000_000_000
# The TWSE tick sizes by price (src/domain/ticks.ts STOCK_TICKS) and TXO's by premium.
STOCK_TICKS = ((10, 0.01), (50, 0.05), (100, 0.1), (500, 0.5), (1000, 1.0), (float("inf"), 5.0))
PREMIUM_TICKS = ((10, 0.1), (50, 0.5), (500, 1.0), (1000, 5.0), (float("inf"), 10.0))


class Trade(NamedTuple):
    ts: int
    price: float
    volume: int
    tick_type: int


def tick_at(info: dict[str, Any], price: float) -> float:
    if info["security_type"] == "IND":
        return 0.01
    table = STOCK_TICKS if info["security_type"] == "STK" else PREMIUM_TICKS if info.get("tick_basis") == "premium" else None
    if table is None:
        return float(info.get("tick") or 1.0)
    return next(tick for bound, tick in table if price < bound)


def on_grid(info: dict[str, Any], price: float) -> float:
    tick = tick_at(info, price)
    return round(round(price / tick) * tick, 2)


def step(info: dict[str, Any], price: float, ticks: int) -> float:
    """`ticks` ticks above (below, when negative) a price on the grid."""
    for _ in range(abs(ticks)):
        price = on_grid(info, price + (tick_at(info, price) if ticks > 0 else -tick_at(info, price - 1e-9)))
    return price


def today() -> dt.date:
    return dt.datetime.now(TAIPEI).date()


def _stamp(day: dt.date, second: float) -> int:
    return (day - dt.date(1970, 1, 1)).days * 86400 * NS + int(second * 1_000_000) * 1000


def trades_of(info: dict[str, Any], day: dt.date) -> list[Trade]:
    """The contract's trades of a day: none on a weekend or a day to come, today's up to now."""
    if day.weekday() >= 5 or day > today():
        return []
    rng = random.Random(f"{info['code']}:{day.isoformat()}")
    reference = float(info["reference"])
    low, high = on_grid(info, reference * 0.97), on_grid(info, reference * 1.03)
    price = on_grid(info, reference)
    now = dt.datetime.now(TAIPEI)
    last_second = (now.hour * 3600 + now.minute * 60 + now.second) if day == now.date() else CLOSE_SECOND
    trades: list[Trade] = []
    second = OPEN_SECOND + rng.uniform(0.5, 20)
    while second < min(last_second, CLOSE_SECOND):
        move = rng.choice((-1, 0, 0, 1))
        price = min(high, max(low, step(info, price, move)))
        trades.append(Trade(_stamp(day, second), price, rng.randint(1, 30), 1 if move >= 0 else 2))
        second += rng.uniform(20, 100)
    return trades


def _day(text: Any) -> dt.date:
    return dt.date.fromisoformat(str(text)) if text else today()


def _seconds(text: Any) -> float:
    hours, minutes, *rest = (str(text) + ":0").split(":")[:3]
    return int(hours) * 3600 + int(minutes) * 60 + float(rest[0] if rest else 0)


def ticks(info: dict[str, Any], date: Any, query_type: str, time_start: Any, time_end: Any, last_cnt: Any) -> LookAlike:
    day = _day(date)
    trades = trades_of(info, day)
    if query_type == "RangeTime":
        start, end = _stamp(day, _seconds(time_start or "00:00:00")), _stamp(day, _seconds(time_end or "23:59:59"))
        trades = [trade for trade in trades if start <= trade.ts <= end]
    elif query_type == "LastCount":
        trades = trades[-int(last_cnt or 0):] if last_cnt else []
    return LookAlike(
        "Ticks", ts=[t.ts for t in trades], close=[t.price for t in trades], volume=[t.volume for t in trades],
        bid_price=[t.price if t.tick_type == 2 else step(info, t.price, -1) for t in trades],
        bid_volume=[10 for _ in trades],
        ask_price=[t.price if t.tick_type == 1 else step(info, t.price, 1) for t in trades],
        ask_volume=[10 for _ in trades], tick_type=[t.tick_type for t in trades],
    )


def _unit(info: dict[str, Any]) -> float:
    return float(info.get("unit") or info.get("multiplier") or 1)


def kbars(info: dict[str, Any], start: Any, end: Any) -> LookAlike:
    """One-minute bars, each stamped with the end of its minute, from the trades of each day from start to end."""
    bars: dict[int, list[Trade]] = {}
    day, last = _day(start), _day(end)
    while day <= last:
        for trade in trades_of(info, day):
            bars.setdefault((trade.ts // (60 * NS) + 1) * 60 * NS, []).append(trade)
        day += dt.timedelta(days=1)
    stamps = sorted(bars)
    return LookAlike(
        "KBars", ts=stamps, Open=[bars[s][0].price for s in stamps], High=[max(t.price for t in bars[s]) for s in stamps],
        Low=[min(t.price for t in bars[s]) for s in stamps], Close=[bars[s][-1].price for s in stamps],
        Volume=[sum(t.volume for t in bars[s]) for s in stamps],
        Amount=[round(sum(t.price * t.volume * _unit(info) for t in bars[s]), 2) for s in stamps],
    )


def _latest(info: dict[str, Any]) -> tuple[list[Trade], int]:
    """The trades of the latest day that had any, and the volume of the day before it."""
    day = today()
    for _ in range(14):
        trades = trades_of(info, day)
        if trades:
            before = day - dt.timedelta(days=1)
            while before.weekday() >= 5:
                before -= dt.timedelta(days=1)
            return trades, sum(t.volume for t in trades_of(info, before))
        day -= dt.timedelta(days=1)
    return [], 0


def _change_type(info: dict[str, Any], close: float, reference: float) -> Any:
    if info.get("limit_up") and close >= info["limit_up"]:
        return sj.ChangeType.LimitUp
    if info.get("limit_down") and close <= info["limit_down"]:
        return sj.ChangeType.LimitDown
    return sj.ChangeType.Up if close > reference else sj.ChangeType.Down if close < reference else sj.ChangeType.Unchanged


def snapshot(info: dict[str, Any], code: str) -> LookAlike:
    trades, yesterday_volume = _latest(info)
    reference = float(info["reference"])
    last = trades[-1] if trades else Trade(_stamp(today(), OPEN_SECOND), on_grid(info, reference), 0, 0)
    prices = [t.price for t in trades] or [last.price]
    total_volume = sum(t.volume for t in trades)
    total_amount = round(sum(t.price * t.volume * _unit(info) for t in trades), 2)
    tick_types = {1: sj.TickType.Buy, 2: sj.TickType.Sell}
    return LookAlike(
        "Snapshot", ts=last.ts, code=code, exchange=str(info["exchange"]), open=prices[0], high=max(prices),
        low=min(prices), close=last.price, tick_type=tick_types.get(last.tick_type, sj.TickType("None")),
        change_price=round(last.price - reference, 2), change_rate=round((last.price - reference) / reference * 100, 2),
        change_type=_change_type(info, last.price, reference),
        average_price=round(total_amount / total_volume / _unit(info), 2) if total_volume else last.price,
        volume=last.volume, total_volume=total_volume, amount=int(last.price * last.volume * _unit(info)),
        total_amount=int(total_amount), yesterday_volume=float(yesterday_volume),
        buy_price=step(info, last.price, -1) if last.tick_type == 1 else last.price, buy_volume=10.0,
        sell_price=last.price if last.tick_type == 1 else step(info, last.price, 1), sell_volume=10,
        volume_ratio=round(total_volume / yesterday_volume, 4) if yesterday_volume else 0.0,
    )
