"""The real sjgate daemon for the API tests: `node dist/cli/main.js server start --foreground` on a free port of
127.0.0.1, with a temporary data home, in simulation, stopped when the tests end."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

REPO = Path(__file__).resolve().parents[2]
CLI = REPO / "dist" / "cli" / "main.js"
START_TIMEOUT_S = 60
STOP_TIMEOUT_S = 15


@dataclass(frozen=True)
class Gateway:
    base_url: str
    home: Path
    log: Path

    def log_tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def daemon_env(home: Path, port: int) -> dict[str, str]:
    # Nothing of the caller's SJ_* settings reaches the daemon: no credentials, never production.
    env = {key: value for key, value in os.environ.items() if not key.startswith("SJ_")}
    env.update(
        SJ_HOME_PATH=str(home),
        SJ_HTTP_ADDR=f"127.0.0.1:{port}",
        SJ_PRODUCTION="false",
        SJ_SIM_SEED="1",
        # The fuzzer sends thousands of requests a minute; production's call-rate limits would answer most with 429.
        SJ_SIM_LIMITS="off",
        SJ_RESTORE_SUBSCRIPTIONS="off",
    )
    return env


@pytest.fixture(scope="session")
def gateway(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Gateway]:
    if not CLI.exists():
        pytest.fail(f"{CLI} is missing: build the gateway first (npm run build)")
    home = tmp_path_factory.mktemp("sjgate-home")
    port = free_port()
    log = home / "daemon.log"
    base_url = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        # cwd is the data home, so a .env file of the checkout is not read
        daemon = subprocess.Popen(
            ["node", str(CLI), "server", "start", "--foreground"],
            cwd=home,
            env=daemon_env(home, port),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    gateway = Gateway(base_url=base_url, home=home, log=log)
    try:
        wait_healthy(daemon, gateway)
        yield gateway
    finally:
        stop(daemon)


def wait_healthy(daemon: subprocess.Popen[bytes], gateway: Gateway) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if daemon.poll() is not None:
            pytest.fail(f"the daemon exited with {daemon.returncode} before it was ready:\n{gateway.log_tail()}")
        try:
            if requests.get(f"{gateway.base_url}/api/v1/health", timeout=2).ok:
                return
        except requests.RequestException:
            pass
        time.sleep(0.2)
    pytest.fail(f"the daemon was not healthy within {START_TIMEOUT_S} s:\n{gateway.log_tail()}")


def stop(daemon: subprocess.Popen[bytes]) -> None:
    if daemon.poll() is not None:
        return
    daemon.send_signal(signal.SIGTERM)
    try:
        daemon.wait(STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        daemon.kill()
        daemon.wait()
