#!/bin/sh
# The Python side of the tests (the bridge's tests, Schemathesis, the official shioaji CLI) runs in python/.venv with
# the versions pinned in python/pyproject.toml. Creates and fills it when it is missing; without python3 and its venv
# module it says so and leaves the Python tests to be skipped (CI installs both first and requires them).
set -eu
cd "$(dirname "$0")/.."
if [ -x python/.venv/bin/pytest ] && [ -x python/.venv/bin/shioaji ]; then exit 0; fi
if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  echo "python-env: python3 with venv is missing, so the Python tests will be skipped (Debian: apt-get install python3-venv)" >&2
  exit 0
fi
echo "python-env: installing python[test] into python/.venv (once)" >&2
[ -x python/.venv/bin/python ] || python3 -m venv python/.venv
python/.venv/bin/pip install --quiet --disable-pip-version-check -e 'python[test]'
