"""The clients and the server process of the `mfls serve --ws` tests: `Served` starts the
real process on 127.0.0.1, `Client` speaks LSP as `@codemirror/lsp-client` does, and
`RawClient` is a bare socket that writes frames and reads only when told, as a client
that stops reading does."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.frames import Frame, Opcode

from tests.kit.sockets import receive_until


class Served:
    """`mfls serve --ws 127.0.0.1:0 --root ROOT ...`, its stderr read as it comes."""

    def __init__(self, root: Path, *extra: str) -> None:
        command = [sys.executable, "-m", "mfls", "serve", "--ws", "127.0.0.1:0", "--root"]
        self.process = subprocess.Popen(
            [*command, str(root), *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        assert self.process.stderr is not None
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert " at ws://127.0.0.1:" in line, line + self.stop()
        self.url = line.rsplit(" at ", 1)[1].strip()
        self.base, _, self.token = self.url.partition("?token=")
        self.port = int(self.base.rsplit(":", 1)[1].strip("/"))

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)

    def threads(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/task"))

    def rss(self) -> int:
        """The process's resident memory now, in bytes (VmRSS)."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        kb = next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:"))
        return int(kb) * 1024

    def said(self, text: str) -> int:
        """How many stderr lines so far hold `text`."""
        return sum(text in line for line in list(self.lines))

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._reader.join(timeout=10)
        return "".join(self.lines)


def uri(path: Path) -> str:
    return path.resolve().as_uri()


class Client:
    """A WebSocket LSP client; every frame it gets is kept as it came (`frames`)."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[str | bytes] = []
        self.notes: list[dict[str, Any]] = []
        self._ids = 0

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps({"jsonrpc": "2.0", **message}))

    async def notify(self, method: str, params: Any) -> None:
        await self.send({"method": method, "params": params})

    async def request(self, method: str, params: Any, timeout: float = 20) -> dict[str, Any]:
        self._ids += 1
        wanted = self._ids
        await self.send({"id": wanted, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while True:
            message = await self._next(deadline)
            if message.get("id") == wanted and "method" not in message:
                return message

    async def notification(self, method: str, test: Any, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            for note in self.notes:
                if note["method"] == method and test(note["params"]):
                    return note
            await self._next(deadline)

    async def _next(self, deadline: float) -> dict[str, Any]:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no such message from the server")
        frame = await asyncio.wait_for(self.ws.recv(), left)
        self.frames.append(frame)
        message = json.loads(frame)
        if "method" in message and "id" in message:  # as @codemirror/lsp-client answers
            error = {"code": -32601, "message": "method not implemented"}
            await self.send({"id": message["id"], "error": error})
        elif "method" in message:
            self.notes.append(message)
        return message

    async def drain(self, timeout: float = 10) -> None:
        """Read until the server closes the connection (ConnectionClosed)."""
        deadline = time.monotonic() + timeout
        while True:
            await self._next(deadline)

    async def start(
        self, root_uri: str | None = None, options: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        params: dict[str, Any] = {
            "processId": None,
            "rootUri": root_uri,
            "capabilities": {"textDocument": {"publishDiagnostics": {}}},
        }
        if options is not None:
            params["initializationOptions"] = options
        answer = await self.request("initialize", params)
        await self.notify("initialized", {})
        return answer

    async def open(self, path: Path, text: str | None = None) -> None:
        document = {
            "uri": uri(path),
            "languageId": "markdown",
            "version": 1,
            "text": path.read_text() if text is None else text,
        }
        await self.notify("textDocument/didOpen", {"textDocument": document})

    async def diagnostics(self, path: Path) -> list[dict[str, Any]]:
        note = await self.notification(
            "textDocument/publishDiagnostics",
            lambda p: p["uri"] == uri(path) and p["diagnostics"],
        )
        return list(note["params"]["diagnostics"])

    def logged(self) -> list[str]:
        """The `window/logMessage` lines received so far."""
        return [n["params"]["message"] for n in self.notes if n["method"] == "window/logMessage"]


async def client(served: Served, origin: str | None = None, url: str | None = None) -> Client:
    headers = {"Origin": origin} if origin else None
    ws = await connect(url or served.url, additional_headers=headers, max_size=None)
    return Client(ws)


def handshake(served: Served, headers: list[tuple[str, str]], token: bool = True) -> bytes:
    """The HTTP request of an opening handshake, with `headers` after the usual ones (a
    header named twice is sent twice)."""
    key = base64.b64encode(os.urandom(16)).decode()
    target = f"/?token={served.token}" if token else "/"
    lines = [
        f"GET {target} HTTP/1.1",
        f"Host: 127.0.0.1:{served.port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Version: 13",
        *(f"{name}: {value}" for name, value in headers),
    ]
    if not any(name.lower() == "sec-websocket-key" for name, _ in headers):
        lines.append(f"Sec-WebSocket-Key: {key}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def http_answer(served: Served, request: bytes) -> tuple[str, str]:
    """The status line and body the server answers a raw handshake `request` with."""
    with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
        sock.sendall(request)
        received = receive_until(sock, b"\r\n\r\n")
        head, _, body = received.partition(b"\r\n\r\n")
        if b"101 Switching Protocols" not in head:
            sock.settimeout(2)
            try:
                while chunk := sock.recv(65536):
                    body += chunk
            except TimeoutError:
                pass
    return head.split(b"\r\n", 1)[0].decode("latin-1"), body.decode("utf-8", "replace")


class RawClient:
    """A WebSocket client on a bare socket with a small receive buffer: it sends frames
    and reads nothing until `read_until_closed`, as a client that stops reading."""

    def __init__(self, served: Served, receive_buffer: int = 16384) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", served.port))
        self.sock.sendall(handshake(served, []))
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = self.sock.recv(1)  # byte by byte: no frame is read with the headers
            assert chunk, "the server closed during the handshake"
            received += chunk
        assert received.startswith(b"HTTP/1.1 101"), received
        self._ids = 0
        self._received = bytearray()

    def frame(self, message: dict[str, Any]) -> bytes:
        data = json.dumps({"jsonrpc": "2.0", **message}).encode()
        return Frame(Opcode.TEXT, data).serialize(mask=True, extensions=[])

    def request(self, method: str, params: Any = None) -> bytes:
        self._ids += 1
        return self.frame({"id": self._ids, "method": method, "params": params})

    @staticmethod
    def ping(payload: bytes) -> bytes:
        return Frame(Opcode.PING, payload).serialize(mask=True, extensions=[])

    def send(self, data: bytes, patience: float = 10) -> bool:
        """Write `data`; False when the server stopped reading it for `patience` s."""
        self.sock.settimeout(patience)
        try:
            self.sock.sendall(data)
        except (TimeoutError, ConnectionError):
            return False
        return True

    def _frame(self, deadline: float) -> tuple[int, bytes] | None:
        """The next frame from the server (opcode, payload); None when the socket ends."""
        while True:
            buffer = self._received
            start = {126: 4, 127: 10}.get(buffer[1] & 0x7F, 2) if len(buffer) >= 2 else 2
            if len(buffer) >= start:
                length = buffer[1] & 0x7F if start == 2 else int.from_bytes(buffer[2:start], "big")
                if len(buffer) >= start + length:
                    frame = buffer[0] & 0x0F, bytes(buffer[start : start + length])
                    del buffer[: start + length]
                    return frame
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no frame from the server")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(1 << 20)
            except ConnectionError:
                return None
            if not chunk:
                return None
            buffer += chunk

    def answer(self, wanted: int, timeout: float = 20) -> dict[str, Any]:
        """Read to the answer to request `wanted`."""
        deadline = time.monotonic() + timeout
        while (frame := self._frame(deadline)) is not None:
            if frame[0] == Opcode.TEXT:
                message = json.loads(frame[1])
                if message.get("id") == wanted and "method" not in message:
                    return dict(message)
        raise ConnectionError("closed before the answer")

    def call(self, method: str, params: Any = None) -> dict[str, Any]:
        """A request, and its answer (reading what comes before it)."""
        self.send(self.request(method, params))
        return self.answer(self._ids)

    def read_until_closed(self, timeout: float = 20) -> int | None:
        """Read every frame to the server's close frame: its code (None if the socket
        ended without one)."""
        deadline = time.monotonic() + timeout
        while (frame := self._frame(deadline)) is not None:
            if frame[0] == Opcode.CLOSE:
                return int.from_bytes(frame[1][:2], "big")
        return None

    def close(self) -> None:
        self.sock.close()
