"""An event loop for `SyncServer` where the host owns time: no I/O, no threads, and a
clock that moves only when the loop would wait.

Under Pyodide `asyncio.new_event_loop()` gives the WebLoop, whose `run_until_complete`
needs WebAssembly stack switching, which a Web Worker may not have. `SteppedLoop` is
CPython's base event loop with nothing to select on: where it would block on its selector
until the next timer, it moves its clock to that timer at once. So `advance(seconds)`
runs the timers of those seconds without waiting, and the host decides when to call it
(the playground's worker calls it after `next_timer()` seconds of real time).
"""

from __future__ import annotations

import asyncio
from typing import Any


class SteppedLoop(asyncio.BaseEventLoop):
    """A base event loop whose clock is its own and whose selector never blocks."""

    def __init__(self) -> None:
        super().__init__()
        self._now = 0.0
        self._selector = _NoSelector(self)

    def time(self) -> float:
        return self._now

    def step(self, seconds: float) -> None:
        """Moves the clock forward (what a selector waiting `seconds` would do)."""
        self._now += max(0.0, seconds)

    def run_until_complete(self, future: Any) -> Any:
        """Runs `future` to its end, also inside a host's own running loop (Pyodide's
        WebLoop counts as running for every Python call from JavaScript)."""
        outer = asyncio._get_running_loop()
        asyncio._set_running_loop(None)
        try:
            return super().run_until_complete(future)
        finally:
            asyncio._set_running_loop(outer)

    def _process_events(self, event_list: list[Any]) -> None:
        pass

    def _write_to_self(self) -> None:
        pass


class _NoSelector:
    """Stands where the selector is: nothing to read, the wait turned into a clock step."""

    def __init__(self, loop: SteppedLoop) -> None:
        self._loop = loop

    def select(self, timeout: float | None) -> list[Any]:
        if timeout is None:
            raise RuntimeError("the stepped loop would wait forever: nothing ready, no timer")
        self._loop.step(timeout)
        return []

    def close(self) -> None:
        pass
