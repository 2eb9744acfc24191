"""The Python side of sjgate. The bridge to the official Shioaji SDK will live here; for now the package only
carries the test dependencies (see pyproject.toml) of the tests under python/tests."""
