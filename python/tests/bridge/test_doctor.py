"""doctor against local targets only: closed ports and a local HTTP server for the clock."""

from __future__ import annotations

import email.utils
import http.server
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .helpers import closed_port, safe_env

SECRET = "3" + "1" * 43


class SkewedDate(http.server.BaseHTTPRequestHandler):
    skew_s = 0.0

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.end_headers()

    def date_time_string(self, timestamp: float | None = None) -> str:
        return email.utils.formatdate(time.time() + self.skew_s, usegmt=True)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def time_server() -> Iterator[http.server.HTTPServer]:
    server = http.server.HTTPServer(("127.0.0.1", 0), SkewedDate)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()


def doctor(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sjgate_bridge", "doctor", *args], env=env, capture_output=True,
                          text=True, timeout=30)


def ready_env(tmp_path: Path, time_url: str, solace: str) -> dict[str, str]:
    ca = tmp_path / "Sinopac.pfx"
    ca.write_bytes(b"\x30\x82pfx")
    return safe_env(SJ_API_KEY="0123456789abcdef", SJ_SEC_KEY=SECRET, SJ_CA_PATH=str(ca), SJ_CA_PASSWD="A123456789",
                    SJGATE_DOCTOR_TIME_URL=time_url, SJGATE_DOCTOR_SOLACE_HOSTS=solace)


def checks(result: subprocess.CompletedProcess[str]) -> dict[str, dict]:
    return {check["name"]: check for check in json.loads(result.stdout)["checks"]}


def test_all_checks_pass_on_a_ready_machine(tmp_path: Path, time_server: http.server.HTTPServer) -> None:
    port = time_server.server_address[1]
    result = doctor(ready_env(tmp_path, f"http://127.0.0.1:{port}/", f"127.0.0.1:{closed_port()},127.0.0.1:{port}"), "--json")
    assert result.returncode == 0, result.stdout
    report = json.loads(result.stdout)
    assert report["ok"] is True
    assert all(set(check) >= {"name", "ok", "detail", "fix"} for check in report["checks"])
    assert checks(result)["ca_password"]["detail"].startswith("checked at login")


def test_failures_exit_1_with_fixes(tmp_path: Path, time_server: http.server.HTTPServer) -> None:
    SkewedDate.skew_s = 120.0
    try:
        env = ready_env(tmp_path, f"http://127.0.0.1:{time_server.server_address[1]}/", f"127.0.0.1:{closed_port()}")
        env.update(SJ_SEC_KEY="notbase58!", SJ_CA_PATH=str(tmp_path / "missing.pfx"))
        result = doctor(env, "--json")
    finally:
        SkewedDate.skew_s = 0.0
    assert result.returncode == 1
    found = checks(result)
    for name in ("secret_key", "ca_file", "clock", "sinopac_reachable"):
        assert found[name]["ok"] is False and found[name]["fix"], name
    assert "timedatectl" in found["clock"]["fix"]
    human = doctor(env)
    assert human.returncode == 1 and "✗ secret_key" in human.stdout and "fix:" in human.stdout


def test_unreachable_time_server_is_skipped(tmp_path: Path) -> None:
    env = ready_env(tmp_path, f"http://127.0.0.1:{closed_port()}/", f"127.0.0.1:{closed_port()}")
    clock = checks(doctor(env, "--json"))["clock"]
    assert clock["ok"] is True and clock["detail"].startswith("skipped")
