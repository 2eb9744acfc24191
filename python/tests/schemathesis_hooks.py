"""Hooks of the Schemathesis run against the sjgate daemon, loaded by the CLI (SCHEMATHESIS_HOOKS).

- `rejected_request_changes_nothing`, a check: a 4xx answer to a request that could change the gateway's state
  (orders, subscriptions, apps, accounts) left that state as it was.

The run must use one worker: the state is read before and after each mutating request, and a concurrent request
would change it in between.

Reading the state takes eight requests, several times more than the requests under test, so it is read over one kept
connection without the requests library's per-request work, and the state read after a rejected request is the state
before the next one when no request was sent in between (the coverage phase sends the cases of one operation in a row).
"""

from __future__ import annotations

import atexit
import http.client
import json
import os
from typing import Any
from urllib.parse import urlsplit

import schemathesis

BASE_URL = os.environ.get("SJGATE_BASE_URL", "http://127.0.0.1:8080")
STATS_PATH = os.environ.get("SJGATE_STATE_CHECK_STATS")

# The requests that change state when they succeed; a 4xx answer to one of them must change nothing.
MUTATING = frozenset(
    {
        "POST /api/v1/order/place_order",
        "POST /api/v1/order/cancel_order",
        "POST /api/v1/order/update_price",
        "POST /api/v1/order/update_qty",
        "POST /api/v1/order/place_comboorder",
        "POST /api/v1/order/cancel_comboorder",
        "POST /api/v1/stream/subscribe",
        "POST /api/v1/stream/unsubscribe",
        "POST /api/v1/auth/subscribe_trade",
        "POST /api/v1/auth/unsubscribe_trade",
        "POST /api/v1/auth/default_account",
        "POST /api/v1/apps/{name}",
        "DELETE /api/v1/apps/{name}",
        "POST /api/v1/watchlist",
        "PUT /api/v1/watchlist/{id}",
        "DELETE /api/v1/watchlist/{id}",
        "POST /api/v1/watchlist/{id}/contracts",
        "DELETE /api/v1/watchlist/{id}/contracts",
    }
)

# The mutating case sent last and the state just before it (one worker: nothing else runs in between).
_pending: tuple[Any, dict[str, Any]] | None = None
# The state read after the last request the run sent, if no request was sent since; None otherwise.
_current: dict[str, Any] | None = None
_stats = {"compared": 0, "reads": 0}


class _StateReader:
    """Requests over one kept HTTP/1.1 connection, opened again when the gateway closed it."""

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 80
        self._connection: http.client.HTTPConnection | None = None

    def json(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        payload = None if body is None else json.dumps(body).encode()
        headers = {} if payload is None else {"Content-Type": "application/json"}
        for attempt in (1, 2):
            if self._connection is None:
                self._connection = http.client.HTTPConnection(self._host, self._port, timeout=10)
            try:
                self._connection.request(method, path, body=payload, headers=headers)
                response = self._connection.getresponse()
                text = response.read()
            except (http.client.HTTPException, ConnectionError):
                self._connection.close()
                self._connection = None
                if attempt == 2:
                    raise
                continue
            if response.status >= 400:
                raise RuntimeError(f"{method} {path} answered {response.status}: {text[:500]!r}")
            return json.loads(text)


_reader = _StateReader(BASE_URL)


def _get(path: str) -> Any:
    return _reader.json("GET", path)


def _post(path: str, body: dict[str, Any]) -> Any:
    return _reader.json("POST", path, body)


def _orders(trades: list[dict[str, Any]]) -> dict[str, Any]:
    """What a request can change in a trade listing: which orders there are, their prices, live and cancelled
    quantities, and whether they are cancelled. Fills are the market's doing and are compared apart."""
    return {
        "count": len(trades),
        "by_id": {
            trade["order"]["id"]: {
                "price": trade["order"]["price"],
                "quantity": trade["order"]["quantity"],
                "modified_price": trade["status"]["modified_price"],
                "order_quantity": trade["status"]["order_quantity"],
                "cancel_quantity": trade["status"]["cancel_quantity"],
                "cancelled": trade["status"]["status"] == "Cancelled",
            }
            # an order placed with timeout 0 gets its id when the exchange acknowledges it, at any time
            for trade in trades
            if trade["order"]["id"]
        },
    }


def _filled(trades: list[dict[str, Any]]) -> int:
    return sum(trade["status"]["deal_quantity"] for trade in trades)


def _positions(account_type: str) -> list[tuple[Any, ...]]:
    rows = _post("/api/v1/portfolio/position_unit", {"account_type": account_type})
    # quantities only: last_price and pnl follow the market
    return sorted(
        (row["code"], row["direction"], row["quantity"], row.get("yd_quantity"), str(row.get("cond")))
        for row in rows
    )


def snapshot() -> dict[str, Any]:
    _stats["reads"] += 1
    trades = _post("/api/v1/order/trades", {})
    combos = _post("/api/v1/order/combotrades", {})
    return {
        "orders": _orders(trades),
        "combo_orders": _orders(combos),
        "filled": _filled(trades) + _filled(combos),
        "positions": {"S": _positions("S"), "F": _positions("F")},
        "subscriptions": _get("/api/v1/stream/subscriptions"),
        "accounts": _get("/api/v1/auth/accounts"),
        "apps": _get("/api/v1/apps"),
        "watchlists": _get("/api/v1/watchlist"),
    }


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    found = []
    for kind in ("orders", "combo_orders"):
        if before[kind]["count"] != after[kind]["count"]:
            found.append(f"{kind}: {before[kind]['count']} before, {after[kind]['count']} after")
        for trade_id, fields in before[kind]["by_id"].items():
            now = after[kind]["by_id"].get(trade_id)
            if now is not None and now != fields:
                found.append(f"{kind}[{trade_id}]: {fields} before, {now} after")
    # positions move when the market fills a resting order; only compare them when nothing was filled in between
    if before["filled"] == after["filled"] and before["positions"] != after["positions"]:
        found.append(f"positions: {before['positions']} before, {after['positions']} after")
    for kind in ("subscriptions", "accounts", "apps", "watchlists"):
        if before[kind] != after[kind]:
            found.append(f"{kind}: {before[kind]} before, {after[kind]} after")
    return found


@schemathesis.hook
def before_call(context: Any, case: Any, kwargs: dict[str, Any]) -> None:
    global _pending, _current
    if case.operation.label in MUTATING:
        _pending = (case, _current if _current is not None else snapshot())
    else:
        _pending = None
    _current = None  # this case's request is sent next


@schemathesis.check
def rejected_request_changes_nothing(ctx: Any, response: Any, case: Any) -> bool | None:
    """A 4xx answer to a request that could change state (an order, a subscription, an app, a watchlist) changed
    nothing."""
    if case.operation.label not in MUTATING or not 400 <= response.status_code < 500:
        return None
    global _current
    if _pending is None or _pending[0] is not case:
        return None
    after = snapshot()
    found = differences(_pending[1], after)
    _stats["compared"] += 1
    _current = after
    if found:
        raise AssertionError(
            f"{case.operation.label} answered {response.status_code} but the gateway's state changed:\n  "
            + "\n  ".join(found)
        )
    return True


@atexit.register
def _write_stats() -> None:
    if STATS_PATH:
        with open(STATS_PATH, "w") as out:
            json.dump(_stats, out)
