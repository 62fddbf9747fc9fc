"""`Worker`: where the server's work off the event loop runs, and the way back to the loop.

One background thread (`logs.ContextThreads`: work runs in a copy of the context that
asked for it, so its log records are on behalf of the same socket connection) runs
initial indexing, disk changes, DISK handlers, the re-read of a closed document and the
appends of rename records, in the order they were asked for. Built `inline` (the
synchronous mode of `mfls.lsp.sync`), there is no thread: work runs at once, on the loop.
Work cancelled while it waits for the thread never runs (`run`). Messages from the
thread reach the loop through `loop.call_soon_threadsafe` (`from_thread`). The worker is
also the publisher's clock (`call_later`, `call_soon`: the loop's).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from mfls.lsp.logs import LOGGER_NAME, ContextThreads, in_this_context

log = logging.getLogger(LOGGER_NAME)


class Worker:
    def __init__(self, inline: bool) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        """The server's event loop, once `initialize` has run."""
        self._pool = (
            None if inline else ContextThreads(max_workers=1, thread_name_prefix="mfls-index")
        )

    @property
    def inline(self) -> bool:
        """Built for the synchronous mode: no thread (`mfls.lsp.sync`)."""
        return self._pool is None

    async def run(self, work: Callable[[], Any]) -> Any:
        """`work()` on the thread (after the work queued before it). Cancelled while it
        waits there (`$/cancelRequest` cancels the asyncio task awaiting it, which
        cancels the future it waits on at once), it never runs: the thread looks at that
        future before it starts."""
        if self._pool is None:
            return work()
        loop = self.loop
        assert loop is not None
        waiting: asyncio.Future[Any] = loop.create_future()

        def unless_cancelled() -> None:
            if waiting.cancelled():
                log.debug("cancelled before it started on the worker")
                return
            error: BaseException | None = None
            result = None
            try:
                result = work()
            except BaseException as failure:
                error = failure
            if not loop.is_closed():
                loop.call_soon_threadsafe(_settle, waiting, result, error)

        self._pool.submit(unless_cancelled)
        return await waiting

    def submit(self, work: Callable[[], Any]) -> Future[Any] | None:
        """`work()` queued on the thread; None when there is none (inline, or stopped at
        shutdown): the caller runs it itself."""
        if self._pool is None:
            return None
        try:
            return self._pool.submit(work)
        except RuntimeError:  # the thread has stopped (shutdown)
            return None

    def in_background(self, work: Callable[[], None], then: Callable[[], None], what: str) -> None:
        """`work()` on the thread (here without one), then `then()` on the loop; a failure
        is logged as the failure of `what`."""
        done = self.submit(work)
        if done is not None:
            done.add_done_callback(in_this_context(lambda f: self._finished(f, then, what)))
            return
        try:
            work()
        except Exception:
            log.exception("%s failed", what)
        then()

    def _finished(self, done: Future[None], then: Callable[[], None], what: str) -> None:
        if done.cancelled():  # shutdown
            return
        if done.exception() is not None:
            log.error("%s failed", what, exc_info=done.exception())
        self.from_thread(then)

    def from_thread(self, callback: Callable[..., Any], *args: Any) -> None:
        """Run `callback(*args)` on the event loop, from any thread."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if _running_loop() is loop:
            callback(*args)
        else:
            loop.call_soon_threadsafe(callback, *args)

    def after_answer(self, callback: Callable[..., Any], *args: Any) -> None:
        """Run `callback(*args)` on the event loop once the request being handled (on
        the loop) has been answered: pygls sends a synchronous handler's answer before
        the loop runs anything else."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon(callback, *args)

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Any:
        assert self.loop is not None
        return self.loop.call_later(delay, callback, *args)

    def call_soon(self, callback: Callable[..., Any], *args: Any) -> Any:
        assert self.loop is not None
        return self.loop.call_soon(callback, *args)

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


def _settle(waiting: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if waiting.done():  # cancelled while it ran: its answer is dropped
        return
    if error is not None:
        waiting.set_exception(error)
    else:
        waiting.set_result(result)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
