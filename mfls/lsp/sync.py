"""The synchronous mode of the front end: one message in, its answers out.

`SyncServer` is the same server (`routes.create_server`, every route and failure policy)
built `inline`: no stdin thread (the host hands over each message), no thread pool
(indexing runs inline, in the handler that asks for it), no worker processes (the
workspace scans with one job whatever its size). It is meant for a host without threads,
such as a Web Worker under Pyodide, which would otherwise drive pygls's
`protocol.handle_message` itself.

The server owns an event loop that runs only inside `handle` and `advance`:

- `handle(message)` takes one JSON-RPC message (text), runs it and everything it makes
  ready (a coroutine handler up to its first wait for the client, a publishing round that
  is due) and returns the messages the server sent meanwhile, JSON texts in order.
- A request the server sends the client (`workspace/configuration`, a progress token, a
  registration) waits for the client's answer, which comes through a later `handle`.
- What waits on a timer (the debounce of pushed diagnostics, `diagnostics.delay`; the code
  lens refresh; the bound of a wait for the client) runs when the host calls
  `advance(seconds)`; `next_timer()` says how long until the earliest one.
- The `exit` notification ends it: `exit_code` is set and the loop closed.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from mfls.disk import Disk
from mfls.lsp.logs import LOGGER_NAME
from mfls.lsp.routes import create_server
from mfls.lsp.server import MflsServer

log = logging.getLogger(LOGGER_NAME)


class _Outbox:
    """The protocol's writer: collects each message sent (bodies, no headers)."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def write(self, data: bytes) -> None:
        self.sent.append(data.decode("utf-8"))

    def close(self) -> None:
        pass


class SyncServer:
    """The front end driven one message at a time; see the module docstring."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop | None = None, disk: Disk | None = None
    ) -> None:
        """`loop`: the loop run inside `handle` and `advance` (a new one when None);
        `disk`: the file tree the workspace reads (the real file system when None)."""
        self.server: MflsServer = create_server(inline=True, disk=disk)
        self._outbox = _Outbox()
        self.server.protocol.set_writer(self._outbox, include_headers=False)
        self._loop = loop or asyncio.new_event_loop()
        self.exit_code: int | None = None

    def handle(self, message: str | bytes) -> list[str]:
        """Run one message (a JSON-RPC body) and what it makes ready; the messages sent."""
        body = message.encode("utf-8") if isinstance(message, str) else message
        if self.exit_code is not None:
            log.warning("a message after exit; ignored")
            return []
        return self._run(self._receive(body))

    def handle_json(self, message: dict[str, Any]) -> list[dict[str, Any]]:
        """`handle` for a message as a JSON object; the messages sent as objects."""
        return [json.loads(text) for text in self.handle(json.dumps(message))]

    def advance(self, seconds: float = 0.0) -> list[str]:
        """Let `seconds` pass (on the loop's clock), running the timers that fall due and
        what they make ready; the messages sent."""
        if self.exit_code is not None:
            return []
        return self._run(asyncio.sleep(max(0.0, seconds)))

    def next_timer(self) -> float | None:
        """Seconds until the earliest timer waiting (0 when due), or None."""
        if self.exit_code is not None:
            return None
        whens = [h.when() for h in _scheduled(self._loop) if not h.cancelled()]
        return max(0.0, min(whens) - self._loop.time()) if whens else None

    async def _receive(self, body: bytes) -> None:
        self.server.protocol.receive_body(body)

    def _run(self, work: Any) -> list[str]:
        try:
            self._loop.run_until_complete(self._settled(work))
        except SystemExit as end:  # the `exit` notification
            self.exit_code = end.code if isinstance(end.code, int) else 0
            self.server.stop_worker()
            self._loop.close()
        sent, self._outbox.sent = self._outbox.sent, []
        return sent

    async def _settled(self, work: Any) -> None:
        """`work`, then turns of the loop until nothing is ready nor due: each handler has
        run until it waits for the client or for a timer still in the future."""
        await work
        while True:
            await asyncio.sleep(0)
            if not _ready(self._loop) and not self._due():
                return

    def _due(self) -> bool:
        now = self._loop.time()
        return any(h.when() <= now for h in _scheduled(self._loop) if not h.cancelled())


def _ready(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether callbacks wait for the next turn of `loop` (CPython's base event loop)."""
    return bool(getattr(loop, "_ready", ()))


def _scheduled(loop: asyncio.AbstractEventLoop) -> list[asyncio.TimerHandle]:
    """The timers of `loop` (CPython's base event loop)."""
    return list(getattr(loop, "_scheduled", ()))
