"""`python -m sjgate_bridge serve | doctor [--json]`."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sjgate_bridge")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("serve", help="run the sidecar: NDJSON requests on stdin, replies and events on stdout")
    doctor = commands.add_parser("doctor", help="check this machine for production trading")
    doctor.add_argument("--json", action="store_true", help="print {ok, checks} as JSON")
    args = parser.parse_args(argv)
    if args.command == "serve":
        from .server import serve

        return serve()
    from .doctor import run

    return run(as_json=args.json)


if __name__ == "__main__":
    sys.exit(main())
