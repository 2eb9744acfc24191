"""Loading the SDK: the real `shioaji`, or the scripted session when SJGATE_BRIDGE_SCRIPT names a scenario."""

from __future__ import annotations

import os
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable

SCRIPT_ENV = "SJGATE_BRIDGE_SCRIPT"


@dataclass
class Sdk:
    module: ModuleType | None
    version: str | None
    error: str | None
    make_api: Callable[..., Any] | None
    scripted: bool = False


def load_sdk() -> Sdk:
    try:
        import shioaji as sj
    except Exception as exc:  # an SDK broken in any way must still let the sidecar start and say why
        return Sdk(None, None, f"{type(exc).__name__}: {exc}", None)
    version = getattr(sj, "__version__", None)
    script = os.environ.get(SCRIPT_ENV)
    if script:
        from .scripted import ScriptedShioaji, load_scenario

        scenario = load_scenario(script)
        return Sdk(sj, version, None, lambda **kw: ScriptedShioaji(scenario=scenario, **kw), scripted=True)
    return Sdk(sj, version, None, sj.Shioaji)
