"""Reading request params: a missing or mistyped param is a `protocol` error (the daemon sent a wrong request)."""

from __future__ import annotations

from typing import Any

from .errors import protocol_error

_MISSING = object()


def get(params: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any = _MISSING) -> Any:
    value = params.get(name, _MISSING)
    if value is _MISSING or value is None:
        if default is _MISSING:
            raise protocol_error(f"params.{name} is required")
        return default
    if isinstance(value, bool) and kind in (int, float, (int, float)):
        raise protocol_error(f"params.{name} must be {_name(kind)}")
    if not isinstance(value, kind):
        raise protocol_error(f"params.{name} must be {_name(kind)}, got {type(value).__name__}")
    return value


def _name(kind: type | tuple[type, ...]) -> str:
    if isinstance(kind, tuple):
        return " or ".join(k.__name__ for k in kind)
    return kind.__name__
