"""Before any test: the build under test is the one the runner asked for, and the tests
that must run alone are marked.

`scripts/run-tests.sh` sets `MFLS_EXPECT_BUILD` to `compiled` or `pure` for each of
its two runs; a run that would test the other build stops before its first test.

`scripts/run-tests.sh` runs the tests on two workers (pytest-xdist, `--dist loadgroup`),
then the ones marked `alone`, one at a time on a machine left to them: those measure time
or memory (every test of `tests/perf`; elsewhere a test says it with
`@pytest.mark.alone`), each on a frozen heap (`tests/heap.py`). The real-editor tests
(`tests/editors`) are one group: they run on one worker, one editor at a time.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.heap import frozen_heap

ALONE_FOLDERS = ("perf",)
EDITORS = pytest.mark.xdist_group("editors")


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


@pytest.hookimpl(tryfirst=True)  # before `-m` chooses by the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tests = Path(__file__).parent
    for item in items:
        folder = item.path.relative_to(tests).parts[0] if item.path.is_relative_to(tests) else ""
        if folder in ALONE_FOLDERS:
            item.add_marker(pytest.mark.alone)
        elif folder == "editors":
            item.add_marker(EDITORS)


@pytest.fixture(autouse=True)
def _frozen_heap_when_alone(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test marked `alone` times code: what earlier tests left alive stays out of it."""
    if request.node.get_closest_marker("alone") is None:
        yield
        return
    with frozen_heap():
        yield
