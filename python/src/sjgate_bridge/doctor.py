"""`doctor`: is this machine ready to trade through SinoPac? Each check is {name, ok, detail, fix}.

The network targets can be overridden (tests point them at 127.0.0.1): SJGATE_DOCTOR_SOLACE_HOSTS (comma-separated
host:port), SJGATE_DOCTOR_TIME_URL; SJ_ADMIN_SOLACE_HOST (the SDK's own override) is honoured too."""

from __future__ import annotations

import email.utils
import json
import os
import socket
import sys
import time
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

SOLACE_HOSTS = ("210.59.255.161:80", "203.66.91.161:80")
TIME_URL = "https://www.sinotrade.com.tw"
TIMEOUT_S = 5.0
MAX_SKEW_S = 5.0
FIX_SETUP = "Run `sjgate setup production`."
BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str | None = None
    required: bool = True


def check_python() -> Check:
    version = ".".join(map(str, sys.version_info[:3]))
    ok = sys.version_info >= (3, 11)
    return Check("python", ok, f"Python {version}", None if ok else "Install Python 3.11 or newer, then " + FIX_SETUP)


def check_sdk() -> Check:
    try:
        import shioaji as sj
    except Exception as exc:
        return Check("shioaji", False, f"shioaji cannot be imported: {exc}", FIX_SETUP)
    version = getattr(sj, "__version__", "unknown")
    ok = str(version).startswith("1.7.")
    return Check("shioaji", ok, f"shioaji {version}", None if ok else f"sjgate needs shioaji 1.7.x. {FIX_SETUP}")


def base58_length(text: str) -> int | None:
    number = 0
    for char in text:
        digit = BASE58.find(char)
        if digit < 0:
            return None
        number = number * 58 + digit
    leading = len(text) - len(text.lstrip("1"))
    return leading + (number.bit_length() + 7) // 8


def check_api_key() -> Check:
    """The SDK's own rule (measured on 1.7.9): at least 10 characters; SinoPac judges the rest at login."""
    value = os.environ.get("SJ_API_KEY", "").strip()
    fix = "Set SJ_API_KEY: copy it again from SinoPac's API key page."
    if not value:
        return Check("api_key", False, "SJ_API_KEY is not set", fix)
    if len(value) < 10:
        return Check("api_key", False, f"SJ_API_KEY is malformed: at least 10 characters, got {len(value)}", fix)
    return Check("api_key", True, f"SJ_API_KEY is set ({len(value)} characters)")


def check_secret_key() -> Check:
    """The SDK's own rule: 32 bytes after base58 decode (decoded here, as the SDK checks it only inside login)."""
    name, env = "secret_key", "SJ_SEC_KEY"
    value = os.environ.get(env, "").strip()
    fix = f"Set {env}: copy it again from SinoPac's API key page."
    if not value:
        return Check(name, False, f"{env} is not set", fix)
    length = base58_length(value)
    if length != 32:
        shown = "not base58" if length is None else f"{length} bytes"
        return Check(name, False, f"{env} is malformed: expected 32 bytes after base58 decode, got {shown}", fix)
    return Check(name, True, f"{env} is well-formed (32 bytes, base58)")


def check_ca_file() -> Check:
    path = os.environ.get("SJ_CA_PATH", "").strip()
    fix = "Set SJ_CA_PATH to the Sinopac.pfx certificate downloaded from SinoPac's eLeader (needed to place orders)."
    if not path:
        return Check("ca_file", False, "SJ_CA_PATH is not set", fix)
    try:
        with Path(path).expanduser().open("rb") as handle:
            size = len(handle.read(1 << 20))
    except OSError as exc:
        return Check("ca_file", False, f"{path} cannot be read: {exc.strerror or exc}", fix)
    return Check("ca_file", size > 0, f"{path} is readable ({size} bytes)", None if size else fix)


def check_ca_password() -> Check:
    if not os.environ.get("SJ_CA_PASSWD"):
        return Check("ca_password", False, "SJ_CA_PASSWD is not set",
                     "Set SJ_CA_PASSWD to the certificate's password (by default the person id).", required=False)
    return Check("ca_password", True, "checked at login: activate_ca needs a SinoPac session, and no PKCS#12 reader "
                 "is installed to check it offline", required=False)


def server_time(url: str) -> float:
    request = urllib.request.Request(url, method="HEAD")
    with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
        header = response.headers.get("Date")
    if not header:
        raise ValueError("no Date header")
    return email.utils.parsedate_to_datetime(header).timestamp()


def check_clock() -> Check:
    url = os.environ.get("SJGATE_DOCTOR_TIME_URL", TIME_URL)
    try:
        before = time.time()
        remote = server_time(url)
        local = (before + time.time()) / 2
    except Exception as exc:
        return Check("clock", True, f"skipped: {url} is unreachable ({exc})", required=False)
    skew = local - remote
    ok = abs(skew) <= MAX_SKEW_S
    fix = None if ok else ("Sync this machine's clock (timedatectl set-ntp true, or chrony/ntpdate): SinoPac refuses "
                           "logins signed too far off ('Sign data is timeout').")
    return Check("clock", ok, f"this clock is {skew:+.1f} s from {url}'s", fix)


def solace_hosts() -> list[str]:
    override = os.environ.get("SJGATE_DOCTOR_SOLACE_HOSTS") or os.environ.get("SJ_ADMIN_SOLACE_HOST")
    if override:
        return [host.strip() for host in override.split(",") if host.strip()]
    return list(SOLACE_HOSTS)


def reachable(address: str) -> str | None:
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=TIMEOUT_S):
            return None
    except (OSError, ValueError) as exc:
        return str(exc) or type(exc).__name__


def check_reachability() -> Check:
    hosts = solace_hosts()
    failures = {host: error for host in hosts if (error := reachable(host)) is not None}
    if len(failures) < len(hosts):
        up = [host for host in hosts if host not in failures]
        return Check("sinopac_reachable", True, f"TCP connect to {', '.join(up)} succeeded")
    detail = "; ".join(f"{host}: {error}" for host, error in failures.items())
    return Check("sinopac_reachable", False, f"no SinoPac server answers ({detail})",
                 "Check the network and firewall (outbound TCP to SinoPac) and SinoPac's maintenance hours.")


CHECKS: tuple[Callable[[], Check], ...] = (
    check_python, check_sdk, check_api_key, check_secret_key,
    check_ca_file, check_ca_password, check_clock, check_reachability,
)


def run_checks() -> list[Check]:
    return [check() for check in CHECKS]


def render(checks: list[Check]) -> str:
    lines = []
    for check in checks:
        lines.append(f"{'✓' if check.ok else '✗'} {check.name}: {check.detail}")
        if not check.ok and check.fix:
            lines.append(f"    fix: {check.fix}")
    return "\n".join(lines)


def run(as_json: bool = False) -> int:
    checks = run_checks()
    ok = all(check.ok for check in checks if check.required)
    if as_json:
        print(json.dumps({"ok": ok, "checks": [asdict(check) for check in checks]}, ensure_ascii=False))
    else:
        print(render(checks))
    return 0 if ok else 1
