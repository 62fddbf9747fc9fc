"""The one `wait_until` of the suite: poll a condition until it holds or a deadline passes.

`wait_until` is for asyncio tests (it yields to the event loop between polls, so a
client's reader can take the answer it waits for) and fails the test when time is up;
`holds_within` is its blocking form for threads and child processes, returning whether
the condition came true."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

TIMEOUT = 30.0
INTERVAL = 0.02


async def wait_until(
    condition: Callable[[], object], timeout: float = TIMEOUT, *, what: str = "the server"
) -> None:
    """Return once `condition()` is true; an AssertionError after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(INTERVAL)


def holds_within(
    condition: Callable[[], object], timeout: float = TIMEOUT, interval: float = INTERVAL
) -> bool:
    """Whether `condition()` became true within `timeout` seconds (polled, blocking)."""
    deadline = time.monotonic() + timeout
    while True:
        if condition():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(interval)
