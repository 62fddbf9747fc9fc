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


class StuckSocket:
    """A connection whose client reads nothing: a send never completes."""

    def __init__(self) -> None:
        self.closed_with: int | None = None
        self._never = asyncio.Event()

    async def send(self, text: str) -> None:
        await self._never.wait()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.closed_with = code


async def test_a_client_that_reads_nothing_is_closed_not_buffered_without_end() -> None:
    ws = StuckSocket()
    frames = websocket.TextFrames(ws, asyncio.get_running_loop())
    for n in range(websocket.MAX_UNSENT):
        frames.write(b'{"n": %d}' % n)
    await asyncio.sleep(0.05)
    assert ws.closed_with is None and not frames.closed
    for n in range(3):
        frames.write(b'{"more": %d}' % n)
    await asyncio.sleep(0.05)
    assert ws.closed_with == 1008
    assert frames.closed and frames.sender.cancelled()
