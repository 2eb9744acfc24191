"""The reading half of Schemathesis's stateless run (see test_api_schemathesis.py): market data, the portfolio and
the monitor. A file of its own so that the test runner (scripts/run-tests.mjs) runs it in a pytest process of its own,
against a daemon of its own, beside the other half: the stateless run is the long part of the Python tests.
"""

from __future__ import annotations

from pathlib import Path

from conftest import Gateway
from test_api_schemathesis import READ_OPERATIONS, operations_matching, run_stateless


def test_every_read_operation_answers_as_documented(gateway: Gateway, tmp_path: Path) -> None:
    result = run_stateless(gateway, tmp_path, "--include-path-regex", READ_OPERATIONS)
    operations = result["report"]["operations"]
    assert operations["selected"] == operations_matching(gateway, READ_OPERATIONS) > 0, operations
