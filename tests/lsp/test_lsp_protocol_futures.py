"""The protocol keeps no Future past its message: none per notification, none per
generator step, none for a request the server sent once it is answered or given up on."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from lsprotocol import types as t

from mfls.lsp.routes import create_server

URI = "file:///futures/a.md"


class Sink:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def write(self, data: bytes) -> None:
        self.sent.append(json.loads(data.split(b"\r\n\r\n", 1)[1]))

    def close(self) -> None:
        pass


@pytest.fixture(autouse=True)
def logger_levels() -> Iterator[None]:
    """`initialize` sets the levels of the mfls and pygls loggers: put them back."""
    loggers = [logging.getLogger(name) for name in ("mfls", "pygls")]
    levels = [logger.level for logger in loggers]
    yield
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


def body(message: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **message}).encode()


def deliver(protocol: Any, data: bytes) -> None:
    """What pygls's own reader does with a body (so that this runs on any reader)."""
    protocol.handle_message(json.loads(data, object_hook=protocol.structure_message))


async def test_notifications_and_requests_leave_no_future_behind() -> None:
    server = create_server()
    protocol = server.protocol
    sink = Sink()
    protocol.set_writer(sink)
    params = {"processId": None, "capabilities": {}}
    deliver(protocol, body({"id": 1, "method": "initialize", "params": params}))
    deliver(protocol, body({"method": "initialized", "params": {}}))
    await asyncio.sleep(0.1)
    before = set(protocol._request_futures)
    item = {"uri": URI, "languageId": "markdown", "version": 1, "text": "{{ a }}\n"}
    for k in range(200):
        deliver(
            protocol, body({"method": "textDocument/didOpen", "params": {"textDocument": item}})
        )
        change = {"textDocument": {"uri": URI, "version": k + 2}, "contentChanges": [{"text": "b"}]}
        deliver(protocol, body({"method": "textDocument/didChange", "params": change}))
        close = {"textDocument": {"uri": URI}}
        deliver(protocol, body({"method": "textDocument/didClose", "params": close}))
        deliver(
            protocol, body({"id": 100 + k, "method": "workspace/symbol", "params": {"query": "a"}})
        )
    await asyncio.sleep(0.1)
    assert set(protocol._request_futures) == before
    assert {m.get("id") for m in sink.sent} >= set(range(100, 300))


async def test_a_request_the_server_sent_is_forgotten_when_answered_or_given_up() -> None:
    server = create_server()
    protocol = server.protocol
    sink = Sink()
    protocol.set_writer(sink)
    params = t.ConfigurationParams(items=[t.ConfigurationItem(section="mfls")])
    answered = protocol.send_request(t.WORKSPACE_CONFIGURATION, params)
    failed = protocol.send_request(t.WORKSPACE_CONFIGURATION, params)
    abandoned = protocol.send_request(t.WORKSPACE_CONFIGURATION, params)
    first, second, _ = (m["id"] for m in sink.sent if "id" in m)
    deliver(protocol, body({"id": first, "result": [None]}))
    deliver(protocol, body({"id": second, "error": {"code": -32601, "message": "no"}}))
    abandoned.cancel()
    assert answered.done() and failed.done()
    assert protocol._request_futures == {} and protocol._result_types == {}


def test_shutdown_cancels_pending_requests_that_forget_themselves() -> None:
    """Cancelling a request the server sent runs its callback, which forgets it: pygls's
    own shutdown iterated the live dict and raised "dictionary changed size"."""
    from concurrent.futures import Future

    from mfls.lsp.routes import create_server

    protocol = create_server().protocol
    pending = []
    for number in range(5):
        future: Future[object] = Future()
        protocol._request_futures[f"sent-{number}"] = future
        future.add_done_callback(lambda _done, n=number: protocol._forget(f"sent-{n}"))
        pending.append(future)
    steps = protocol.lsp_shutdown()
    for _step in steps:
        pass
    assert protocol._shutdown
    assert all(future.cancelled() for future in pending)
    assert protocol._request_futures == {}
