"""`mfls.lsp.wire.FrameReader` and `check_message`, in process: frames in, bodies out."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mfls.lsp.wire import (
    CHUNK,
    INVALID_REQUEST,
    MAX_HEADER_LINE,
    PARSE_ERROR,
    SALVAGE_BYTES,
    FrameReader,
    Problem,
    check_message,
    salvage_id,
)


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def request(msg_id: Any = 1, size: int = 0) -> bytes:
    message = {"jsonrpc": "2.0", "id": msg_id, "method": "m", "params": {"p": "x" * size}}
    return json.dumps(message).encode()


def read(data: bytes, *, chunk: int | None = None, limit: int = 1 << 20) -> list[Any]:
    reader = FrameReader(limit)
    events: list[Any] = []
    step = chunk or len(data) or 1
    for k in range(0, len(data), step):
        events += reader.feed(data[k : k + step])
    return events + reader.close()


def bodies(events: list[Any]) -> list[bytes]:
    return [e for e in events if isinstance(e, bytes)]


def answers(events: list[Any]) -> list[tuple[Any, int]]:
    return [(e.msg_id, e.code) for e in events if isinstance(e, Problem) and e.answer]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 300), min_size=1, max_size=6),
    st.integers(1, 64),
    st.sampled_from([b"\r\n", b"\n"]),
)
def test_valid_frames_in_any_chunking_and_line_ending_read_alike(
    sizes: list[int], chunk: int, ending: bytes
) -> None:
    messages = [request(k, size) for k, size in enumerate(sizes)]
    stream = b"".join(
        b"content-LENGTH: %d" % len(m) + ending + b"Content-Type: x" + ending + ending + m
        for m in messages
    )
    events = read(stream, chunk=chunk)
    assert events == messages


def test_a_header_line_inside_a_body_ends_an_overstated_frame() -> None:
    first, second = request(1), request(2)
    events = read(b"Content-Length: %d\r\n\r\n" % (len(first) + 40) + first + frame(second))
    assert bodies(events) == [second]
    assert answers(events) == [(1, INVALID_REQUEST)]


def test_a_body_mentioning_content_length_in_a_string_is_read_whole() -> None:
    message = json.dumps({"jsonrpc": "2.0", "method": "m", "params": "Content-Length: 5\n"})
    assert read(frame(message.encode()), chunk=7) == [message.encode()]


def test_a_malformed_length_skips_to_the_next_header_and_salvages_the_id() -> None:
    for value in (b"abc", b"-3", b"", b"1.5", b"0x10", b"9" * 5000):
        events = read(b"Content-Length: " + value + b"\r\n\r\n" + request(7) + frame(request(8)))
        assert bodies(events) == [request(8)], value
        assert answers(events) == [(7, INVALID_REQUEST)], value


def test_an_absurd_length_is_refused_and_never_buffered() -> None:
    reader = FrameReader(1 << 20)
    events = reader.feed(b"Content-Length: 100000000000\r\n\r\n" + request(3)[:-1])
    assert answers(events) == [(3, INVALID_REQUEST)]
    junk = bytes(random.Random(1).randrange(256) for _ in range(CHUNK)).replace(b"n", b"")
    for _ in range(200):  # 12 MB of junk, read without keeping it
        reader.feed(junk)
        assert len(reader._buf) <= len(junk) + 16
        assert len(reader._salvage) <= SALVAGE_BYTES
    events = reader.feed(frame(request(4)))
    assert bodies(events) == [request(4)]


def test_a_message_over_the_limit_is_refused_under_its_id() -> None:
    big = request(5, size=5000)
    events = read(frame(big) + frame(request(6)), limit=1000)
    assert bodies(events) == [request(6)]
    assert answers(events) == [(5, INVALID_REQUEST)]


def test_garbage_and_long_lines_are_skipped() -> None:
    stream = b"\x00\xffjunk\r\nx" * 3 + b"y" * (MAX_HEADER_LINE * 3) + frame(request(1))
    assert bodies(read(stream, chunk=1000)) == [request(1)]
    assert bodies(read(b"garbageContent-Length: 2\r\n\r\n{}")) == [b"{}"]


def test_a_body_without_length_is_answered_under_its_id() -> None:
    events = read(b"Content-Type: x\r\n\r\n" + request(9) + frame(request(10)))
    assert answers(events) == [(9, INVALID_REQUEST)]
    assert bodies(events) == [request(10)]
    # At the end of the stream too.
    assert answers(read(b"\r\n" + request(11))) == []  # blank lines alone start nothing
    assert answers(read(b"X: y\r\n\r\n" + request(11))) == [(11, INVALID_REQUEST)]


def test_an_understated_length_yields_a_broken_body_then_resynchronises() -> None:
    body = request(1)
    events = read(b"Content-Length: 10\r\n\r\n" + body + frame(request(2)))
    assert bodies(events) == [body[:10], request(2)]


def test_salvage_id_reads_only_a_top_level_id() -> None:
    assert salvage_id(b'{"jsonrpc": "2.0", "id": 4, "method": "m"}') == (True, 4)
    assert salvage_id(b'{"jsonrpc":"2.0","id":"a-1","method":"m", "params": {') == (True, "a-1")
    assert salvage_id(b'{"params": {"id": 4}, "method": "m"') == (False, None)
    assert salvage_id(b"no json") == (False, None)


def test_check_message() -> None:
    def check(data: Any) -> tuple[bool, Any, int] | None:
        problem = check_message(data)
        return None if problem is None else (problem.answer, problem.msg_id, problem.code)

    ok = {"jsonrpc": "2.0", "id": 1, "method": "m"}
    assert check(ok) is None
    assert check({"jsonrpc": "2.0", "method": "m"}) is None
    assert check({"jsonrpc": "2.0", "id": 1, "result": None}) is None
    assert check([ok]) == (True, None, INVALID_REQUEST)
    assert check(None) == (True, None, INVALID_REQUEST)
    assert check({**ok, "id": [1]}) == (True, None, INVALID_REQUEST)
    assert check({**ok, "id": True}) == (True, None, INVALID_REQUEST)
    assert check({"id": 3, "method": "m"}) == (True, 3, INVALID_REQUEST)
    assert check({**ok, "method": 3}) == (True, 1, INVALID_REQUEST)
    assert check({"jsonrpc": "2.0", "id": 1}) == (True, 1, INVALID_REQUEST)
    assert check({"method": "m"}) == (False, None, INVALID_REQUEST)  # a notification
    assert check({"jsonrpc": "2.0", "id": [1], "result": 1}) == (False, None, INVALID_REQUEST)
    assert PARSE_ERROR == -32700


def test_an_unframed_response_or_notification_is_never_answered() -> None:
    response = b'{"jsonrpc": "2.0", "id": 3, "result": null}'
    notification = b'{"jsonrpc": "2.0", "method": "m"}'
    for body in (response, notification):
        events = read(b"X: y\r\n\r\n" + body + frame(request(4)))
        assert answers(events) == [] and bodies(events) == [request(4)]


PIECES = [b"Content-Length: ", b"content-length:", b"12", b"0", b"-", b"\r\n", b"\n", b"{", b"}"]
PIECES += [b'"id": 5, ', b"x: ", b" ", b"\xff", b"Content-Type: a\r\n", b"99999999999999999999"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(PIECES), st.binary(max_size=8)), max_size=30),
    st.integers(1, 50),
)
def test_a_valid_request_after_any_garbage_is_read_or_answered(
    garbage: list[bytes], chunk: int
) -> None:
    follower = request(77)
    events = read(b"".join(garbage) + frame(follower), chunk=chunk)
    assert follower in bodies(events) or (77, INVALID_REQUEST) in answers(events), events
