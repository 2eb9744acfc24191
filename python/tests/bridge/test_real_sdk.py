"""The sidecar with the REAL sj.Shioaji, on the failure paths that stay on this machine: a malformed key is refused
by the SDK itself; a well-formed one is sent to SJ_ADMIN_SOLACE_HOST, a closed local port (never SinoPac)."""

from __future__ import annotations

from .helpers import Sidecar, safe_env

WELL_FORMED_SECRET = "3" + "1" * 43


def test_malformed_key_is_a_login_error_with_the_sdks_message() -> None:
    sidecar = Sidecar(safe_env())
    assert "scripted" not in sidecar.hello and sidecar.hello["sdk"] == "1.7.9"
    error = sidecar.call("login", {"api_key": "0123456789ab", "secret_key": "short"})["error"]
    assert error["kind"] == "login" and "secret_key" in error["message"] and "API key page" in error["hint"]
    assert sidecar.call("trades", {})["error"]["kind"] == "not_logged_in"
    assert sidecar.close() == 0


def test_unreachable_sinopac_is_a_connection_error_with_a_hint() -> None:
    env = safe_env()
    assert env["SJ_ADMIN_SOLACE_HOST"].startswith("127.0.0.1:")
    sidecar = Sidecar(env)
    request_id = sidecar.send("login", {"api_key": "0123456789ab", "secret_key": WELL_FORMED_SECRET})
    assert sidecar.result("ping") == {"sdk": "1.7.9"}  # answered while login waits on the network
    error = sidecar.reply(request_id, timeout=15)["error"]
    assert error["kind"] == "connection" and error["message"] == "login: connection error"
    assert "maintenance" in error["hint"]
    assert sidecar.close() == 0
