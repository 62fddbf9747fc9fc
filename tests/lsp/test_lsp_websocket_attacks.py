"""`mfls serve --ws` against hostile clients, a real process on 127.0.0.1: clients that
read nothing (answers, pongs, many connections at once) are closed at the byte budget
with the server's memory bounded, a connection's log lines go to it alone whatever
another client sends, and malformed handshakes get 400 with a reason, never 500 or a
traceback. The memory is the server's VmRSS, sampled while the attack runs."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest

from tests.kit.waiting import holds_within
from tests.lsp.ws_harness import RawClient, Served, client, handshake, http_answer, uri

BUDGET = 2 * 1024 * 1024
"""The byte budget the memory tests give the server (`--max-unsent-bytes`)."""
SLACK = 12 * 1024 * 1024
"""What the server may grow by besides the unread bytes, as `mfls serve --help` and
editors/README.md state the bound: the answers being built (the answer as a dict, its
JSON text and bytes, the frame), the allocator's own slack."""
CLOSED_LINE = "closing its connection"
LESSON_TEXT = "A line of the lesson, with words enough to fill it, and then some more.\n"


def _big_course(root: Path) -> Path:
    """Twenty lessons of 72 kB: `mfls.courseFiles` answers about 1.5 MB."""
    root.mkdir()
    for n in range(20):
        (root / f"lesson-{n:02d}.md").write_text(f"# Lesson {n}\n\n" + LESSON_TEXT * 1000)
    return root


class PeakRss:
    """The server's largest VmRSS while the block runs, sampled every 10 ms."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.peak = served.rss()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._done.wait(0.01):
            self.peak = max(self.peak, self.served.rss())

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._done.set()
        self._thread.join()
        self.peak = max(self.peak, self.served.rss())


def reading_client(served: Served) -> tuple[RawClient, int]:
    """A bare client, initialized, that read one `mfls.courseFiles` answer (waiting for the
    course to be indexed): it and the answer's size in bytes."""
    raw = RawClient(served)
    assert "result" in raw.call("initialize", {"processId": None, "capabilities": {}})
    raw.send(raw.frame({"method": "initialized", "params": {}}))
    command = {"command": "mfls.courseFiles"}
    deadline = time.monotonic() + 30
    while "result" not in (answer := raw.call("workspace/executeCommand", command)):
        assert time.monotonic() < deadline, answer
        time.sleep(0.1)
    return raw, len(json.dumps(answer))


def flood_of_requests(raw: RawClient, count: int) -> None:
    """`count` `mfls.courseFiles` requests, none of whose answers is read; stops when the
    server has stopped reading for 2 s."""
    request = {"command": "mfls.courseFiles"}
    for _ in range(count):
        if not raw.send(raw.request("workspace/executeCommand", request), patience=2):
            return


def no_trace_of_failure(stderr: str) -> None:
    assert "Traceback" not in stderr, stderr[-3000:]
    assert "RecursionError" not in stderr


@pytest.fixture
def big_course(tmp_path: Path) -> Path:
    return _big_course(tmp_path / "big")


@pytest.mark.alone
def test_a_client_that_reads_no_answers_is_closed_at_the_byte_budget(big_course: Path) -> None:
    served = Served(big_course, "--max-unsent-bytes", str(BUDGET))
    try:
        raw, answer = reading_client(served)
        before = served.rss()
        with PeakRss(served) as rss:
            flood_of_requests(raw, 60)  # 90 MB of answers
            closed = holds_within(lambda: served.said(CLOSED_LINE), 20)
        grown = rss.peak - before
        print(f"unread answers ({answer} bytes each): the server grew by {grown >> 20} MiB")
        assert closed
        assert grown <= BUDGET + answer + SLACK
        assert raw.read_until_closed() == 1008  # what was queued, then the close frame
        raw.close()
        time.sleep(0.2)
        assert served.said(CLOSED_LINE) == 1
    finally:
        stderr = served.stop()
    no_trace_of_failure(stderr)


@pytest.mark.alone
def test_a_client_that_reads_no_pongs_is_closed_at_the_byte_budget(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(LESSON_A)
    served = Served(tmp_path, "--max-unsent-bytes", str(BUDGET))
    try:
        raw = RawClient(served)
        before = served.rss()
        pings = RawClient.ping(b"p" * 125) * 1000  # 131 kB, answered by 127 kB of pongs
        with PeakRss(served) as rss:
            for _ in range(400):  # 400,000 pings at most
                if not raw.send(pings, patience=2) or served.said(CLOSED_LINE):
                    break
            closed = holds_within(lambda: served.said(CLOSED_LINE), 20)
        grown = rss.peak - before
        print(f"unread pongs: the server grew by {grown >> 20} MiB")
        assert closed
        assert grown <= BUDGET + SLACK
        assert raw.read_until_closed() == 1008
        raw.close()
        time.sleep(0.2)
        assert served.said(CLOSED_LINE) == 1
    finally:
        stderr = served.stop()
    no_trace_of_failure(stderr)


@pytest.mark.alone
def test_every_connection_reading_nothing_up_to_the_limit_stays_within_the_bound(
    big_course: Path,
) -> None:
    limit = 3
    served = Served(big_course, "--max-unsent-bytes", str(BUDGET), "--max-connections", str(limit))
    try:
        clients = [reading_client(served) for _ in range(limit)]
        status, body = http_answer(served, handshake(served, []))
        assert status == "HTTP/1.1 503 Service Unavailable"
        assert "--max-connections" in body
        answer = max(size for _raw, size in clients)
        before = served.rss()
        with PeakRss(served) as rss:
            floods = [
                threading.Thread(target=flood_of_requests, args=(raw, 40)) for raw, _ in clients
            ]
            for flood in floods:
                flood.start()
            for flood in floods:
                flood.join()
            closed = holds_within(lambda: served.said(CLOSED_LINE) == limit, 20)
        grown = rss.peak - before
        print(f"{limit} connections reading nothing: the server grew by {grown >> 20} MiB")
        assert closed
        assert grown <= limit * (BUDGET + answer) + SLACK
        assert [raw.read_until_closed() for raw, _ in clients] == [1008] * limit
        for raw, _ in clients:
            raw.close()
        # Their places are free again.
        assert holds_within(lambda: "101" in http_answer(served, handshake(served, []))[0], 10)
    finally:
        stderr = served.stop()
    no_trace_of_failure(stderr)


# ----- log lines and handshakes: one server for the module -------------------------------

LESSON_A = "# Welcome\n\n?[{{name}}...Your name]\n"
LESSON_B = "# Next\n\nHello {{name}}.\n"


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ws-attacks") / "course"
    root.mkdir()
    (root / "a.md").write_text(LESSON_A)
    (root / "b.md").write_text(LESSON_B)
    return root


@pytest.fixture(scope="module")
def served(course: Path) -> Iterator[Served]:
    server = Served(course)
    yield server
    no_trace_of_failure(server.stop())


def applied(text: str, edits: list[dict[str, Any]]) -> str:
    """`text` with the LSP text `edits` made (ASCII text: a character is a UTF-16 unit)."""
    lines = text.splitlines(keepends=True)

    def offset(at: dict[str, int]) -> int:
        return sum(map(len, lines[: at["line"]])) + at["character"]

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        start, end = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:start] + edit["newText"] + text[end:]
    return text


async def test_a_client_never_receives_another_clients_log_lines(
    served: Served, course: Path
) -> None:
    """Client A renames a key, which logs on A's worker thread and then records the
    rename there; client B, at debug level and with `$/setTrace` verbose, gets none of
    A's lines."""
    a, b = await client(served), await client(served)
    await a.start(options={"mfls": {"logLevel": "info"}})
    await b.start(options={"mfls": {"logLevel": "debug", "trace": True}})
    await b.notify("$/setTrace", {"value": "verbose"})

    await a.open(course / "a.md")
    await a.open(course / "b.md")
    while not (await a.request("workspace/symbol", {"query": "name"}))["result"]:
        await asyncio.sleep(0.1)  # indexed
    renamed = await a.request(
        "textDocument/rename",
        {
            "textDocument": {"uri": uri(course / "a.md")},
            "position": {"line": 2, "character": 5},
            "newName": "colour",
        },
    )
    changes = renamed["result"]["changes"]
    for path, text in ((course / "a.md", LESSON_A), (course / "b.md", LESSON_B)):
        await a.notify(  # the client applies the edit
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri(path), "version": 2},
                "contentChanges": [{"text": applied(text, changes[uri(path)])}],
            },
        )
    note = await a.notification("window/logMessage", lambda p: "recorded in" in p["message"])
    assert "'name' to 'colour'" in note["params"]["message"]
    assert any("rename: 2 markers in 2 documents" in line for line in a.logged())

    # B is served, and its own lines come to it; none of A's does.
    symbols = await b.request("workspace/symbol", {"query": "name"})
    assert [s["name"] for s in symbols["result"]] == ["name"]
    await asyncio.sleep(0.3)
    assert (await b.request("workspace/symbol", {"query": "name"}))["result"]
    assert any("Indexing" in line for line in b.logged())
    b_text = "\n".join(str(frame) for frame in b.frames)
    assert "colour" not in b_text and "markers in" not in b_text and "recorded" not in b_text
    await a.ws.close()
    await b.ws.close()


async def test_a_second_initialize_is_refused_and_brings_no_other_clients_lines(
    served: Served,
) -> None:
    a, b = await client(served), await client(served)
    await a.start()
    await b.start(options={"mfls": {"logLevel": "debug"}})
    again = await b.request("initialize", {"processId": None, "capabilities": {}})
    assert again["error"]["code"] == -32600, again
    assert "only be sent once" in again["error"]["message"]
    await a.open(Path("/etc/hostname"), text="x\n")  # refused and logged, on A's loop task
    note = await a.notification("window/logMessage", lambda p: "/etc/hostname" in p["message"])
    assert "outside the course root" in note["params"]["message"]
    await asyncio.sleep(0.3)
    assert (await b.request("workspace/symbol", {"query": "name"}))["result"]
    assert not any("/etc/hostname" in str(frame) for frame in b.frames)
    assert any("second initialize" in line for line in b.logged())
    await a.ws.close()
    await b.ws.close()


HOSTILE = {
    "two Origins, the allowed one first": [
        ("Origin", "http://localhost:5173"),
        ("Origin", "https://evil.example"),
    ],
    "two Origins, the foreign one first": [
        ("Origin", "https://evil.example"),
        ("Origin", "http://localhost:5173"),
    ],
    "two allowed Origins": [("Origin", "http://localhost:1"), ("Origin", "http://localhost:2")],
    "two Hosts": [("Host", "evil.example")],
    "a Sec-WebSocket-Key that is no key": [("Sec-WebSocket-Key", "not-a-key")],
    "two Sec-WebSocket-Keys": [
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ],
    "two Sec-WebSocket-Versions": [("Sec-WebSocket-Version", "13")],
    "a Sec-WebSocket-Version of 8": [("Sec-WebSocket-Version", "8")],
    "unreadable Sec-WebSocket-Extensions": [("Sec-WebSocket-Extensions", ",,;;==")],
}


@pytest.mark.parametrize("token", [True, False], ids=["with the token", "without"])
@pytest.mark.parametrize("headers", list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_malformed_handshake_gets_400_with_a_reason(
    served: Served, headers: list[tuple[str, str]], token: bool
) -> None:
    refused = served.said("refused a connection: wrong token")
    status, body = http_answer(served, handshake(served, headers, token=token))
    if token or "Origin" in headers[0][0] or headers[0][0] == "Host":
        assert status == "HTTP/1.1 400 Bad Request", (status, body)
        assert any(name in body for name, _ in headers), body
    else:  # the token is checked before websockets reads its own headers
        assert status == "HTTP/1.1 401 Unauthorized", (status, body)
    # Whatever the server wrote before a refusal it logs is on stderr once that line is.
    bad_token = handshake(served, []).replace(served.token.encode(), b"wrong")
    http_answer(served, bad_token)
    assert holds_within(lambda: served.said("refused a connection: wrong token") > refused, 10)
    no_trace_of_failure("".join(served.lines))
    assert served.said("opening handshake failed") == served.said("process_request failed") == 0


def test_a_request_without_a_host_gets_400(served: Served) -> None:
    request = handshake(served, []).replace(f"Host: 127.0.0.1:{served.port}\r\n".encode(), b"")
    status, body = http_answer(served, request)
    assert status == "HTTP/1.1 400 Bad Request"
    assert "Host" in body


def test_the_help_states_the_byte_budget_and_the_connection_limit() -> None:
    from mfls.lsp import websocket

    shown = subprocess.run(
        [sys.executable, "-m", "mfls", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "200"},
    ).stdout
    assert "--max-unsent-bytes" in shown and "--max-connections" in shown
    assert f"Default {websocket.MAX_UNSENT_BYTES >> 20} MiB" in shown
    assert f"default {websocket.MAX_CONNECTIONS})" in shown
    assert f"x (the byte budget + the largest answer) + {SLACK >> 20} MiB" in shown
