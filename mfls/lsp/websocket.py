"""`mfls serve --ws`: the language server over WebSocket, for editors in a web page.

pygls's `start_ws` is not used: it sends binary frames, shares one protocol object
among all connections and stops the whole server when one connection ends. Here:
- each connection that passes the handshake (`mfls.lsp.handshake`) gets a server of its
  own (`routes.create_server()`), and loses it when it ends: its indexing worker and
  thread pool are stopped, its log handler removed; the other connections go on;
- each JSON-RPC message is one text frame both ways (a binary frame from the client is
  read as UTF-8 too); a message over `max_message_bytes` closes the connection (1009);
- every message goes through `confinement.CourseRoot.screen` first: the course root is
  the one of the command line whatever the client says, and nothing outside it is read.
All connections share one event loop: a long request of one delays the others, as two
requests of one client would.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import gc
import itertools
import json
import logging
import signal
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from pygls.protocol import LanguageServerProtocol

from mfls.lsp.confinement import CourseRoot
from mfls.lsp.handshake import refusal
from mfls.lsp.logs import LOGGER_NAME, ClientLogHandler
from mfls.lsp.routes import create_server
from mfls.lsp.server import MflsServer

if TYPE_CHECKING:
    from websockets.asyncio.server import ServerConnection
    from websockets.http11 import Request, Response

log = logging.getLogger(LOGGER_NAME)

_CONNECTION: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "mfls_ws_connection", default=None
)
"""The connection whose messages run in this context (set in its handler's task)."""


class MissingWebsockets(RuntimeError):
    pass


def require_websockets() -> None:
    try:
        import websockets.asyncio.server  # noqa: F401
    except ImportError as error:
        raise MissingWebsockets(
            "mfls serve --ws needs the websockets package: install mfls with its ws extra "
            "(pip install 'mfls[ws]', or '/path/to/mfls[ws]' from a checkout) or run "
            "pip install websockets"
        ) from error


MAX_UNSENT = 4096
"""Messages waiting for a client that reads none: past this, its connection is closed."""


class TextFrames:
    """The protocol's writer for one connection: each message out as one text frame, in
    order (one sending task), from the loop or from a thread. A client that leaves more
    than MAX_UNSENT messages unread is closed (1008) rather than buffered without end."""

    def __init__(self, ws: ServerConnection, loop: asyncio.AbstractEventLoop) -> None:
        self._ws = ws
        self._loop = loop
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.sender = loop.create_task(self._send_all())
        self._closing: asyncio.Task[None] | None = None

    def write(self, data: bytes) -> None:
        if not self.closed:
            self._put(data.decode("utf-8"))

    def close(self) -> None:
        """The `exit` notification: send what is queued, then close the socket."""
        if not self.closed:
            self._put(None)

    def _put(self, item: str | None) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            self._enqueue(item)
        elif not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._enqueue, item)

    def _enqueue(self, item: str | None) -> None:
        if self.closed:
            return
        if item is not None and self._queue.qsize() >= MAX_UNSENT:
            log.warning("the client has left %d messages unread; closing it", MAX_UNSENT)
            self.closed = True
            self.sender.cancel()
            self._closing = self._loop.create_task(
                self._ws.close(code=1008, reason="too many messages unread")
            )
            return
        self._queue.put_nowait(item)

    async def _send_all(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while (text := await self._queue.get()) is not None:
                await self._ws.send(text)
            await self._ws.close()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True


class _ThisConnection(logging.Filter):
    """Lets through the records of one connection, and those of no connection (the
    indexing workers' threads), so a client is not sent another client's log."""

    def __init__(self, connection: int) -> None:
        super().__init__()
        self.connection = connection

    def filter(self, record: logging.LogRecord) -> bool:
        return _CONNECTION.get() in (None, self.connection)


def _log_handlers(server: MflsServer) -> list[ClientLogHandler]:
    """The handlers `initialize` added to the mfls logger for `server`'s client."""
    return [
        h
        for h in logging.getLogger(LOGGER_NAME).handlers
        if isinstance(h, ClientLogHandler) and getattr(h, "_send", None) == server.client_log
    ]


class Connections:
    """The handshake check and the life of each connection."""

    def __init__(
        self, root: CourseRoot, token: str, origins: Sequence[str], max_message_bytes: int
    ) -> None:
        self.root = root
        self.token = token
        self.origins = tuple(origins)
        self.max_message_bytes = max_message_bytes
        self.servers: dict[int, MflsServer] = {}
        self._senders: set[asyncio.Task[None]] = set()  # the loop keeps tasks weakly
        self._ids = itertools.count(1)

    def check(self, ws: ServerConnection, request: Request) -> Response | None:
        why = refusal(request.path, request.headers.get("Origin"), self.token, self.origins)
        if why is None:
            return None
        status, text = why
        _CONNECTION.set(0)  # no client's connection: the line goes to stderr only
        log.warning("refused a connection: %s", text.strip())
        return ws.respond(status, text)

    async def serve(self, ws: ServerConnection) -> None:
        from websockets.exceptions import ConnectionClosed

        connection = next(self._ids)
        _CONNECTION.set(connection)
        server = create_server()
        self.servers[connection] = server
        frames = TextFrames(ws, asyncio.get_running_loop())
        self._senders.add(frames.sender)
        frames.sender.add_done_callback(self._senders.discard)
        server.protocol.set_writer(frames, include_headers=False)
        filtered = False
        try:
            async for message in ws:
                data = message.encode("utf-8") if isinstance(message, str) else message
                screened = self.root.screen(data)
                if screened.reason is not None:
                    log.warning("%s", screened.reason)
                if screened.answer is not None:
                    frames.write(json.dumps(screened.answer).encode("utf-8"))
                if screened.body is not None:
                    try:
                        server.protocol.receive_body(screened.body)
                    except SystemExit:  # the `exit` notification: pygls closed the writer
                        break
                if not filtered:
                    for handler in _log_handlers(server):
                        handler.addFilter(_ThisConnection(connection))
                        filtered = True
                # Let the handlers' tasks run between two messages, as if read one by one.
                await asyncio.sleep(0)
        except ConnectionClosed:
            pass
        finally:
            self._end(connection, server, frames)

    def _end(self, connection: int, server: MflsServer, frames: TextFrames) -> None:
        if not frames.sender.done():
            frames.close()  # what is queued goes out, then the socket closes
        frames.closed = True
        server.stop_worker()
        pool = server._thread_pool
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        for handler in _log_handlers(server):
            logging.getLogger(LOGGER_NAME).removeHandler(handler)
        # pygls caches two lookups per protocol object (`lru_cache` on methods), which
        # would keep this server and its index alive: the others just look them up again.
        LanguageServerProtocol.get_message_type.cache_clear()
        LanguageServerProtocol.get_result_type.cache_clear()
        del self.servers[connection]
        asyncio.get_running_loop().call_soon(_reclaim)
        log.debug("connection %d ended; %d open", connection, len(self.servers))


def _reclaim() -> None:
    """Free a server gone: `MflsServer.settle_heap` froze it (`gc.freeze`), and a frozen
    reference cycle is never collected. One full collection per disconnect."""
    gc.unfreeze()
    gc.collect()


def serve_websocket(
    root: str,
    host: str,
    port: int,
    token: str,
    origins: Sequence[str],
    max_message_bytes: int,
    announce: Callable[[str], None],
) -> int:
    """Serve until SIGINT or SIGTERM; `announce` gets the URL to connect to, once bound."""
    require_websockets()
    connections = Connections(CourseRoot(root), token, origins, max_message_bytes)
    with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C while closing
        asyncio.run(_main(connections, host, port, announce))
    return 0


async def _main(
    connections: Connections, host: str, port: int, announce: Callable[[str], None]
) -> None:
    loop = asyncio.get_running_loop()
    stop: asyncio.Future[None] = loop.create_future()
    for number in (signal.SIGINT, signal.SIGTERM):
        # Not on Windows, nor outside the main thread: Ctrl-C then raises instead.
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(number, _set_once, stop)
    await serve_until(connections, host, port, announce, stop)


async def serve_until(
    connections: Connections,
    host: str,
    port: int,
    announce: Callable[[str], None],
    stop: asyncio.Future[None],
) -> None:
    """Serve on the running loop until `stop` is done, then close every connection."""
    from websockets.asyncio.server import serve

    async with serve(
        connections.serve,
        host,
        port,
        process_request=connections.check,
        max_size=connections.max_message_bytes,
        server_header=None,
    ) as server:
        bound = server.sockets[0].getsockname()
        shown = f"[{bound[0]}]" if ":" in bound[0] else bound[0]
        announce(f"ws://{shown}:{bound[1]}/?token={connections.token}")
        await stop
        server.close()
        await server.wait_closed()


def _set_once(stop: asyncio.Future[None]) -> None:
    if not stop.done():
        stop.set_result(None)
