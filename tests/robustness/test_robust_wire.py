"""Bad frames on the wire: the server answers what it can, logs the rest, and keeps reading.

Spoken in raw bytes to a real `python -m mfls` process. After each corruption a valid
request follows, and it must be answered. `test_random_corruptions_of_a_valid_stream`
draws corruptions from a seeded generator (`MFLS_WIRE_SEED`, `MFLS_WIRE_CASES` set them);
the targeted tests below pin down each failure of the old reader.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from robust_session import PROBE, verify

from tests.kit.lsp_client import SERVER, RawServer

pytestmark = pytest.mark.asyncio(loop_scope="module")

URI = "file:///robustness/wire.md"
TEXT = "# Wire\n\n?[{{ colour }} Red | Blue]\n\nUse {{ colour }} and " + PROBE + ".\n"
WITHIN = 5.0
SEED = int(os.environ.get("MFLS_WIRE_SEED", "20261201"))
CASES = int(os.environ.get("MFLS_WIRE_CASES", "160"))


class WireServer(RawServer):
    """`RawServer` with its log kept, and ways to write any bytes."""

    log_path: Path
    log_mark = 0  # where the log of the current test begins

    @classmethod
    async def launch(cls, extra: Sequence[str] = ()) -> WireServer:
        handle, name = tempfile.mkstemp(prefix="mfls-wire-", suffix=".log")
        process = await asyncio.create_subprocess_exec(
            *SERVER,
            *extra,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=handle,
        )
        os.close(handle)
        server = cls(process)
        server.log_path = Path(name)
        return server

    def log(self) -> str:
        return self.log_path.read_bytes()[self.log_mark :].decode(errors="replace")

    def raw(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)

    async def raw_in_pieces(self, data: bytes, rng: random.Random) -> None:
        """`data` in up to four writes, so that frames straddle the server's reads."""
        assert self.process.stdin is not None
        cuts = sorted(rng.sample(range(1, len(data)), min(3, len(data) - 1)))
        for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True):
            self.process.stdin.write(data[a:b])
            await self.process.stdin.drain()
            await asyncio.sleep(0.002)

    def hover_request(self) -> tuple[int, bytes]:
        msg_id = next(self.ids)
        return msg_id, body_of(hover(msg_id))

    async def answered(self, msg_id: Any) -> dict[str, Any]:
        return await self.response(msg_id, WITHIN)


@contextlib.asynccontextmanager
async def wire_session(extra: Sequence[str] = ()) -> AsyncIterator[WireServer]:
    server = await WireServer.launch(extra)
    try:
        await server.initialize()
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": URI, "languageId": "markdown", "version": 1, "text": TEXT}},
        )
        yield server
    finally:
        await server.close()
        server.log_path.unlink(missing_ok=True)


class Servers:
    """One server for the module's tests, started again when a test left it dead or deaf."""

    def __init__(self) -> None:
        self.current: WireServer | None = None
        self.session: contextlib.AbstractAsyncContextManager[WireServer] | None = None

    async def healthy(self) -> WireServer:
        server = self.current
        if server is not None and server.alive():
            msg_id, body = server.hover_request()
            server.raw(frame(body))
            try:
                await server.response(msg_id, 3.0)
                server.log_mark = server.log_path.stat().st_size
                return server
            except AssertionError:
                pass
        await self.stop()
        self.session = wire_session()
        self.current = await self.session.__aenter__()
        return self.current

    async def stop(self) -> None:
        if self.session is not None:
            session, self.session, self.current = self.session, None, None
            with contextlib.suppress(Exception):
                await session.__aexit__(None, None, None)


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def servers() -> AsyncIterator[Servers]:
    pool = Servers()
    try:
        yield pool
    finally:
        await pool.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def server(servers: Servers) -> WireServer:
    return await servers.healthy()


def hover(msg_id: Any) -> dict[str, Any]:
    at = TEXT.rindex(PROBE) + 3
    line = TEXT.count("\n", 0, at)
    char = at - (TEXT.rindex("\n", 0, at) + 1)
    return {
        "jsonrpc": "2.0",
        "id": msg_id,
        "method": "textDocument/hover",
        "params": {"textDocument": {"uri": URI}, "position": {"line": line, "character": char}},
    }


def body_of(message: Any) -> bytes:
    return json.dumps(message).encode()


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


async def hovered(server: WireServer, msg_id: Any) -> None:
    answer = await server.answered(msg_id)
    assert "error" not in answer, answer
    assert "probe" in answer["result"]["contents"]["value"]


async def still_serving(server: WireServer) -> None:
    """A well-framed request sent now is answered, and the server holds its text."""
    msg_id, body = server.hover_request()
    server.raw(frame(body))
    await hovered(server, msg_id)
    await verify(server, URI, TEXT)


# ----- one test per failure of the old reader -------------------------------------------


async def refused_as_invalid(server: WireServer, head: bytes) -> None:
    """A hover request sent after `head` is answered Invalid Request (-32600), with its
    id, and the server goes on serving."""
    msg_id, body = server.hover_request()
    server.raw(head + body)
    answer = await server.answered(msg_id)
    assert answer["error"]["code"] == -32600, answer
    await still_serving(server)


async def test_a_non_numeric_content_length_is_skipped_and_its_request_answered(
    server: WireServer,
) -> None:
    await refused_as_invalid(server, b"Content-Length: twelve\r\n\r\n")
    assert "Content-Length b'twelve' is not a length" in server.log()


async def test_a_negative_content_length_is_skipped_and_its_request_answered(
    server: WireServer,
) -> None:
    msg_id, body = server.hover_request()
    server.raw(b"Content-Length: -5\r\n\r\n" + body)
    assert (await server.answered(msg_id))["error"]["code"] == -32600
    await still_serving(server)


async def test_a_short_content_length_gets_a_parse_error_and_the_reader_resynchronises(
    server: WireServer,
) -> None:
    _, body = server.hover_request()
    server.raw(b"Content-Length: %d\r\n\r\n" % (len(body) // 2) + body)
    answer = await server.answered(None)
    assert answer["error"]["code"] == -32700, answer
    await still_serving(server)


async def test_a_long_content_length_ends_where_the_next_header_begins(server: WireServer) -> None:
    msg_id, body = server.hover_request()
    server.raw(b"Content-Length: %d\r\n\r\n" % (len(body) + 500) + body)
    # The next frame reveals the overstatement: the request is refused, the next served.
    await still_serving(server)
    assert (await server.answered(msg_id))["error"]["code"] == -32600
    assert "overstates" in server.log()


async def test_header_names_are_read_in_any_case(server: WireServer) -> None:
    for name in (b"content-length", b"CONTENT-LENGTH", b"Content-length"):
        msg_id, body = server.hover_request()
        server.raw(name + b": %d\r\n\r\n" % len(body) + body)
        await hovered(server, msg_id)
    await still_serving(server)


async def test_lf_only_header_lines_are_read(server: WireServer) -> None:
    msg_id, body = server.hover_request()
    server.raw(
        b"Content-Length: %d\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n"
        % len(body)
        + body
    )
    await hovered(server, msg_id)
    await still_serving(server)


async def test_a_body_without_length_is_answered_with_its_id(server: WireServer) -> None:
    await refused_as_invalid(
        server, b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
    )
    assert "without Content-Length" in server.log()


async def test_absurd_content_lengths_are_refused_without_allocating_them(
    server: WireServer,
) -> None:
    for length in (b"100000000000", b"1" + b"0" * 30, b"9" * 5000):
        msg_id, body = server.hover_request()
        server.raw(b"Content-Length: " + length + b"\r\n\r\n" + body)
        answer = await server.answered(msg_id)
        assert answer["error"]["code"] == -32600, answer
        assert server.alive()
    await still_serving(server)
    assert "over the limit" in server.log()


async def test_the_message_limit_is_configurable_and_a_longer_message_is_skipped() -> None:
    async with wire_session(["serve", "--max-message-bytes", "50000"]) as server:
        msg_id = next(server.ids)
        message = hover(msg_id)
        message["params"]["padding"] = "x" * 100_000
        server.raw(frame(body_of(message)))
        answer = await server.answered(msg_id)
        assert answer["error"]["code"] == -32600, answer
        await still_serving(server)


async def test_unparseable_json_is_answered_with_a_parse_error(server: WireServer) -> None:
    for broken in (b"{not json", b'{"jsonrpc": "2.0", "id": 5,', b"\xff\xfe{}", b"[" * 100_000):
        server.raw(frame(broken))
        answer = await server.answered(None)
        assert answer["error"]["code"] == -32700, (broken[:20], answer)
    await still_serving(server)


async def test_invalid_requests_are_answered_with_invalid_request(server: WireServer) -> None:
    cases: list[tuple[dict[str, Any], Any]] = []
    for bad_id in ([1], {"a": 1}, 1.5, True, None):
        message = hover(0)
        message["id"] = bad_id
        cases.append((message, None))
    no_version = hover(next(server.ids))
    del no_version["jsonrpc"]
    cases.append((no_version, no_version["id"]))
    old_version = {**hover(next(server.ids)), "jsonrpc": "1.0"}
    cases.append((old_version, old_version["id"]))
    numeric_method = {**hover(next(server.ids)), "method": 42}
    cases.append((numeric_method, numeric_method["id"]))
    no_method = {"jsonrpc": "2.0", "id": next(server.ids)}
    cases.append((no_method, no_method["id"]))
    for message, answer_id in cases:
        server.raw(frame(body_of(message)))
        answer = await server.answered(answer_id)
        assert answer["error"]["code"] == -32600, (message, answer)
    for batch in ([hover(next(server.ids))], [], 7, "text"):
        server.raw(frame(body_of(batch)))
        assert (await server.answered(None))["error"]["code"] == -32600
    await still_serving(server)
    assert "Traceback" not in server.log()


async def test_garbage_between_frames_is_skipped(server: WireServer) -> None:
    msg_id, body = server.hover_request()
    server.raw(b"\x00\xff garbage\r\nmore: \x07\r\n\r\n" + b"z" * 20_000 + frame(body))
    await hovered(server, msg_id)
    await still_serving(server)


async def test_headers_without_the_blank_line_are_answered_with_the_id(server: WireServer) -> None:
    msg_id, body = server.hover_request()
    server.raw(b"Content-Length: %d\r\n" % len(body) + body + b"\r\n")
    await still_serving(server)
    assert (await server.answered(msg_id))["error"]["code"] == -32600


# ----- random corruptions ---------------------------------------------------------------

Corruption = Callable[[random.Random, bytes], bytes]


def _length(value: bytes) -> Corruption:
    return lambda rng, body: b"Content-Length: " + value + b"\r\n\r\n" + body


def _off_by(rng: random.Random, body: bytes) -> bytes:
    delta = rng.choice([-1, 1]) * rng.randint(1, len(body) + 200)
    return b"Content-Length: %d\r\n\r\n" % max(0, len(body) + delta) + body


def _case(rng: random.Random, body: bytes) -> bytes:
    name = "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in "content-length")
    ending = rng.choice([b"\r\n", b"\n"])
    return name.encode() + b": %d" % len(body) + ending + ending + body


def _garbage(rng: random.Random, body: bytes) -> bytes:
    return bytes(rng.randrange(256) for _ in range(rng.randint(1, 300)))


def _garbage_lines(rng: random.Random, body: bytes) -> bytes:
    words = [b"x", b"::", b"\r\n", b"\n", b"Content-Type: a", b"{", b"}", b" ", b"\xff", b"9"]
    return b"".join(rng.choice(words) for _ in range(rng.randint(1, 40)))


def _no_length(rng: random.Random, body: bytes) -> bytes:
    return rng.choice([b"", b"Content-Type: application/json\r\n"]) + b"\r\n" + body


def _no_blank_line(rng: random.Random, body: bytes) -> bytes:
    return b"Content-Length: %d\r\n" % len(body) + body


def _truncated(rng: random.Random, body: bytes) -> bytes:
    whole = frame(body)
    return whole[: rng.randint(1, len(whole) - 1)]


def _broken_json(rng: random.Random, body: bytes) -> bytes:
    k = rng.randrange(len(body))
    broken = body[:k] + rng.choice([b"", b"\x00", b"}", b'"', b"\xc3"]) + body[k + 1 :]
    return frame(broken)


def _message(change: Callable[[dict[str, Any]], Any]) -> Corruption:
    def corrupt(rng: random.Random, body: bytes) -> bytes:
        message = json.loads(body)
        changed = change(message)
        return frame(body_of(message if changed is None else changed))

    return corrupt


CORRUPTIONS: dict[str, Corruption] = {
    "non-numeric length": _length(b"abc"),
    "negative length": _length(b"-12"),
    "empty length": _length(b""),
    "fractional length": _length(b"12.5"),
    "huge length": _length(b"100000000000"),
    "overflowing length": _length(b"1" + b"0" * 40),
    "zero length": _length(b"0"),
    "wrong length": _off_by,
    "header case and LF": _case,
    "garbage bytes": _garbage,
    "garbage lines": _garbage_lines,
    "body without length": _no_length,
    "no blank line": _no_blank_line,
    "truncated frame": _truncated,
    "broken JSON": _broken_json,
    "list id": _message(lambda m: m.update(id=[1, 2])),
    "object id": _message(lambda m: m.update(id={"n": 1})),
    "missing jsonrpc": _message(lambda m: m.pop("jsonrpc")),
    "method not a string": _message(lambda m: m.update(method=["hover"])),
    "batch": _message(lambda m: [m]),
    "scalar": _message(lambda m: 17),
    "two lengths": lambda rng, body: b"Content-Length: 3\r\n" + frame(body),
}


async def test_random_corruptions_of_a_valid_stream() -> None:
    """Each corruption is followed by a valid request, which must be answered in 5 s."""
    rng = random.Random(SEED)
    names = sorted(CORRUPTIONS)
    served = refused = 0
    async with wire_session() as server:
        for case in range(CASES):
            chosen = [rng.choice(names) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
            stream = b""
            for name in chosen:
                victim = next(server.ids)
                stream += CORRUPTIONS[name](rng, body_of(hover(victim)))
            msg_id, body = server.hover_request()
            stream += frame(body)
            if rng.random() < 0.5:
                await server.raw_in_pieces(stream, rng)
            else:
                server.raw(stream)
            try:
                answer = await server.answered(msg_id)
            except AssertionError:
                raise AssertionError(
                    f"case {case} (seed {SEED}): no answer after {chosen}: {stream[:300]!r}"
                ) from None
            assert server.alive(), f"case {case}: the server died after {chosen}"
            if "error" in answer:
                refused += 1
            else:
                served += 1
        await still_serving(server)
        assert "Traceback" not in server.log()
    # A corruption may swallow the header of the request after it (a length that ends
    # inside that header), which then is refused; it must stay rare.
    assert served >= CASES * 0.8, (served, refused)
    print(f"{CASES} corruptions: {served} followers served, {refused} refused", file=sys.stderr)


async def test_the_tcp_transport_reads_frames_the_same_way() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = await asyncio.create_subprocess_exec(
        *SERVER, "serve", "--tcp", f"127.0.0.1:{port}", stderr=asyncio.subprocess.DEVNULL
    )
    try:
        for _ in range(100):
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.1)
        else:
            raise AssertionError("the TCP server never listened")
        initialize = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"processId": None, "capabilities": {}},
        }
        writer.write(b"content-length: 1e99\n\n{}" + frame(body_of(initialize)))
        header = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), WITHIN)
        length = int(header.split(b":")[1].split(b"\r\n")[0])
        answer = json.loads(await reader.readexactly(length))
        assert answer["id"] == 1 and "capabilities" in answer["result"], answer
        writer.write(frame(body_of({"jsonrpc": "2.0", "method": "exit"})))
        await asyncio.wait_for(process.wait(), WITHIN)
        writer.close()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
