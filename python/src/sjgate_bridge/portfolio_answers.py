"""The portfolio's `call` answers in the gateway's shapes (src/domain/portfolio.ts), each SDK model read field by
field in the gateway's order. A query answers stock or futures rows by the account; a row is told from the other by a
field only its model declares. ProfitLossSummaryTotal's `profitloss_summary` is the gateway's `profitloss_sum`."""

from __future__ import annotations

import datetime as dt
from typing import Any, Callable

from .convert import to_json

STOCK_POSITION = ("id", "code", "direction", "quantity", "price", "last_price", "pnl", "yd_quantity", "cond",
                  "margin_purchase_amount", "collateral", "short_sale_margin", "interest")
FUTURE_POSITION = ("id", "code", "direction", "quantity", "price", "last_price", "pnl")
POSITION_DETAIL = ("date", "code", "quantity", "price", "last_price", "dseq", "direction", "pnl", "currency", "fee")
STOCK_POSITION_DETAIL = (*POSITION_DETAIL, "cond", "ex_dividends", "interest", "margintrading_amt", "collateral")
FUTURE_POSITION_DETAIL = (*POSITION_DETAIL, "entry_quantity")
STOCK_PROFIT_LOSS = ("id", "code", "quantity", "pnl", "date", "dseq", "price", "pr_ratio", "cond", "seqno")
FUTURE_PROFIT_LOSS = ("id", "code", "quantity", "pnl", "date", "entry_price", "cover_price", "tax", "fee", "direction")
PROFIT_DETAIL = ("date", "code", "quantity", "dseq", "fee", "tax", "currency")
STOCK_PROFIT_DETAIL = (*PROFIT_DETAIL, "price", "cost", "rep_margintrading_amt", "rep_collateral", "rep_margin",
                       "shortselling_fee", "ex_dividend_amt", "interest", "trade_type", "cond")
FUTURE_PROFIT_DETAIL = (*PROFIT_DETAIL, "direction", "entry_date", "entry_quantity", "entry_seqno", "entry_price",
                        "cover_price", "pnl")
SUMMARY = ("code", "quantity", "entry_price", "cover_price", "pnl", "currency")
STOCK_SUMMARY = (*SUMMARY, "entry_cost", "cover_cost", "buy_cost", "sell_cost", "pr_ratio", "cond")
FUTURE_SUMMARY = (*SUMMARY, "direction", "tax", "fee")
SUMMARY_TOTAL = ("entry_amount", "cover_amount", "quantity", "buy_cost", "sell_cost", "pnl", "pr_ratio")
MARGIN = ("yesterday_balance", "today_balance", "deposit_withdrawal", "fee", "tax", "initial_margin",
          "maintenance_margin", "margin_call", "risk_indicator", "royalty_revenue_expenditure", "equity",
          "equity_amount", "option_openbuy_market_value", "option_opensell_market_value", "option_open_position",
          "option_settle_profitloss", "future_open_position", "today_future_open_position", "future_settle_profitloss",
          "available_margin", "plus_margin", "plus_margin_indicator", "security_collateral_amount",
          "order_margin_premium", "collateral_amount")
TRADING_LIMITS = ("trading_limit", "trading_used", "trading_available", "margin_limit", "margin_used",
                  "margin_available", "short_limit", "short_used", "short_available")
BALANCE_TIME = "%Y-%m-%d %H:%M:%S.%f"


def fields_json(names: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    """A model as the object of the named fields, in that order."""
    return lambda model: {name: to_json(getattr(model, name)) for name in names}


def either(marker: str, stock: tuple[str, ...], future: tuple[str, ...]) -> Callable[[Any], dict[str, Any]]:
    """A stock row (the model declares `marker`) or a futures row."""
    stock_json, future_json = fields_json(stock), fields_json(future)
    return lambda model: stock_json(model) if hasattr(model, marker) else future_json(model)


def each(convert: Callable[[Any], Any]) -> Callable[[Any], list[Any]]:
    return lambda answer: [convert(item) for item in list(answer or [])]


def balance_json(balance: Any) -> dict[str, Any]:
    """AccountBalance; its date as the gateway's 'YYYY-MM-DD HH:MM:SS.ffffff' (a bare day is its midnight)."""
    date = balance.date
    if isinstance(date, (dt.datetime, dt.date)):
        date = date.strftime(BALANCE_TIME) if isinstance(date, dt.datetime) else f"{date.isoformat()} 00:00:00.000000"
    elif isinstance(date, str) and len(date) == 10:
        date = f"{date.replace('/', '-')} 00:00:00.000000"
    return {"acc_balance": to_json(balance.acc_balance), "date": to_json(date), "errmsg": balance.errmsg or ""}


def summary_json(summary: Any) -> dict[str, Any]:
    row = either("cond", STOCK_SUMMARY, FUTURE_SUMMARY)
    return {"profitloss_sum": [row(item) for item in list(summary.profitloss_summary or [])],
            "total": fields_json(SUMMARY_TOTAL)(summary.total)}


PORTFOLIO_CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "account_balance": balance_json,
    "margin": fields_json(MARGIN),
    "trading_limits": fields_json(TRADING_LIMITS),
    "list_positions": each(either("yd_quantity", STOCK_POSITION, FUTURE_POSITION)),
    "list_position_detail": each(either("ex_dividends", STOCK_POSITION_DETAIL, FUTURE_POSITION_DETAIL)),
    "list_profit_loss": each(either("seqno", STOCK_PROFIT_LOSS, FUTURE_PROFIT_LOSS)),
    "list_profit_loss_detail": each(either("trade_type", STOCK_PROFIT_DETAIL, FUTURE_PROFIT_DETAIL)),
    "list_profit_loss_summary": summary_json,
}
