"""`call` answers in the gateway's shapes (src/domain/market-data.ts, src/domain/portfolio.ts) where the SDK's models
differ from them: snapshots, ticks and kbars carry `ts` (nanoseconds of Taiwan wall-clock time counted as if it were
UTC, as the SDK stamps them) where the gateway has `datetime`; positions and settlements are read field by field so
that nothing the SDK adds reaches a client. Every other answer goes through the generic `to_json`."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from .convert import enum_value, number, to_json

EPOCH = dt.datetime(1970, 1, 1)
SNAPSHOT_PRICES = ("open", "high", "low", "close")
SNAPSHOT_CHANGE = ("change_price", "change_rate")
SNAPSHOT_TRADING = ("average_price", "volume", "total_volume", "amount", "total_amount", "yesterday_volume",
                    "buy_price", "buy_volume", "sell_price", "sell_volume", "volume_ratio")
TICK_COLUMNS = ("close", "volume", "bid_price", "bid_volume", "ask_price", "ask_volume", "tick_type")
KBAR_COLUMNS = ("Open", "High", "Low", "Close", "Volume", "Amount")
STOCK_POSITION = ("id", "code", "direction", "quantity", "price", "last_price", "pnl", "yd_quantity", "cond",
                  "margin_purchase_amount", "collateral", "short_sale_margin", "interest")
FUTURE_POSITION = ("id", "code", "direction", "quantity", "price", "last_price", "pnl")
# The SDK's ChangeType also has a misspelt fall ("Dowm").
CHANGE_TYPES = {"Dowm": "Down"}


def wall_clock(ts: Any, with_micros: bool = True) -> str:
    """'YYYY-MM-DDTHH:MM:SS.ffffff' (or to the second) of an SDK timestamp in nanoseconds."""
    moment = EPOCH + dt.timedelta(microseconds=int(ts) // 1000)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f" if with_micros else "%Y-%m-%dT%H:%M:%S")


def snapshot_json(snapshot: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "datetime": wall_clock(snapshot.ts), "code": snapshot.code, "exchange": str(enum_value(snapshot.exchange)),
    }
    answer.update({name: number(getattr(snapshot, name)) for name in SNAPSHOT_PRICES})
    answer["tick_type"] = str(enum_value(snapshot.tick_type))
    answer.update({name: number(getattr(snapshot, name)) for name in SNAPSHOT_CHANGE})
    change_type = str(enum_value(snapshot.change_type))
    answer["change_type"] = CHANGE_TYPES.get(change_type, change_type)
    answer.update({name: number(getattr(snapshot, name)) for name in SNAPSHOT_TRADING})
    return answer


def ticks_json(ticks: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {"datetime": [wall_clock(ts) for ts in ticks.ts]}
    for name in TICK_COLUMNS:
        answer[name] = [number(value) for value in getattr(ticks, name)]
    return answer


def kbars_json(kbars: Any) -> dict[str, Any]:
    answer: dict[str, Any] = {"datetime": [wall_clock(ts, with_micros=False) for ts in kbars.ts]}
    for name in KBAR_COLUMNS:
        answer[name] = [number(value) for value in getattr(kbars, name)]
    return answer


def position_json(position: Any) -> dict[str, Any]:
    names = STOCK_POSITION if hasattr(position, "yd_quantity") else FUTURE_POSITION
    return {name: to_json(getattr(position, name)) for name in names}


def _day(value: Any) -> str:
    return value.isoformat() if isinstance(value, (dt.date, dt.datetime)) else str(value).replace("/", "-")[:10]


def settlement_rows(settlement: Any) -> list[dict[str, Any]]:
    """One row per settlement day: the SDK's SettlementV1 as it is, its legacy Settlement as the three it holds."""
    if hasattr(settlement, "T"):
        return [{"date": _day(settlement.date), "amount": number(settlement.amount), "T": int(settlement.T)}]
    days = (settlement.t_day, settlement.t1_day, settlement.t2_day)
    amounts = (settlement.t_money, settlement.t1_money, settlement.t2_money)
    return [{"date": _day(day), "amount": number(amount), "T": t} for t, (day, amount) in enumerate(zip(days, amounts))]


def _each(convert: Callable[[Any], Any]) -> Callable[[Any], list[Any]]:
    return lambda answer: [convert(item) for item in list(answer or [])]


CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "snapshots": _each(snapshot_json),
    "ticks": ticks_json,
    "kbars": kbars_json,
    "list_positions": _each(position_json),
    "settlements": lambda answer: [row for item in list(answer or []) for row in settlement_rows(item)],
}


def answer_json(name: str, answer: Any) -> Any:
    """The JSON of the SDK's answer to the query `name`."""
    return CONVERTERS.get(name, to_json)(answer)
