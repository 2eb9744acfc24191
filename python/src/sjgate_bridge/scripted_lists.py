"""The scripted session's rankings, lists and daily quotes (`call`): look-alikes of the stub's ScannerItem,
CreditEnquire, ShortStockSource, Punish, Notice and DailyQuotes, made of the scripted stocks and their drawn trades
(scripted_market); a mixin of ScriptedShioaji."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable, List, Optional

from . import scripted_market as market
from .lookalike import LookAlike

SCANNER_VALUES = {
    "ChangePercentRank": "change_rate", "ChangePriceRank": "change_price", "DayRangeRank": "price_range",
    "VolumeRank": "total_volume", "AmountRank": "total_amount", "TickCountRank": "total_volume",
}
CHANGE_TYPE_NUMBERS = {"LimitUp": 1, "Up": 2, "Unchanged": 3, "Down": 4, "LimitDown": 5}
# The scanner's tick types are the opposite of the snapshot's: 1 inner (a sale), 2 outer (a buy).
SCANNER_TICK_TYPES = {"Buy": 2, "Sell": 1}
CREDIT_UPDATE = " 08:00:00.000000"


def _value(item: Any) -> Any:
    return getattr(item, "value", item)


def _previous_weekday(day: dt.date) -> dt.date:
    day -= dt.timedelta(days=1)
    while day.weekday() >= 5:
        day -= dt.timedelta(days=1)
    return day


def _scanner_item(info: dict[str, Any], scanner_type: str) -> LookAlike:
    snap = market.snapshot(info, info["code"])
    price_range = round(snap.high - snap.low, 2)
    values = {"change_rate": snap.change_rate, "change_price": snap.change_price, "price_range": price_range,
              "total_volume": snap.total_volume, "total_amount": snap.total_amount}
    return LookAlike(
        "ScannerItem", date=market.today().isoformat(), code=info["code"], name=info["name"], ts=snap.ts,
        open=snap.open, high=snap.high, low=snap.low, close=snap.close, price_range=price_range,
        tick_type=SCANNER_TICK_TYPES.get(str(_value(snap.tick_type)), 0), change_price=snap.change_price,
        change_type=CHANGE_TYPE_NUMBERS[str(_value(snap.change_type))], average_price=snap.average_price,
        volume=snap.volume, total_volume=snap.total_volume, amount=snap.amount, total_amount=snap.total_amount,
        yesterday_volume=int(snap.yesterday_volume), volume_ratio=snap.volume_ratio, buy_price=snap.buy_price,
        buy_volume=int(snap.buy_volume), sell_price=snap.sell_price, sell_volume=int(snap.sell_volume),
        bid_orders=3, bid_volumes=int(snap.buy_volume), ask_orders=3, ask_volumes=int(snap.sell_volume),
        rank_value=float(values[SCANNER_VALUES.get(scanner_type, "total_volume")]),
    )


class ScriptedLists:
    infos: dict[str, dict[str, Any]]
    _require_login: Callable[[], None]
    _info: Callable[[Any], dict[str, Any]]

    def _stocks(self) -> list[dict[str, Any]]:
        return [info for info in self.infos.values() if info["security_type"] == "STK"]

    def scanners(self, scanner_type: Any, date: Optional[str] = None, ascending: Optional[bool] = True,
                 count: Optional[int] = 100, timeout: Optional[int] = 30000,
                 cb: Optional[Callable[[List[Any]], None]] = None) -> List[Any]:
        self._require_login()
        items = [_scanner_item(info, str(_value(scanner_type))) for info in self._stocks()]
        # As the SDK: ascending=True ranks the largest first.
        items.sort(key=lambda item: item.rank_value, reverse=bool(ascending))
        return items[: count if count is not None else 100]

    def credit_enquires(self, contracts: List[Any], timeout: Optional[int] = 30000,
                        cb: Optional[Callable[[List[Any]], None]] = None) -> List[Any]:
        self._require_login()
        update = market.today().isoformat() + CREDIT_UPDATE
        return [LookAlike("CreditEnquire", update_time=update, system="ALL", stock_id=info["code"],
                          margin_unit=int(info["reference"] * 10), short_unit=int(info["reference"] * 5),
                          margin_loan_ratio=round(info["margin_loan_ratio"] * 100),
                          short_margin_ratio=round(info["short_margin_ratio"] * 100))
                for info in map(self._info, contracts)]

    def short_stock_sources(self, contracts: List[Any], timeout: Optional[int] = 30000,
                            cb: Optional[Callable[[List[Any]], None]] = None) -> List[Any]:
        self._require_login()
        return [LookAlike("ShortStockSource", code=info["code"], short_stock_source=int(info["reference"] * 1000),
                          ts=market.snapshot(info, info["code"]).ts) for info in map(self._info, contracts)]

    def punish(self, timeout: Optional[int] = 30000, cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        announced = _previous_weekday(market.today())
        updated = dt.datetime.combine(announced, dt.time(17, 30))
        return LookAlike(
            "Punish", code=["2890"], start_date=[market.today()], end_date=[market.today() + dt.timedelta(days=14)],
            updated_at=[updated], interval=["5分鐘"], unit_limit=[10.0], total_limit=[30.0],
            description=["第一次處置：連續三個營業日達公布注意交易資訊標準"], announced_date=[announced],
        )

    def notice(self, timeout: Optional[int] = 30000, cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        announced = _previous_weekday(market.today())
        return LookAlike(
            "Notice", code=["2884"], updated_at=[dt.datetime.combine(announced, dt.time(17, 30))],
            close=[float(self.infos["2884"]["reference"])], reason=["最近六個營業日（含當日）累積收盤價漲幅達32.25%"],
            announced_date=[announced],
        )

    def daily_quotes(self, date: Optional[dt.date] = None, exclude: Optional[bool] = True,
                     timeout: Optional[int] = 30000, cb: Optional[Callable[[Any], None]] = None) -> Any:
        self._require_login()
        day = date or _previous_weekday(market.today())
        rows = [(info, market.trades_of(info, day)) for info in self._stocks()]
        rows = [(info, trades) for info, trades in rows if trades]
        prices = [[trade.price for trade in trades] for _, trades in rows]
        volumes = [sum(trade.volume for trade in trades) * 1000 for _, trades in rows]
        return LookAlike(
            "DailyQuotes", Date=[day for _ in rows], Code=[info["code"] for info, _ in rows],
            Open=[p[0] for p in prices], High=[max(p) for p in prices], Low=[min(p) for p in prices],
            Close=[p[-1] for p in prices], Volume=volumes, Transaction=[len(trades) for _, trades in rows],
            Amount=[int(sum(t.price * t.volume * 1000 for t in trades)) for _, trades in rows],
        )
