"""`mfls serve --ws`: the language server over WebSocket, for editors in a web page.

pygls's `start_ws` is not used: it sends binary frames, shares one protocol object
among all connections and stops the whole server when one connection ends. Here:
- each connection that passes the handshake (`mfls.lsp.handshake`) gets a server of its
  own (`routes.create_server()`), and loses it when it ends: its indexing worker and
  thread pool are stopped, its log handler removed; the other connections go on;
- each JSON-RPC message is one text frame both ways (a binary frame from the client is
  read as UTF-8 too); a message over `max_message_bytes` closes the connection (1009);
- what a client leaves unread (answers and notifications queued, and the socket's write
  buffer, where websockets writes its pongs itself) is bounded in bytes: past
  `max_unsent_bytes` the connection is closed (1008), with one log line, and nothing
  more it sends is answered (`TextFrames`, `ws_connection.ReadWatched`); at most
  `max_connections` are served at once, one more is refused (503);
- a connection's log lines go to its client only (`logs.CONNECTION`);
- every message goes through `confinement.CourseRoot.screen` first: the course root is
  the one of the command line whatever the client says, and nothing outside it is read.
All connections share one event loop: a long request of one delays the others, as two
requests of one client would.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import json
import logging
import signal
from collections.abc import Callable, Sequence
from http import HTTPStatus
from typing import TYPE_CHECKING

from pygls.protocol import LanguageServerProtocol

from mfls.lsp.confinement import CourseRoot
from mfls.lsp.handshake import refusal
from mfls.lsp.logs import CONNECTION, LOGGER_NAME
from mfls.lsp.routes import create_server
from mfls.lsp.server import MflsServer

if TYPE_CHECKING:
    from websockets.asyncio.server import ServerConnection
    from websockets.http11 import Request, Response

    from mfls.lsp.ws_connection import ReadWatched

log = logging.getLogger(LOGGER_NAME)


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


MAX_UNSENT_BYTES = 8 * 1024 * 1024
"""What a client may leave unread, in bytes (`--max-unsent-bytes`): the messages queued
for it and the socket's write buffer (pongs included). Past it, the connection closes."""

SENT_REGARDLESS = 64 * 1024
"""While no more than this is unread, a message is queued whatever its size: an answer
larger than the budget still reaches a client that reads."""

MAX_CONNECTIONS = 16
"""Connections served at once (`--max-connections`); one more is refused (HTTP 503)."""

CLOSE_TIMEOUT = 10.0
"""Seconds a closing handshake may take before the socket is dropped."""


class TextFrames:
    """The protocol's writer for one connection: each message out as one text frame, in
    order (one sending task), from the loop or from a thread.

    What the client has not read is counted in bytes: the messages queued here and the
    socket's write buffer, where a frame goes whole and websockets writes its automatic
    pongs (`check` runs after each read). Past `budget`, the connection is closed (1008)
    rather than buffered without end: the queue is dropped, what the client sends is
    dropped unread, and the socket is dropped if the close frame does not get through."""

    def __init__(
        self,
        ws: ReadWatched,
        loop: asyncio.AbstractEventLoop,
        budget: int = MAX_UNSENT_BYTES,
    ) -> None:
        self._ws = ws
        self._loop = loop
        self.budget = budget
        self._queue: asyncio.Queue[tuple[str, int] | None] = asyncio.Queue()
        self._queued = 0  # bytes
        self.closed = False
        self.sender = loop.create_task(self._send_all())
        self._closing: asyncio.Task[None] | None = None

    def write(self, data: bytes) -> None:
        if not self.closed:
            self._put((data.decode("utf-8"), len(data)))

    def close(self) -> None:
        """The `exit` notification: send what is queued, then close the socket."""
        if not self.closed:
            self._put(None)

    def unsent(self) -> int:
        """Bytes waiting for the client: queued here, or in the socket's write buffer."""
        return self._queued + self._ws.buffered()

    def check(self) -> None:
        """After a read from the client: the pongs it caused count too."""
        if not self.closed and self.unsent() > self.budget:
            self._give_up(self.unsent())

    def _put(self, item: tuple[str, int] | None) -> None:
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is self._loop:
            self._enqueue(item)
        elif not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._enqueue, item)

    def _enqueue(self, item: tuple[str, int] | None) -> None:
        if self.closed:
            return
        if item is not None:
            unsent = self.unsent()
            if unsent > SENT_REGARDLESS and unsent + item[1] > self.budget:
                self._give_up(unsent + item[1])
                return
            self._queued += item[1]
        self._queue.put_nowait(item)

    def _give_up(self, unsent: int) -> None:
        # Closed before logging: the line goes to this client's log, that is, here.
        self.closed = True
        self.sender.cancel()
        self._queue = asyncio.Queue()
        self._queued = 0
        self._ws.stop_reading()
        log.warning(
            "the client has left %d bytes unread, over the budget of %d; closing its connection",
            unsent,
            self.budget,
        )
        self._closing = self._loop.create_task(self._close(1008, "too much left unread"))

    async def _close(self, code: int, reason: str) -> None:
        try:
            await asyncio.wait_for(self._ws.close(code=code, reason=reason), CLOSE_TIMEOUT)
        except asyncio.TimeoutError:  # the client reads nothing, not even the close frame
            self._ws.transport.abort()

    async def _send_all(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while (item := await self._queue.get()) is not None:
                text, size = item
                self._queued -= size  # written whole to the socket's buffer, then counted there
                await self._ws.send(text)
            await self._ws.close()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True


class Connections:
    """The handshake check and the life of each connection."""

    def __init__(
        self,
        root: CourseRoot,
        token: str,
        origins: Sequence[str],
        max_message_bytes: int,
        max_unsent_bytes: int = MAX_UNSENT_BYTES,
        max_connections: int = MAX_CONNECTIONS,
    ) -> None:
        self.root = root
        self.token = token
        self.origins = tuple(origins)
        self.max_message_bytes = max_message_bytes
        self.max_unsent_bytes = max_unsent_bytes
        self.max_connections = max_connections
        self.servers: dict[int, MflsServer] = {}
        self._senders: set[asyncio.Task[None]] = set()  # the loop keeps tasks weakly
        self._ids = itertools.count(1)

    def check(self, ws: ServerConnection, request: Request) -> Response | None:
        why = self.refusal(request)
        if why is None:
            return None
        status, text = why
        CONNECTION.set(0)  # no client's connection: the line goes to stderr only
        log.warning("refused a connection: %s", text.strip())
        return ws.respond(status, text)

    def refusal(self, request: Request) -> tuple[HTTPStatus, str] | None:
        """Why the handshake `request` is refused (status, text), or None. The headers
        read here must be there once (websockets checks the others, answering 400)."""
        for name in ("Host", "Origin"):
            if len(request.headers.get_all(name)) > 1:
                return HTTPStatus.BAD_REQUEST, f"more than one {name} header\n"
        if "Host" not in request.headers:
            return HTTPStatus.BAD_REQUEST, "no Host header\n"
        why = refusal(request.path, request.headers.get("Origin"), self.token, self.origins)
        if why is None and len(self.servers) >= self.max_connections:
            return (
                HTTPStatus.SERVICE_UNAVAILABLE,
                f"{len(self.servers)} connections already (--max-connections)\n",
            )
        return why

    async def serve(self, ws: ServerConnection) -> None:
        from websockets.exceptions import ConnectionClosed

        from mfls.lsp.ws_connection import ReadWatched

        assert isinstance(ws, ReadWatched)  # `serve_until` makes them so
        connection = next(self._ids)
        CONNECTION.set(connection)
        if len(self.servers) >= self.max_connections:  # handshakes passed `check` together
            log.warning("refused connection %d: %d open already", connection, len(self.servers))
            await ws.close(code=1013, reason="too many connections")
            return
        server = create_server()
        server.connection = connection
        self.servers[connection] = server
        frames = TextFrames(ws, asyncio.get_running_loop(), self.max_unsent_bytes)
        ws.after_read = frames.check
        self._senders.add(frames.sender)
        frames.sender.add_done_callback(self._senders.discard)
        server.protocol.set_writer(frames, include_headers=False)
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
                # Let the handlers' tasks run between two messages, as if read one by one.
                await asyncio.sleep(0)
                if frames.closed:  # over its budget: nothing more is read
                    await ws.wait_closed()
                    break
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
        server.stop_logging()
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
    max_unsent_bytes: int = MAX_UNSENT_BYTES,
    max_connections: int = MAX_CONNECTIONS,
) -> int:
    """Serve until SIGINT or SIGTERM; `announce` gets the URL to connect to, once bound."""
    require_websockets()
    connections = Connections(
        CourseRoot(root), token, origins, max_message_bytes, max_unsent_bytes, max_connections
    )
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

    from mfls.lsp.ws_connection import ReadWatched

    async with serve(
        connections.serve,
        host,
        port,
        process_request=connections.check,
        max_size=connections.max_message_bytes,
        server_header=None,
        create_connection=ReadWatched,
        close_timeout=CLOSE_TIMEOUT,
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
