"""The scripted session's market scanner (1.7.1): subscribe_scanner / unsubscribe_scanner and the scanner callback.
While a scanner is subscribed, each turn of the quote loop delivers one event of it on a stock of its exchange: a
ScannerSignalEvent with the extra of its family for a preset rule, a ScannerQuoteEvent for simtrade or suspend. The
stock's quote is a look-alike of the stub's QuoteSTKv1. A mixin of ScriptedShioaji."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Callable

import shioaji as sj

from . import scripted_quotes as quotes
from .lookalike import LookAlike


def _scanner_key(scanner: Any, exchange: Any) -> tuple[str, str]:
    value = getattr(scanner, "id", None) or getattr(scanner, "value", None)
    if not isinstance(value, str):
        raise sj.ShioajiValueError("scanner must be StreamScanner or a fixed scanner preset")
    return value, str(getattr(exchange, "value", exchange))


def _extra(scanner: Any, price: Decimal, tick: Decimal) -> LookAlike:
    if isinstance(scanner, sj.PriceMoveScanner):
        sign = -1 if scanner.id in ("trade_price_drop", "ask_price_drop") else 1
        change = sign * tick * 3
        return LookAlike("PriceMoveExtra", reference_time="09:00:00.000000", reference_price=price - change,
                         change_price=change, change_percent=(change / (price - change) * 100).quantize(Decimal("0.01")),
                         tick_change=sign * 3, elapsed_ms=400)
    if isinstance(scanner, sj.VolumeScanner):
        return LookAlike("VolumeBurstExtra", amount=int(price * 500 * 1000), volume=500, price=price,
                         threshold=50_000_000)
    down = "down" in scanner.id
    limit = (price * Decimal("0.9") if down else price * Decimal("1.1")).quantize(tick)
    return LookAlike("LimitScannerExtra", previous_best_price=None if "unlocked" in scanner.id else price,
                     trigger_price=limit, limit_price=limit)


class ScriptedScanner:
    _require_login: Callable[[], None]
    _set: Callable[..., None]
    infos: dict[str, dict[str, Any]]
    callbacks: dict[str, Callable[..., None]]
    dispatcher: Any

    def _scanners(self) -> dict[tuple[str, str], tuple[Any, Any, int]]:
        return self.__dict__.setdefault("_scanner_subscriptions", {})

    def subscribe_scanner(self, scanner: Any, *, region: Any, security_type: Any, exchange: Any) -> None:
        self._require_login()
        if str(getattr(exchange, "value", exchange)) not in ("TSE", "OTC"):
            raise sj.ShioajiValueError("exchange must be Exchange.TSE or Exchange.OTC")
        key = _scanner_key(scanner, exchange)
        self._scanners().setdefault(key, (scanner, exchange, 0))

    def unsubscribe_scanner(self, scanner: Any, *, region: Any, security_type: Any, exchange: Any) -> None:
        self._require_login()
        self._scanners().pop(_scanner_key(scanner, exchange), None)

    def set_on_scanner_callback(self, callback: Callable[[Any], None], bind: bool = False) -> None:
        self._set("scanner", callback)

    def _stock_of(self, exchange: str) -> dict[str, Any] | None:
        stocks = [info for info in self.infos.values() if info.get("security_type") == "STK"]
        return next((info for info in stocks if info.get("exchange") == exchange), stocks[0] if stocks else None)

    def _emit_scanners(self) -> None:
        for key, (scanner, exchange, count) in list(self._scanners().items()):
            info = self._stock_of(key[1])
            if info is None or key not in self._scanners():
                continue
            self._scanners()[key] = (scanner, exchange, count + 1)
            quote = quotes.quote("quote_stk", info, count + 1, False)
            scope = {"region": sj.Region.TW, "security_type": sj.SecurityType.Stock, "exchange": exchange}
            if isinstance(scanner, sj.StreamScanner):
                object.__setattr__(quote, key[0], True)
                event = LookAlike("ScannerQuoteEvent", scanners=(scanner,), quote=quote, **scope)
            else:
                price = Decimal(str(info["reference"]))
                tick = Decimal(str(info.get("tick") or "0.5"))
                event = LookAlike("ScannerSignalEvent", scanner=scanner, quote=quote,
                                  extra=_extra(scanner, price, tick), **scope)
            self.dispatcher.post(self.callbacks.get("scanner"), event)
