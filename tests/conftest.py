"""Before any test: the build under test is the one the runner asked for.

`scripts/run-tests.sh` sets `MFLS_EXPECT_BUILD` to `compiled` or `pure` for each of
its two runs; a run that would test the other build stops before its first test.
"""

from __future__ import annotations

import os

import pytest


def pytest_configure(config: pytest.Config) -> None:
    expected = os.environ.get("MFLS_EXPECT_BUILD")
    if not expected:
        return
    from mfls import build

    running = build.running()
    wanted = {"compiled": build.COMPILED, "pure": build.PURE}.get(expected)
    if running != wanted:
        raise pytest.UsageError(
            f"MFLS_EXPECT_BUILD={expected}, but this run would test {build.describe()}"
        )
