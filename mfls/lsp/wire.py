"""Reading LSP frames from a byte stream, and serving a protocol over stdio or TCP.

`FrameReader` turns bytes into message bodies. It is pure (no IO): `feed` takes what
arrived and returns the bodies now complete and the problems met, in stream order.

- Header names are read in any case, lines may end in LF or CRLF, blank lines between
  messages and unknown headers are ignored.
- A frame that cannot be read (no or malformed `Content-Length`, a line that is no
  header, a header line over `MAX_HEADER_LINE`) becomes a `Problem`, and the reader
  skips to the next `Content-Length` header. The skipped bytes are kept, up to
  `SALVAGE_BYTES`, to find the id of the request they held, so that it can be answered.
- A `Content-Length` over the limit is refused the same way, without allocating it.
- A body that holds a `Content-Length: N` line was framed with a length that overstates
  it (valid JSON holds no line break inside a string, and no bare word outside one): the
  frame ends there, and the reader goes on with the header it swallowed.

`serve_stdio` and `serve_tcp` replace pygls's `start_io`/`start_tcp`, whose reader
stops answering after one malformed frame and allocates whatever length it is told.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import re
import stat
import sys
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol

from mfls.lsp.logs import LOGGER_NAME

log = logging.getLogger(LOGGER_NAME)

MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""Default limit of one message body; a longer one is refused (and skipped unread)."""
MAX_HEADER_LINE = 8192
SALVAGE_BYTES = 64 * 1024
CHUNK = 64 * 1024

PARSE_ERROR = -32700
INVALID_REQUEST = -32600

MsgId = int | str | None

_HEADER_NAME = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_CONTENT_LENGTH = b"content-length"
# A header line inside a body: never part of valid JSON (see the module docstring).
_EMBEDDED_HEADER = re.compile(rb"content-length[ \t]*:[ \t]*[0-9]+[ \t]*\r?\n")
# A request's id, read from the start of a body too long or too broken to parse: the
# top-level "id" member when it comes first (or right after "jsonrpc").
_LEADING_ID = re.compile(
    rb'\A\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"\\]{0,16}"\s*,\s*)?"id"\s*:\s*'
    rb'(-?[0-9]{1,18}|"[^"\\]{0,256}")\s*[,}]'
)


@dataclass(frozen=True, slots=True)
class Problem:
    """A frame or message that could not be read. When `answer` is set, the peer is owed
    an error answer with `code` under `msg_id` (None stands for JSON null)."""

    reason: str
    answer: bool = False
    msg_id: MsgId = None
    code: int = INVALID_REQUEST


Event = bytes | Problem


def usable_id(value: Any) -> bool:
    """Whether `value` can identify a request (LSP: an integer or a string)."""
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


def salvage_id(data: bytes) -> tuple[bool, MsgId]:
    """The id of the request `data` held, if one can be known: (found, id)."""
    start = data.find(b"{")
    if start < 0:
        return False, None
    data = data[start:]
    try:
        value = json.loads(data)
    except Exception:
        pass
    else:
        if isinstance(value, dict) and usable_id(value.get("id")) and "method" in value:
            return True, value["id"]
        return False, None  # a response, a notification or no message: never answered
    match = _LEADING_ID.match(data)
    if match is not None:
        try:
            found = json.loads(match.group(1))
        except Exception:
            return False, None
        return True, found
    return False, None


def _shown(data: bytes | bytearray, limit: int = 40) -> str:
    text = repr(bytes(data[:limit]))
    return text + ("..." if len(data) > limit else "")


_HEADERS, _BODY, _RESYNC = range(3)


class FrameReader:
    """Bytes in, message bodies and problems out; see the module docstring."""

    def __init__(self, max_message_bytes: int = MAX_MESSAGE_BYTES) -> None:
        self.max_message_bytes = max_message_bytes
        self._buf = bytearray()
        self._state = _HEADERS
        self._in_headers = False  # a header line of the current frame has been read
        self._length: int | None = None
        self._bad_length: str | None = None
        self._checked = 0  # bytes of a pending body already searched for a header
        # while resynchronising:
        self._reason = ""
        self._salvage = bytearray()
        self._skipped = 0
        self._answered = False
        self._search_from = 0

    def feed(self, data: bytes) -> list[Event]:
        """The bodies completed and the problems met by `data`, in stream order."""
        self._buf += data
        events: list[Event] = []
        while True:
            if self._state == _HEADERS:
                progressed = self._headers(events)
            elif self._state == _BODY:
                progressed = self._body(events)
            else:
                progressed = self._resync(events)
            if not progressed:
                return events

    def close(self) -> list[Event]:
        """Problems left when the stream ends."""
        events: list[Event] = []
        if self._state == _RESYNC:
            self._salvage += self._buf[: SALVAGE_BYTES - len(self._salvage)]
            self._skipped += len(self._buf)
            self._end_resync(events)
        elif self._state == _BODY or self._in_headers or self._buf.strip():
            events.append(Problem(f"the stream ended inside a message: {_shown(self._buf)}"))
        self._buf.clear()
        return events

    # ----- states ------------------------------------------------------------------

    def _headers(self, events: list[Event]) -> bool:
        end = self._buf.find(b"\n")
        if end < 0:
            if len(self._buf) > MAX_HEADER_LINE:
                self._start_resync(f"a header line over {MAX_HEADER_LINE} bytes", 1)
                return True
            return False
        line = bytes(self._buf[:end]).rstrip(b"\r")
        if not line.strip():
            del self._buf[: end + 1]
            if self._in_headers:
                self._end_headers(events)
            return True
        name, colon, value = line.partition(b":")
        name = name.strip()
        lowered = name.lower()
        if (
            not colon
            or _HEADER_NAME.fullmatch(name) is None
            or (lowered.endswith(_CONTENT_LENGTH) and lowered != _CONTENT_LENGTH)
        ):
            self._start_resync(f"not a header line: {_shown(line)}", 1)
            return True
        del self._buf[: end + 1]
        self._in_headers = True
        if lowered == _CONTENT_LENGTH:
            value = value.strip()
            if not value.isdigit():
                self._bad_length = f"Content-Length {_shown(value)} is not a length"
            elif self._length is not None and self._length != int(value):
                self._bad_length = "two different Content-Length headers"
            elif len(value) > 18 or int(value) > self.max_message_bytes:
                self._bad_length = (
                    f"Content-Length {value.decode()} is over the limit of "
                    f"{self.max_message_bytes} bytes"
                )
            else:
                self._length = int(value)
        return True

    def _end_headers(self, events: list[Event]) -> None:
        length, bad = self._length, self._bad_length
        self._in_headers = False
        self._length = self._bad_length = None
        if bad is not None or length is None:
            self._start_resync(bad or "a message without Content-Length", 0)
            return
        self._length = length
        self._checked = 0
        self._state = _BODY

    def _body(self, events: list[Event]) -> bool:
        assert self._length is not None
        length = self._length
        available = min(length, len(self._buf))
        start = max(0, self._checked - 64)
        if available > start:
            inside = self._embedded_header(start, available)
            if inside is not None:
                self._overstated(inside, events)
                return True
            self._checked = available
        if len(self._buf) < length:
            return False
        body = bytes(self._buf[:length])
        del self._buf[:length]
        self._length = None
        self._state = _HEADERS
        events.append(body)
        return True

    def _embedded_header(self, start: int, end: int) -> int | None:
        found = _EMBEDDED_HEADER.search(bytes(self._buf[start:end]).lower())
        return None if found is None else start + found.start()

    def _overstated(self, at: int, events: list[Event]) -> None:
        """The body declared `self._length` bytes, but a header begins at `at`."""
        head = bytes(self._buf[:at])
        del self._buf[:at]
        reason = f"Content-Length {self._length} overstates a message of {len(head)} bytes"
        self._length = None
        self._state = _HEADERS
        found, msg_id = salvage_id(head)
        if found:
            events.append(Problem(reason, True, msg_id))
        elif head.strip():
            events.append(Problem(reason, True, None, PARSE_ERROR))
        else:
            events.append(Problem(reason))

    def _start_resync(self, reason: str, search_from: int) -> None:
        self._state = _RESYNC
        self._in_headers = False
        self._length = self._bad_length = None
        self._reason = reason
        self._salvage.clear()
        self._skipped = 0
        self._answered = False
        self._search_from = search_from

    def _resync(self, events: list[Event]) -> bool:
        at = self._find_header(self._search_from)
        cut = at if at is not None else max(0, len(self._buf) - len(_CONTENT_LENGTH))
        self._search_from = max(0, self._search_from - cut)
        if cut:
            room = SALVAGE_BYTES - len(self._salvage)
            if room > 0:
                self._salvage += self._buf[: min(cut, room)]
            self._skipped += cut
            del self._buf[:cut]
        if at is not None:
            self._end_resync(events)
            self._state = _HEADERS
            return True
        if not self._answered and self._salvage:
            found, msg_id = self._salvaged()
            if found:
                self._answered = True
                events.append(Problem(self._reason, True, msg_id))
        return False

    def _find_header(self, start: int) -> int | None:
        at = bytes(self._buf).lower().find(_CONTENT_LENGTH, start)
        return None if at < 0 else at

    def _salvaged(self) -> tuple[bool, MsgId]:
        salvage = bytes(self._salvage)
        if _LEADING_ID.search(salvage) is None and not salvage.rstrip().endswith(b"}"):
            return False, None
        return salvage_id(salvage)

    def _end_resync(self, events: list[Event]) -> None:
        reason = f"{self._reason}; skipped {self._skipped} bytes to the next header"
        if self._answered:
            events.append(Problem(reason))
        else:
            found, msg_id = salvage_id(bytes(self._salvage))
            events.append(Problem(reason, found, msg_id))
        self._salvage.clear()
        self._skipped = 0
        self._answered = False


# ----- serving -------------------------------------------------------------------------


class Receiver(Protocol):
    """What the pump hands frames to: `MflsProtocol` in mfls."""

    def receive_body(self, body: bytes) -> None: ...

    def receive_problem(self, problem: Problem) -> None: ...


async def pump(
    read_chunk: Callable[[], Awaitable[bytes]],
    receiver: Receiver,
    stop: threading.Event,
    max_message_bytes: int = MAX_MESSAGE_BYTES,
) -> None:
    """Read chunks until the stream ends or `stop` is set, handing out every frame."""
    reader = FrameReader(max_message_bytes)
    while not stop.is_set():
        chunk = await read_chunk()
        events = reader.feed(chunk) if chunk else reader.close()
        for event in events:
            if isinstance(event, Problem):
                receiver.receive_problem(event)
            else:
                receiver.receive_body(event)
            if stop.is_set():
                return
            # Let the handlers' tasks run between two messages, as if read one by one.
            await asyncio.sleep(0)
        if not chunk:
            return


def _stdin_chunks(stdin: BinaryIO) -> Callable[[], Awaitable[bytes]]:
    """Chunks of `stdin`, read by a daemon thread (a blocked read never holds up exit)."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=8)
    read: Callable[[int], bytes]
    try:
        # The file descriptor, not the buffered file: a daemon thread blocked inside a
        # buffered read holds its lock, and the interpreter aborts at exit on that lock.
        fd = stdin.fileno()
        read = functools.partial(os.read, fd)
    except (AttributeError, OSError, ValueError):
        read = getattr(stdin, "read1", None) or stdin.read

    def run() -> None:
        while True:
            try:
                chunk = read(CHUNK)
            except (OSError, ValueError):
                chunk = b""
            try:
                asyncio.run_coroutine_threadsafe(queue.put(chunk), loop).result()
            except Exception:
                return
            if not chunk:
                return

    threading.Thread(target=run, name="mfls-stdin", daemon=True).start()
    return queue.get


PIPE_BYTES = 1024 * 1024
"""The pipe buffer asked for stdout: a large publishDiagnostics goes out in one write
instead of waiting for the client to drain 64 kB at a time (Linux; kept otherwise)."""


def grow_pipe(stream: BinaryIO, size: int = PIPE_BYTES) -> int | None:
    """Enlarge the buffer of the pipe behind `stream` to `size` bytes, or as far as the
    system allows; the new size, or None when `stream` is no pipe or cannot be grown."""
    try:
        import fcntl

        fd = stream.fileno()
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return None
        getter = getattr(fcntl, "F_GETPIPE_SZ", None)
        setter = getattr(fcntl, "F_SETPIPE_SZ", None)
        if getter is None or setter is None:
            return None
        for wanted in (size, size // 4):
            if fcntl.fcntl(fd, getter) >= wanted:
                break
            try:
                fcntl.fcntl(fd, setter, wanted)
                break
            except OSError:  # over the system's limit (or the user's share of it)
                continue
        return int(fcntl.fcntl(fd, getter))
    except (ImportError, AttributeError, OSError, ValueError):
        return None


class _StdoutWriter:
    def __init__(self, stdout: BinaryIO) -> None:
        self._stdout = stdout

    def close(self) -> None:
        self._stdout.close()

    def write(self, data: bytes) -> None:
        self._stdout.write(data)
        self._stdout.flush()


def serve_stdio(
    server: Any,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    max_message_bytes: int = MAX_MESSAGE_BYTES,
) -> None:
    """`server.start_io`, with `FrameReader` reading the frames."""
    stop = threading.Event()
    server._stop_event = stop
    out = stdout or sys.stdout.buffer
    grow_pipe(out)
    server.protocol.set_writer(_StdoutWriter(out))

    async def main() -> None:
        chunks = _stdin_chunks(stdin or sys.stdin.buffer)
        await pump(chunks, server.protocol, stop, max_message_bytes)

    try:
        asyncio.run(main())
    except BrokenPipeError:
        log.error("the connection to the client is lost; shutting down")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


def serve_tcp(
    server: Any, host: str, port: int, max_message_bytes: int = MAX_MESSAGE_BYTES
) -> None:
    """`server.start_tcp`, with `FrameReader` reading the frames."""
    stop = threading.Event()
    server._stop_event = stop

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        server.protocol.set_writer(writer)

        async def chunk() -> bytes:
            return await reader.read(CHUNK)

        try:
            await pump(chunk, server.protocol, stop, max_message_bytes)
        except SystemExit:  # the `exit` notification
            pass
        finally:
            server.shutdown()

    async def main() -> None:
        server._server = await asyncio.start_server(connection, host, port)
        async with server._server:
            await server._server.serve_forever()

    try:
        asyncio.run(main())
    except asyncio.CancelledError:
        log.debug("the TCP server was cancelled")


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def check_message(data: Any) -> Problem | None:
    """Why `data`, a parsed body, is no valid JSON-RPC message (None if it is one).

    A request is answered -32600 under its id when usable (null otherwise); a
    notification or a response is never answered, only logged."""
    if not isinstance(data, dict):
        return Problem(f"a JSON-RPC message is an object, not {_json_kind(data)}", True)
    if "method" not in data and ("result" in data or "error" in data):
        if data.get("jsonrpc") != "2.0" or not usable_id(data.get("id")):
            return Problem(f"ignored a malformed response: {_shown(json.dumps(data).encode())}")
        return None
    has_id = "id" in data
    msg_id = data.get("id")
    reason: str | None = None
    if has_id and not usable_id(msg_id):
        reason = f"a request id is an integer or a string, not {_json_kind(msg_id)}"
        msg_id = None
    elif data.get("jsonrpc") != "2.0":
        reason = f'"jsonrpc" must be "2.0", not {_json_kind(data.get("jsonrpc"))}'
        if "jsonrpc" not in data:
            reason = 'a message without "jsonrpc": "2.0"'
    elif "method" not in data:
        reason = "a message with neither a method nor a result"
    elif not isinstance(data["method"], str):
        reason = f"a method is a string, not {_json_kind(data['method'])}"
    if reason is None:
        return None
    return Problem(reason, has_id, msg_id)
