"""`call` answers in the gateway's shapes (src/domain/market-data.ts; the portfolio's in portfolio_answers.py): every
model is read field by field, so that nothing the SDK adds reaches a client. Snapshots, ticks, kbars, scanner rows and
short-stock sources carry `ts` (nanoseconds of Taiwan wall-clock time counted as if it were UTC, as the SDK stamps
them) where the gateway has `datetime`; the regulatory lists' dates and times are Taiwan wall-clock text."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from .convert import enum_value, number, to_json
from .index_analytics import index_components_json
from .portfolio_answers import PORTFOLIO_CONVERTERS, each, fields_json
from .reserve_answers import RESERVE_CONVERTERS

EPOCH = dt.datetime(1970, 1, 1)
TAIPEI = dt.timezone(dt.timedelta(hours=8))
SNAPSHOT_PRICES = ("open", "high", "low", "close")
SNAPSHOT_CHANGE = ("change_price", "change_rate")
SNAPSHOT_TRADING = ("average_price", "volume", "total_volume", "amount", "total_amount", "yesterday_volume",
                    "buy_price", "buy_volume", "sell_price", "sell_volume", "volume_ratio")
TICK_COLUMNS = ("close", "volume", "bid_price", "bid_volume", "ask_price", "ask_volume", "tick_type")
KBAR_COLUMNS = ("Open", "High", "Low", "Close", "Volume", "Amount")
SCANNER_ITEM = ("date", "code", "name", "datetime", "open", "high", "low", "close", "price_range", "tick_type",
                "change_price", "change_type", "average_price", "volume", "total_volume", "amount", "total_amount",
                "yesterday_volume", "volume_ratio", "buy_price", "buy_volume", "sell_price", "sell_volume",
                "bid_orders", "bid_volumes", "ask_orders", "ask_volumes", "rank_value")
CREDIT_ENQUIRE = ("update_time", "system", "stock_id", "margin_unit", "short_unit", "margin_loan_ratio",
                  "short_margin_ratio")
PUNISH_COLUMNS = ("code", "start_date", "end_date", "updated_at", "interval", "unit_limit", "total_limit",
                  "description", "announced_date")
NOTICE_COLUMNS = ("code", "updated_at", "close", "reason", "announced_date")
DAILY_QUOTES_COLUMNS = ("Date", "Code", "Open", "High", "Low", "Close", "Volume", "Transaction", "Amount")
# Columns of numbers the gateway has no null in: a missing close is 0, as the official server writes it.
NOT_NULL = {"close"}
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


def scanner_item_json(item: Any) -> dict[str, Any]:
    return {name: wall_clock(item.ts) if name == "datetime" else to_json(getattr(item, name)) for name in SCANNER_ITEM}


def short_stock_source_json(source: Any) -> dict[str, Any]:
    return {"code": source.code, "short_stock_source": number(source.short_stock_source),
            "datetime": wall_clock(source.ts, with_micros=False)}


def _cell(name: str, value: Any) -> Any:
    """A cell of a regulatory list: dates as 'YYYY-MM-DD', times as Taiwan wall-clock 'YYYY-MM-DDTHH:MM:SS'."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(TAIPEI).replace(tzinfo=None)
        return value.strftime("%Y-%m-%dT%H:%M:%S")
    if value is None and name in NOT_NULL:
        return 0
    return to_json(value)


def columns_json(names: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    return lambda table: {name: [_cell(name, value) for value in getattr(table, name)] for name in names}


def _day(value: Any) -> str:
    return value.isoformat() if isinstance(value, (dt.date, dt.datetime)) else str(value).replace("/", "-")[:10]


def settlement_rows(settlement: Any) -> list[dict[str, Any]]:
    """One row per settlement day: the SDK's SettlementV1 as it is, its legacy Settlement as the three it holds."""
    if hasattr(settlement, "T"):
        return [{"date": _day(settlement.date), "amount": number(settlement.amount), "T": int(settlement.T)}]
    days = (settlement.t_day, settlement.t1_day, settlement.t2_day)
    amounts = (settlement.t_money, settlement.t1_money, settlement.t2_money)
    return [{"date": _day(day), "amount": number(amount), "T": t} for t, (day, amount) in enumerate(zip(days, amounts))]


CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "snapshots": each(snapshot_json),
    "ticks": ticks_json,
    "kbars": kbars_json,
    "scanners": each(scanner_item_json),
    "credit_enquires": each(fields_json(CREDIT_ENQUIRE)),
    "short_stock_sources": each(short_stock_source_json),
    "punish": columns_json(PUNISH_COLUMNS),
    "notice": columns_json(NOTICE_COLUMNS),
    "daily_quotes": columns_json(DAILY_QUOTES_COLUMNS),
    "index_components": index_components_json,
    "settlements": lambda answer: [row for item in list(answer or []) for row in settlement_rows(item)],
    **PORTFOLIO_CONVERTERS,
    **RESERVE_CONVERTERS,
}


def answer_json(name: str, answer: Any) -> Any:
    """The JSON of the SDK's answer to the query `name`."""
    return CONVERTERS.get(name, to_json)(answer)
