"""Running the sidecar as a subprocess, never towards the real network."""

from __future__ import annotations

import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

PYTHON = sys.executable
SRC = Path(__file__).resolve().parents[2] / "src"


def closed_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def safe_env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("SJ_", "SJGATE_"))}
    env["SJ_ADMIN_SOLACE_HOST"] = f"127.0.0.1:{closed_port()}"
    env["PYTHONPATH"] = str(SRC)
    env.update(extra)
    return env


class Sidecar:
    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [PYTHON, "-m", "sjgate_bridge", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env=env, text=True, encoding="utf-8",
        )
        self.lines: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.replies: dict[int, list[dict[str, Any]]] = {}
        self.events: list[dict[str, Any]] = []
        self.stderr: list[str] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()
        self.hello = self._next(10)

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(json.loads(line))
        self.lines.put(None)

    def _next(self, timeout: float) -> dict[str, Any] | None:
        return self.lines.get(timeout=timeout)

    def _pump(self, timeout: float) -> bool:
        try:
            message = self._next(timeout)
        except queue.Empty:
            return False
        if message is None:
            return False
        if message["type"] == "reply":
            self.replies.setdefault(message["id"], []).append(message)
        else:
            self.events.append(message)
        return True

    def send_raw(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def send(self, method: str, params: dict[str, Any] | None = None) -> int:
        self.next_id += 1
        message = {"type": "request", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send_raw(json.dumps(message))
        return self.next_id

    def reply(self, request_id: int | None, timeout: float = 10) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while request_id not in self.replies:
            if time.monotonic() > deadline or not self._pump(max(0.01, deadline - time.monotonic())):
                raise AssertionError(f"no reply to {request_id}; stderr: {''.join(self.stderr)[-2000:]}")
        return self.replies[request_id][0]

    def call(self, method: str, params: dict[str, Any] | None = None, timeout: float = 10) -> dict[str, Any]:
        return self.reply(self.send(method, params), timeout)

    def result(self, method: str, params: dict[str, Any] | None = None) -> Any:
        answer = self.call(method, params)
        assert "result" in answer, answer
        return answer["result"]

    def wait_event(self, predicate: Any, timeout: float = 5) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for event in self.events[seen:]:
                if predicate(event):
                    return event
            seen = len(self.events)
            if time.monotonic() > deadline:
                raise AssertionError(f"no such event among {len(self.events)}")
            self._pump(0.05)

    def drain(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self._pump(0.02)

    def close(self, timeout: float = 10) -> int:
        if self.process.stdin and not self.process.stdin.closed:
            self.process.stdin.close()
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        while self._pump(0.05):
            pass
        return code


def scripted_env(tmp_path: Path, scenario: dict[str, Any]) -> dict[str, str]:
    scenario.setdefault("state_path", str(tmp_path / "state.json"))
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario))
    return safe_env(SJGATE_BRIDGE_SCRIPT=str(path))
