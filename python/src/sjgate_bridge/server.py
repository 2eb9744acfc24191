"""`serve`: the hello line, then requests from stdin. `ping` is answered at once; every other request runs in
order on one worker thread, so a slow SDK call never holds up a ping."""

from __future__ import annotations

import json
import os
import platform
import queue
import sys
import threading
from typing import Any, TextIO

from . import BRIDGE_VERSION, PROTOCOL_VERSION
from .bridge import Bridge
from .errors import BridgeError, from_exception, protocol_error
from .sdk import SCRIPT_ENV, Sdk, load_sdk
from .wire import Wire

MAX_LINE = 16 * 1024 * 1024


def hello(sdk: Sdk) -> dict[str, Any]:
    message: dict[str, Any] = {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "bridge": BRIDGE_VERSION,
        "sdk": sdk.version,
        "python": platform.python_version(),
        "pid": os.getpid(),
    }
    if sdk.error:
        message["sdk_error"] = sdk.error
    if sdk.scripted:
        message["scripted"] = True
    return message


def parse_request(line: str) -> tuple[int, str, dict[str, Any]]:
    try:
        message = json.loads(line)
    except json.JSONDecodeError as exc:
        raise protocol_error(f"not JSON: {exc}") from exc
    if not isinstance(message, dict):
        raise protocol_error("a request is a JSON object")
    request_id = message.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, int) or request_id <= 0:
        raise protocol_error("id must be a positive integer")
    if message.get("type") != "request":
        raise _with_id(request_id, protocol_error("type must be 'request'"))
    method = message.get("method")
    params = message.get("params", {})
    if not isinstance(method, str):
        raise _with_id(request_id, protocol_error("method must be a string"))
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise _with_id(request_id, protocol_error("params must be an object"))
    return request_id, method, params


class _RequestError(Exception):
    def __init__(self, request_id: int, error: BridgeError) -> None:
        super().__init__(error.message)
        self.request_id = request_id
        self.error = error


def _with_id(request_id: int, error: BridgeError) -> _RequestError:
    return _RequestError(request_id, error)


def _request_id_of(line: str) -> int | None:
    try:
        request_id = json.loads(line).get("id")
    except Exception:
        return None
    return request_id if isinstance(request_id, int) and not isinstance(request_id, bool) else None


class Server:
    def __init__(self, sdk: Sdk, wire: Wire) -> None:
        self.wire = wire
        self.bridge = Bridge(sdk, wire)
        self.queue: queue.Queue[tuple[int, str, dict[str, Any]] | None] = queue.Queue()
        self.worker = threading.Thread(target=self._work, name="sjgate-bridge-worker", daemon=True)

    def answer(self, request_id: int, method: str, params: dict[str, Any]) -> None:
        try:
            result = self.bridge.handle(method, params)
        except BridgeError as error:
            self.wire.reply_error(request_id, error.to_json())
        except Exception as exc:
            self.wire.reply_error(request_id, from_exception(exc, method).to_json())
        else:
            try:
                self.wire.reply(request_id, result)
            except (TypeError, ValueError) as exc:
                message = f"the SDK's answer cannot be written as JSON: {exc}"
                self.wire.reply_error(request_id, BridgeError("protocol", message).to_json())

    def _work(self) -> None:
        while (item := self.queue.get()) is not None:
            self.answer(*item)

    def accept(self, line: str) -> None:
        if not line.strip():
            return
        try:
            request_id, method, params = parse_request(line)
        except _RequestError as failure:
            self.wire.reply_error(failure.request_id, failure.error.to_json())
            return
        except BridgeError as error:
            self.wire.reply_error(_request_id_of(line), error.to_json())
            return
        if method == "ping":
            self.answer(request_id, method, params)
        else:
            self.queue.put((request_id, method, params))

    def run(self, stdin: TextIO) -> None:
        self.worker.start()
        for line in stdin:
            if len(line) > MAX_LINE:
                print("sjgate_bridge: a request line is longer than 16 MiB", file=sys.stderr, flush=True)
                break
            self.accept(line)
        self.queue.put(None)
        self.worker.join()
        self.bridge.shutdown()


def _protocol_stdout() -> TextIO:
    """The NDJSON stream on a private copy of fd 1; fd 1 itself (print, the SDK's native code) goes to stderr."""
    sys.stdout.flush()
    stream = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return stream


def serve() -> int:
    stdout = _protocol_stdout()
    wire = Wire(stdout)
    sdk = load_sdk()
    if sdk.scripted:
        print(f"sjgate_bridge: WARNING: scripted SinoPac session ({SCRIPT_ENV}), not the real SDK", file=sys.stderr, flush=True)
    wire.send(hello(sdk))
    Server(sdk, wire).run(sys.stdin)
    stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # the SDK's own threads must not keep a finished sidecar alive
