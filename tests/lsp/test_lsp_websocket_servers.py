"""`mfls serve --ws` in process: the server of a connection that ends is freed, index and
log handler with it, while another connection goes on."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import weakref
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from mfls.lsp import websocket
from mfls.lsp.confinement import CourseRoot
from mfls.lsp.handshake import DEFAULT_ORIGINS
from mfls.lsp.logs import LOGGER_NAME, ClientLogHandler
from mfls.lsp.server import MflsServer

TOKEN = "in-process-token"


async def send(ws: ClientConnection, message: dict[str, Any]) -> None:
    await ws.send(json.dumps({"jsonrpc": "2.0", **message}))


async def until(ws: ClientConnection, test: Any) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if "method" in message and "id" in message:
            error = {"code": -32601, "message": "method not implemented"}
            await send(ws, {"id": message["id"], "error": error})
        elif test(message):
            return message


async def session(url: str, lesson: Path) -> ClientConnection:
    """A client that has initialized and got the diagnostics of `lesson`."""
    ws = await connect(url)
    params = {"processId": None, "rootUri": None, "capabilities": {}}
    await send(ws, {"id": 1, "method": "initialize", "params": params})
    await until(ws, lambda m: m.get("id") == 1)
    await send(ws, {"method": "initialized", "params": {}})
    document = {"uri": lesson.as_uri(), "languageId": "markdown", "version": 1}
    opened = {"textDocument": {**document, "text": lesson.read_text()}}
    await send(ws, {"method": "textDocument/didOpen", "params": opened})
    await until(
        ws,
        lambda m: (
            m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == lesson.as_uri()
            and m["params"]["diagnostics"]
        ),
    )
    return ws


def client_log_handlers() -> int:
    handlers = logging.getLogger(LOGGER_NAME).handlers
    return sum(isinstance(h, ClientLogHandler) for h in handlers)


async def test_the_server_of_a_connection_gone_is_freed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.md").write_text("# A\n\n?[{{name}}...Your name]\n")
    lesson = tmp_path / "b.md"
    lesson.write_text("# B\n\nHello {{name}} and {{nope}}.\n")
    built: list[weakref.ref[MflsServer]] = []
    create = websocket.create_server

    def tracked() -> MflsServer:
        server = create()
        built.append(weakref.ref(server))
        return server

    monkeypatch.setattr(websocket, "create_server", tracked)
    handlers_before = client_log_handlers()
    connections = websocket.Connections(CourseRoot(str(tmp_path)), TOKEN, DEFAULT_ORIGINS, 1 << 20)
    stop: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    urls: list[str] = []
    serving = asyncio.create_task(
        websocket.serve_until(connections, "127.0.0.1", 0, urls.append, stop)
    )
    try:
        while not urls:
            await asyncio.sleep(0.01)
        staying = await session(urls[0], lesson)
        for _ in range(5):
            leaving = await session(urls[0], lesson)
            await leaving.close()
        for _ in range(100):
            if len(connections.servers) == 1:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)
        gc.collect()
        alive = [ref() for ref in built if ref() is not None]
        assert len(built) == 6
        assert alive == list(connections.servers.values())
        del alive
        assert client_log_handlers() == handlers_before + 1
        # The one left is served as before.
        await send(staying, {"id": 9, "method": "workspace/symbol", "params": {"query": "name"}})
        answer = await until(staying, lambda m: m.get("id") == 9)
        assert [s["name"] for s in answer["result"]] == ["name"]
        await staying.close()
    finally:
        stop.set_result(None)
        await serving
    assert connections.servers == {}
    assert client_log_handlers() == handlers_before


class StuckTransport:
    """The socket's write buffer: what was sent stays in it, never read."""

    def __init__(self) -> None:
        self.buffered = 0

    def get_write_buffer_size(self) -> int:
        return self.buffered

    def resume_reading(self) -> None:
        pass


class StuckSocket:
    """A connection whose client reads nothing: a send stays in the write buffer and
    never completes."""

    def __init__(self) -> None:
        self.closed_with: int | None = None
        self.transport = StuckTransport()
        self.deaf = False
        self._never = asyncio.Event()

    async def send(self, text: str) -> None:
        self.transport.buffered += len(text.encode())
        await self._never.wait()

    def stop_reading(self) -> None:
        self.deaf = True

    def buffered(self) -> int:
        return self.transport.get_write_buffer_size()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed_with = code


async def test_a_client_that_reads_nothing_is_closed_at_the_byte_budget() -> None:
    ws = StuckSocket()
    frames = websocket.TextFrames(ws, asyncio.get_running_loop(), budget=100_000)  # type: ignore[arg-type]
    message = b'{"n": "%s"}' % (b"x" * 991)  # 1,000 bytes
    for _ in range(99):
        frames.write(message)
    await asyncio.sleep(0.05)
    assert ws.closed_with is None and not frames.closed
    assert frames.unsent() == 99_000  # one in the socket's buffer, 98 queued
    frames.write(message)
    frames.write(message)
    await asyncio.sleep(0.05)
    assert ws.closed_with == 1008
    assert frames.closed and frames.sender.cancelled()
    assert ws.deaf  # what the client sends now is dropped unread
    assert frames.unsent() == 1_000  # the queue is dropped; the buffer is the socket's


async def test_one_answer_larger_than_the_budget_goes_to_a_client_that_reads() -> None:
    ws = StuckSocket()
    frames = websocket.TextFrames(ws, asyncio.get_running_loop(), budget=100_000)  # type: ignore[arg-type]
    frames.write(b'"%s"' % (b"x" * 500_000))
    await asyncio.sleep(0.05)
    assert not frames.closed and frames.unsent() == 500_002
    frames.write(b"{}")  # more, while it is unread: over the budget
    await asyncio.sleep(0.05)
    assert ws.closed_with == 1008


async def test_closing_over_the_budget_logs_once_even_to_its_own_full_queue() -> None:
    """The warning goes to the client's log, that is to the very queue that is full:
    logged before the queue was marked closed, it recursed (RecursionError)."""
    ws = StuckSocket()
    frames = websocket.TextFrames(ws, asyncio.get_running_loop(), budget=100_000)  # type: ignore[arg-type]
    sent: list[str] = []

    def to_client(kind: object, text: str) -> None:
        sent.append(text)
        frames.write(json.dumps({"method": "window/logMessage", "text": text}).encode())

    handler = ClientLogHandler(to_client)  # type: ignore[arg-type]
    logger = logging.getLogger(LOGGER_NAME)
    logger.addHandler(handler)
    try:
        for _ in range(300):
            frames.write(b"[%s]" % (b"0" * 998))
        await asyncio.sleep(0.05)
    finally:
        logger.removeHandler(handler)
    assert ws.closed_with == 1008
    assert len([line for line in sent if "closing its connection" in line]) == 1
