"""Every test here times code: it runs on a frozen heap (`tests.heap`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.heap import frozen_heap


@pytest.fixture(autouse=True)
def _frozen_heap() -> Iterator[None]:
    with frozen_heap():
        yield
