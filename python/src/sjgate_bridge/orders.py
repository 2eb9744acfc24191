"""REST order bodies to the SDK's own order objects (sj.StockOrder, sj.FuturesOrder, sj.ComboOrder), which
validate every value: what they refuse is an `invalid` request."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Iterable

from .errors import BridgeError, invalid

ACCOUNT_TYPE_OF_KIND = {"stock": "S", "futures": "F"}
OCTYPE_ALIASES = {"NewPosition": "New"}


def _require(body: dict[str, Any], *names: str) -> None:
    missing = [name for name in names if body.get(name) is None]
    if missing:
        raise invalid(f"order: missing {', '.join(missing)}")


def _number(body: dict[str, Any], name: str, kind: type) -> Any:
    value = body.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise invalid(f"order: {name} must be a number, got {value!r}")
    if kind is int and value != int(value):
        raise invalid(f"order: {name} must be a whole number, got {value!r}")
    return kind(value)


def _account_type(account: Any) -> str | None:
    kind = getattr(account, "account_type", None)
    return getattr(kind, "value", kind)


def select_account(accounts: Iterable[Any], selector: dict[str, Any] | None, kind: str) -> Any | None:
    """The account a selector names among the logged-in accounts; None (the SDK's default) when none is named."""
    wanted = dict(selector or {})
    wanted.setdefault("account_type", ACCOUNT_TYPE_OF_KIND.get(kind))
    candidates = list(accounts)
    for account in candidates:
        if _account_type(account) != wanted["account_type"]:
            continue
        if all(getattr(account, key, None) == wanted[key] for key in ("broker_id", "account_id", "person_id") if wanted.get(key)):
            return account
    if selector:
        raise invalid(f"no logged-in account matches {selector}")
    return None


def _build(factory: Any, what: str, **fields: Any) -> Any:
    try:
        return factory(**{key: value for key, value in fields.items() if value is not None})
    except BridgeError:
        raise
    except Exception as exc:  # the SDK's validation: ShioajiValueError, TypeError, ...
        raise BridgeError("invalid", f"{what}: {exc}") from exc


def stock_order(sj: ModuleType, body: dict[str, Any], account: Any | None) -> Any:
    _require(body, "action", "price", "quantity", "price_type")
    return _build(
        sj.StockOrder,
        "stock_order",
        action=body["action"],
        price=_number(body, "price", float),
        quantity=_number(body, "quantity", int),
        price_type=body["price_type"],
        time_in_force=body.get("order_type") or "ROD",
        order_lot=body.get("order_lot") or "Common",
        order_cond=body.get("order_cond") or "Cash",
        daytrade_short=bool(body.get("daytrade_short", False)),
        custom_field=body.get("custom_field") or None,
        account=account,
    )


def octype(body: dict[str, Any]) -> str:
    value = body.get("octype") or "Auto"
    return OCTYPE_ALIASES.get(value, value)


def _futures_fields(body: dict[str, Any], account: Any | None) -> dict[str, Any]:
    """The fields a futures order and a combo order share."""
    _require(body, "action", "price", "quantity", "price_type")
    return {
        "action": body["action"],
        "price": _number(body, "price", float),
        "quantity": _number(body, "quantity", int),
        "price_type": body["price_type"],
        "time_in_force": body.get("order_type") or "ROD",
        "octype": octype(body),
        "custom_field": body.get("custom_field") or None,
        "account": account,
    }


def futures_order(sj: ModuleType, body: dict[str, Any], account: Any | None) -> Any:
    return _build(sj.FuturesOrder, "futures_order", **_futures_fields(body, account))


def combo_order(sj: ModuleType, body: dict[str, Any], account: Any | None) -> Any:
    return _build(sj.ComboOrder, "combo_order", combo_type=body.get("combo_type"), **_futures_fields(body, account))


def combo_contract(sj: ModuleType, legs: list[dict[str, Any]], resolve: Any) -> Any:
    if not isinstance(legs, list) or len(legs) != 2:
        raise invalid("a combo has exactly two legs")
    bases = []
    for leg in legs:
        if not isinstance(leg, dict) or not leg.get("code") or not leg.get("action"):
            raise invalid("each combo leg needs code and action")
        contract = resolve(leg)
        bases.append(_combo_base(sj, contract, leg))
    return _build(sj.ComboContract, "combo", legs=bases)


def _combo_base(sj: ModuleType, contract: Any, leg: dict[str, Any]) -> Any:
    def value(name: str) -> Any:
        raw = getattr(contract, name, None)
        return getattr(raw, "value", raw)

    return _build(
        sj.ComboBase,
        "combo leg",
        action=leg["action"],
        security_type=value("security_type"),
        exchange=value("exchange"),
        code=contract.code,
        delivery_month=value("delivery_month"),
        strike_price=value("strike_price"),
        option_right=value("option_right"),
        target_code=value("target_code"),
        root=value("root") or value("category"),
    )
