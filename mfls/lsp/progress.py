"""`IndexingProgress`: work-done progress of an indexing (`$/progress`), when the client
takes it: a token asked for first (given up on after `CLIENT_TIMEOUT`), a report every
`PROGRESS_EVERY` files (sent from the worker through the loop), an end."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from typing import Any

from lsprotocol import types as t

from mfls.lsp.logs import LOGGER_NAME

log = logging.getLogger(LOGGER_NAME)

PROGRESS_EVERY = 200  # files between two `$/progress` reports
CLIENT_TIMEOUT = 10.0  # seconds to wait for the client's answer to a server request


class IndexingProgress:
    def __init__(self, work_done: Any, from_thread: Callable[..., None]) -> None:
        """`work_done`: pygls's `work_done_progress` of the server."""
        self._work_done = work_done
        self._from_thread = from_thread
        self._token: str | None = None
        self._last = 0

    async def begin(self, title: str, wanted: bool) -> None:
        """Ask for a token and begin, when the client takes progress (`wanted`)."""
        if not wanted:
            return
        token = f"mfls-index-{uuid.uuid4()}"
        try:
            await asyncio.wait_for(self._work_done.create_async(token), CLIENT_TIMEOUT)
        except Exception:
            log.warning("the client refused a progress token; indexing without progress")
            return
        self._token = token
        begin = t.WorkDoneProgressBegin(title=title, percentage=0, cancellable=False)
        self._work_done.begin(token, begin)

    def report(self, done: int, total: int) -> None:
        """`done` of `total` files read (from the worker)."""
        token = self._token
        if token is None or (done - self._last < PROGRESS_EVERY and done < total):
            return
        self._last = done
        percentage = int(done * 100 / total) if total else 100
        report = t.WorkDoneProgressReport(message=f"{done}/{total} files", percentage=percentage)
        self._from_thread(self._work_done.report, token, report)

    def end(self) -> None:
        if self._token is not None:
            self._work_done.end(self._token, t.WorkDoneProgressEnd(message="indexed"))
