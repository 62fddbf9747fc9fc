"""Refusals and stale cancel notices are not logged as faults; real faults are."""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from mfls.features.refusal import Refusal
from mfls.lsp.protocol import MflsProtocol
from mfls.lsp.routes import create_server


@pytest.fixture(autouse=True)
def _levels_of_a_fresh_process() -> Any:
    """The levels a server process starts with: an in-process `mfls` command of an earlier
    test (tests/rename) sets the `mfls` and `pygls` loggers' own levels."""
    loggers = [logging.getLogger(name) for name in ("mfls", "pygls")]
    saved = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.NOTSET)
    yield
    for logger, level in zip(loggers, saved, strict=True):
        logger.setLevel(level)


def frame(message: dict[str, Any]) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def answers(stdout: bytes) -> list[dict[str, Any]]:
    messages = []
    while stdout:
        header, _, rest = stdout.partition(b"\r\n\r\n")
        length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
        messages.append(json.loads(rest[:length]))
        stdout = rest[length:]
    return messages


def test_prepare_rename_refusal_and_stale_cancel_are_quiet(tmp_path: Path) -> None:
    uri = (tmp_path / "a.md").as_uri()
    session = [
        {"id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}},
        {"method": "initialized", "params": {}},
        {
            "method": "textDocument/didOpen",
            "params": {
                "textDocument": {
                    "uri": uri,
                    "languageId": "markdown",
                    "version": 1,
                    "text": "Plain words here.\n\n{{ colour }}\n",
                }
            },
        },
        {
            "id": 2,
            "method": "textDocument/prepareRename",
            "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2}},
        },
        {"method": "$/cancelRequest", "params": {"id": 2}},
        {"method": "$/cancelRequest", "params": {"id": 99}},
        {"id": 3, "method": "shutdown"},
        {"method": "exit"},
    ]
    done = subprocess.run(
        [sys.executable, "-m", "mfls", "serve"],
        input=b"".join(frame(message) for message in session),
        capture_output=True,
        timeout=60,
        check=False,
    )
    stderr = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, stderr
    replies = answers(done.stdout)
    [refusal] = [reply for reply in replies if reply.get("id") == 2]
    assert refusal["error"]["code"] == -32803
    assert "Traceback" not in stderr and "Cancel notification" not in stderr, stderr
    logged = [r for r in replies if r.get("method") in ("window/logMessage", "window/showMessage")]
    assert logged == []


@pytest.fixture
def protocol() -> MflsProtocol:
    server = create_server()
    assert isinstance(server.protocol, MflsProtocol)
    return server.protocol


def _answered(
    protocol: MflsProtocol, outcome: Exception | Refusal, monkeypatch: pytest.MonkeyPatch
) -> Any:
    sent: list[Any] = []
    monkeypatch.setattr(
        protocol, "_send_response", lambda msg_id, result=None, error=None: sent.append(error)
    )
    future: Future[Any] = Future()
    if isinstance(outcome, Refusal):
        future.set_result(outcome)
    else:
        future.set_exception(outcome)
    protocol._send_handler_result(future, msg_id=7)
    [answer] = sent
    return answer


@pytest.mark.parametrize(
    ("refusal", "code"), [(Refusal("not here"), -32803), (Refusal("not here", stale=True), -32801)]
)
def test_a_refusal_is_answered_and_logged_at_debug(
    protocol: MflsProtocol,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    refusal: Refusal,
    code: int,
) -> None:
    with caplog.at_level(logging.DEBUG):
        answer = _answered(protocol, refusal, monkeypatch)
    assert (answer.code, answer.message) == (code, "not here")
    assert [record.levelno for record in caplog.records] == [logging.DEBUG]


def test_a_real_failure_keeps_its_traceback_at_error_level(
    protocol: MflsProtocol, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        answer = _answered(protocol, RuntimeError("broken"), monkeypatch)
    assert answer.code == -32603
    faults = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert faults and faults[0].exc_info is not None


def test_a_cancel_for_an_unknown_request_is_debug(
    protocol: MflsProtocol, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        protocol._handle_cancel_notification(42)
    assert [record.levelno for record in caplog.records] == [logging.DEBUG]


async def test_a_cancel_for_a_pending_request_still_cancels_it(protocol: MflsProtocol) -> None:
    pending = asyncio.get_running_loop().create_future()
    protocol._request_futures[5] = pending
    protocol._handle_cancel_notification(5)
    assert pending.cancelled()
