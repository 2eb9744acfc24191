"""The SDK's callbacks, each pushing its event to the daemon. They run on the SDK's threads: nothing may raise."""

from __future__ import annotations

import sys
import traceback
from typing import Any, Callable

from . import index_analytics
from .convert import to_json
from .quotes import quote_payload
from .scanner import scanner_payload
from .wire import Wire

QUOTE_SETTERS = {
    "tick_stk": "set_on_tick_stk_v1_callback",
    "bidask_stk": "set_on_bidask_stk_v1_callback",
    "quote_stk": "set_on_quote_stk_v1_callback",
    "tick_fop": "set_on_tick_fop_v1_callback",
    "bidask_fop": "set_on_bidask_fop_v1_callback",
    "quote_fop": "set_on_quote_fop_v1_callback",
    "quote_idx": "set_on_quote_idx_v1_callback",
    "kbar": "set_on_kbar_callback",
    "calculated_index": "set_on_calculated_index_callback",
}

# The index analytics: each family's setter and the converter of its events.
ANALYTICS_SETTERS: dict[str, tuple[str, Callable[[Any], dict[str, Any]]]] = {
    "index_contribution": ("set_on_index_contribution_callback", index_analytics.index_contribution_payload),
    "industry_contribution": ("set_on_industry_contribution_callback", index_analytics.industry_contribution_payload),
    "index_components": ("set_on_index_components_callback", index_analytics.index_components_payload),
}


def _guarded(what: str, push: Callable[..., None]) -> Callable[..., None]:
    def callback(*args: Any) -> None:
        try:
            push(*args)
        except Exception:
            print(f"sjgate_bridge: {what} callback failed:\n{traceback.format_exc()}", file=sys.stderr, flush=True)

    return callback


def order_event(state: Any, event: Any) -> dict[str, Any]:
    return {"state": state.name, "body": to_json(dict(event.items()) if hasattr(event, "items") else dict(event))}


def install_event(api: Any, wire: Wire) -> None:
    """Before login: the SDK accepts only this callback on a session that is not logged in."""
    api.set_event_callback(_guarded("event", lambda resp_code, event_code, info, event: wire.event(
        "session", {"resp_code": resp_code, "event_code": event_code, "info": str(info), "event": str(event)})))


def install(api: Any, wire: Wire) -> None:
    """After login (the SDK refuses these before it with 'Not authenticated')."""
    api.set_order_callback(_guarded("order", lambda state, event: wire.event("order", order_event(state, event))))
    for family, setter in QUOTE_SETTERS.items():
        getattr(api, setter)(_quote_callback(wire, family), bind=False)
    for family, (setter, payload) in ANALYTICS_SETTERS.items():
        getattr(api, setter)(_analytics_callback(wire, family, payload), bind=False)
    api.set_on_scanner_callback(_guarded("scanner", lambda event: wire.event(
        "quote", {"name": "scanner", "data": scanner_payload(event)})), bind=False)
    api.set_session_down_callback(_guarded("session_down", lambda: wire.event("session_down", {})))


def _quote_callback(wire: Wire, family: str) -> Callable[..., None]:
    return _guarded(family, lambda quote: wire.event("quote", {"name": family, "data": quote_payload(family, quote)}))


def _analytics_callback(wire: Wire, family: str, payload: Callable[[Any], dict[str, Any]]) -> Callable[..., None]:
    return _guarded(family, lambda event: wire.event("quote", {"name": family, "data": payload(event)}))
