"""The NDJSON framing: one JSON object per line on stdout, written whole under one lock."""

from __future__ import annotations

import json
import threading
from typing import Any, TextIO


class Wire:
    def __init__(self, out: TextIO) -> None:
        self._out = out
        self._lock = threading.Lock()

    @staticmethod
    def encode(message: dict[str, Any]) -> str:
        return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)

    def send(self, message: dict[str, Any]) -> None:
        line = self.encode(message)
        with self._lock:
            self._out.write(line + "\n")
            self._out.flush()

    def reply(self, request_id: int, result: Any) -> None:
        self.send({"type": "reply", "id": request_id, "result": result})

    def reply_error(self, request_id: int | None, error: dict[str, Any]) -> None:
        self.send({"type": "reply", "id": request_id, "error": error})

    def event(self, name: str, data: dict[str, Any]) -> None:
        self.send({"type": "event", "event": name, "data": data})
