"""SDK objects to the gateway's JSON.

The generic converter (`to_json`, used for `call` answers) writes numbers as the REST answers do: Decimal → float;
enums → their value; datetime, date and time → ISO 8601 text. Streamed quotes keep decimal strings (quotes.py),
and Trade JSON follows the gateway's shapes (epoch seconds, see trades.py)."""

from __future__ import annotations

import datetime as dt
import enum
import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

MAX_DEPTH = 12


def enum_value(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    inner = getattr(value, "value", None)
    if isinstance(inner, (str, int)):
        return inner
    return str(value)


def _is_sdk_enum(value: Any) -> bool:
    return (
        not hasattr(value, "keys")
        and isinstance(getattr(value, "value", None), (str, int))
        and type(value).__module__ in ("builtins", "shioaji")
    )


def _public_fields(value: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for name in dir(value):
        if name.startswith("_"):
            continue
        try:
            attribute = getattr(value, name)
        except Exception:
            continue
        if not callable(attribute):
            fields[name] = attribute
    return fields


def _scalar(value: Any) -> tuple[bool, Any]:
    if isinstance(value, enum.Enum):
        return True, value.value
    if value is None or isinstance(value, (bool, int, str)):
        return True, value
    if isinstance(value, float):
        return True, value if math.isfinite(value) else None
    if isinstance(value, Decimal):
        return True, float(value) if value.is_finite() else None
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return True, value.isoformat()
    if isinstance(value, enum.Enum) or _is_sdk_enum(value):
        return True, enum_value(value)
    return False, None


def to_json(value: Any, depth: int = 0) -> Any:
    done, scalar = _scalar(value)
    if done:
        return scalar
    if depth > MAX_DEPTH:
        return str(value)
    if isinstance(value, Mapping) or (callable(getattr(value, "keys", None)) and hasattr(value, "__getitem__")):
        return {str(key): to_json(value[key], depth + 1) for key in value.keys()}
    if isinstance(value, (list, tuple, set, frozenset)) or (hasattr(value, "__len__") and hasattr(value, "__iter__")):
        return [to_json(item, depth + 1) for item in value]
    return {key: to_json(item, depth + 1) for key, item in _public_fields(value).items()}


def account_json(account: Any) -> dict[str, Any] | None:
    if account is None:
        return None
    return {
        "account_type": enum_value(getattr(account, "account_type", None)),
        "person_id": getattr(account, "person_id", "") or "",
        "broker_id": getattr(account, "broker_id", "") or "",
        "account_id": getattr(account, "account_id", "") or "",
        "signed": bool(getattr(account, "signed", False)),
        "username": getattr(account, "username", "") or "",
    }


def epoch_seconds(value: dt.datetime | None) -> float:
    if value is None:
        return 0.0
    return value.timestamp()


def number(value: Any) -> float | int:
    if value is None:
        return 0
    if isinstance(value, Decimal):
        return float(value)
    return value


def text(value: Any) -> str:
    return "" if value is None else str(enum_value(value))
