"""Error replies: the protocol's error kinds, and how the SDK's exceptions map onto them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

HINT_CLOCK = (
    "The clock of this machine is off from SinoPac's: sync it (timedatectl set-ntp true, or ntpdate/chrony), "
    "or raise receive_window."
)
HINT_CONNECTION = (
    "SinoPac is unreachable: check this machine's network and firewall (outbound TCP to SinoPac's servers), "
    "and SinoPac's maintenance hours."
)
HINT_KEYS = "The API keys are wrong: copy them again from SinoPac's API key page (SJ_API_KEY, SJ_SEC_KEY)."
HINT_LOGIN_FIRST = "Log in first."
HINT_CA = "Check SJ_CA_PATH, the CA password and the person id the certificate belongs to."
HINT_TIMEOUT = "SinoPac did not answer in time: try again; if it persists, check the network."


@dataclass
class BridgeError(Exception):
    kind: str
    message: str
    hint: str | None = None

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"kind": self.kind, "message": self.message}
        if self.hint:
            error["hint"] = self.hint
        return error


def protocol_error(message: str) -> BridgeError:
    return BridgeError("protocol", message)


def invalid(message: str) -> BridgeError:
    return BridgeError("invalid", message)


def not_found(message: str) -> BridgeError:
    return BridgeError("not_found", message)


def not_logged_in() -> BridgeError:
    return BridgeError("not_logged_in", "Not logged in", HINT_LOGIN_FIRST)


def _names(exc: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(exc).__mro__}


def _hint_from_message(message: str) -> str | None:
    lowered = message.lower()
    if "sign data is timeout" in lowered or "receive_window" in lowered:
        return HINT_CLOCK
    if "secret_key" in lowered or "api_key" in lowered or "invalid key" in lowered:
        return HINT_KEYS
    return None


def from_exception(exc: BaseException, during: str | None = None) -> BridgeError:
    """Maps an SDK (or scripted session) exception to an error reply; `during` is the method being run."""
    if isinstance(exc, BridgeError):
        return exc
    message = str(exc) or type(exc).__name__
    names = _names(exc)
    hint = _hint_from_message(message)
    if "not logged in" in message.lower() or "not authenticated" in message.lower():
        return BridgeError("not_logged_in", message, HINT_LOGIN_FIRST)
    if "ShioajiConnectionError" in names:
        return BridgeError("connection", message, HINT_CONNECTION)
    if "ShioajiTimeoutError" in names or "MarketDataQueryTimeoutError" in names:
        return BridgeError("timeout", message, hint or HINT_TIMEOUT)
    if "CaError" in names or during == "activate_ca":
        return BridgeError("ca", message, hint or HINT_CA)
    if during == "login" and names & {"ShioajiValueError", "AuthError", "ShioajiPermissionError", "TokenError"}:
        return BridgeError("login", message, hint or HINT_KEYS)
    if hint == HINT_CLOCK:
        return BridgeError("login" if during == "login" else "sdk", message, hint)
    if names & {"ShioajiPermissionError", "AccountNotSignError"}:
        return BridgeError("login", message, "The account is not signed or not permitted: check it on SinoPac's site.")
    if names & {"ShioajiValueError", "ShioajiTypeError", "ValidationError", "AccountNotProvideError"}:
        return BridgeError("invalid", message, hint)
    if isinstance(exc, (AttributeError, TypeError)):
        # An SDK method missing, or called or read the wrong way: the bridge's bug, not the client's.
        return BridgeError("protocol", f"{type(exc).__name__}: {message}", hint)
    if isinstance(exc, ValueError):
        return BridgeError("invalid", message, hint)
    return BridgeError("sdk", message, hint)
