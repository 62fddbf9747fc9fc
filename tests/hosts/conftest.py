"""Fixtures of the SDK tests: the markdown-flow releases as oracles (runtimes.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from runtimes import InProcess, Runtime, Worker, python_of


@pytest.fixture(scope="session")
def mf04() -> Runtime:
    return InProcess()


def _worker(target: str, release: str) -> Iterator[Runtime]:
    worker = Worker(target, release, python_of(release))
    assert worker.ask("version") == release
    yield worker
    worker.close()


@pytest.fixture(scope="session")
def mf03() -> Iterator[Runtime]:
    yield from _worker("markdown-flow-0.3", "0.3.1")


@pytest.fixture(scope="session")
def mf034() -> Iterator[Runtime]:
    yield from _worker("markdown-flow-0.3.4", "0.3.4")


@pytest.fixture(scope="session", params=["mf03", "mf034"])
def mf03x(request: pytest.FixtureRequest) -> Runtime:
    """markdown-flow 0.3.1 and 0.3.4: the same marker reader."""
    found: Runtime = request.getfixturevalue(request.param)
    return found


FIXTURES = {
    "markdown-flow-0.4": "mf04",
    "markdown-flow-0.3": "mf03",
    "markdown-flow-0.3.4": "mf034",
}


@pytest.fixture(scope="session", params=list(FIXTURES))
def runtime(request: pytest.FixtureRequest) -> Runtime:
    found: Runtime = request.getfixturevalue(FIXTURES[request.param])
    return found
