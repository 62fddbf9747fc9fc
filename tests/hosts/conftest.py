"""Fixtures of the SDK tests: the markdown-flow releases as oracles (runtimes.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from runtimes import InProcess, Runtime, Worker, python_03


@pytest.fixture(scope="session")
def mf04() -> Runtime:
    return InProcess()


@pytest.fixture(scope="session")
def mf03() -> Iterator[Runtime]:
    worker = Worker(python_03())
    assert worker.ask("version") == "0.3.1"
    yield worker
    worker.close()


@pytest.fixture(scope="session", params=["markdown-flow-0.4", "markdown-flow-0.3"])
def runtime(request: pytest.FixtureRequest) -> Runtime:
    name = "mf04" if request.param == "markdown-flow-0.4" else "mf03"
    found: Runtime = request.getfixturevalue(name)
    return found
