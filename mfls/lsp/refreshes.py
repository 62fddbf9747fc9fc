"""`Refreshes`: the server's requests that the client ask again: code lenses and inlay
hints (`workspace/codeLens/refresh`, `workspace/inlayHint/refresh`, once after the changes
pause: they count reads in other documents too, and a setting may have turned hints
off), and pulled diagnostics after re-indexing (`workspace/diagnostic/refresh`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from lsprotocol import types as t

from mfls.lsp.state import ServerState
from mfls.lsp.worker import Worker

LENS_REFRESH_DELAY = 0.3  # seconds of quiet before code lenses are refreshed


class Refreshes:
    def __init__(
        self,
        state: Callable[[], ServerState],
        worker: Worker,
        send_request: Callable[[str, Any], Any],
    ) -> None:
        self._state = state
        self._worker = worker
        self._send = send_request
        self._lens_refresh: asyncio.TimerHandle | None = None

    def schedule_lenses(self) -> None:
        """On the loop: (re)arm the timer of the lens and hint refresh."""
        if self._lens_refresh is not None:
            self._lens_refresh.cancel()
        delay = max(self._state().settings.diagnostic_delay, LENS_REFRESH_DELAY)
        self._lens_refresh = self._worker.call_later(delay, self._refresh_lenses)

    def _refresh_lenses(self) -> None:
        self._lens_refresh = None
        caps = self._state().caps
        if caps.code_lens_refresh:
            self._send(t.WORKSPACE_CODE_LENS_REFRESH, None)
        if caps.inlay_hint_refresh:
            self._send(t.WORKSPACE_INLAY_HINT_REFRESH, None)

    def pull(self) -> None:
        self._send(t.WORKSPACE_DIAGNOSTIC_REFRESH, None)
