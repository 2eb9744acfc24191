"""The derived streams (kbar, calculated_index) carry JSON numbers and a YYYY/MM/DD date, as the live server sends
them and its clients read them, whatever form the SDK's models hold."""

from decimal import Decimal
from types import SimpleNamespace

from sjgate_bridge.quotes import calculated_index_payload, kbar_payload


def test_a_kbar_has_numbers_and_its_start_with_microseconds():
    bar = SimpleNamespace(code="2330", date="2026-11-20", time="09:01:00", open=1005.0, high=1010.0, low=1000.0,
                          close=1005.0, volume=12, amount=12_060_000, tick_count=7)
    assert kbar_payload(bar) == {"code": "2330", "date": "2026/11/20", "time": "09:01:00.000000", "open": 1005.0,
                                 "high": 1010.0, "low": 1000.0, "close": 1005.0, "volume": 12, "amount": 12_060_000,
                                 "tick_count": 7}


def test_a_calculated_index_has_numbers_in_the_official_order():
    index = SimpleNamespace(code="IX0001", date="2026/11/20", time="10:00:01.250000", open=Decimal("23000.5"),
                            high=Decimal("23010"), low=Decimal("22990.25"), close=Decimal("23005"),
                            total_amount=123_456_789, price_chg=Decimal("-12.5"), pct_chg=Decimal("-0.05"),
                            simtrade=True)
    payload = calculated_index_payload(index)
    assert list(payload) == ["code", "date", "time", "open", "high", "low", "close", "total_amount", "price_chg",
                             "pct_chg", "simtrade"]
    assert payload["open"] == 23000.5 and payload["price_chg"] == -12.5 and payload["pct_chg"] == -0.05
    assert payload["date"] == "2026/11/20" and payload["simtrade"] is True
