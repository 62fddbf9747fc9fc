"""Feature tests run on in-memory courses (`tests.kit.course`): none may touch the file system.

Every test here is set up and run under `tests.kit.course.no_disk`: the calls that open, list
or inspect files fail the test, so a test that writes a course to disk (or a feature
that reads one) is caught at once.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.kit.course import no_disk


# Only around setting up and running each test: reporting a failure reads source files.
@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    with no_disk():
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    with no_disk():
        return (yield)
