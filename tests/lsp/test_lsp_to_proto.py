"""Plain feature results -> LSP types, and the front end's one failure policy: a fault is
an InternalError answer logged once, a cancelled DISK request never runs."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

import pytest
from lsprotocol import types as t

from mfls.features import rename as rn
from mfls.features.completion import Completion, CompletionItem
from mfls.features.diagnostics import DEPRECATED, Diagnostic
from mfls.features.refusal import Refusal
from mfls.lsp import to_proto
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.documents import OpenBuffer, Texts
from mfls.lsp.faults import Fault
from mfls.lsp.routes import Mode, Route, answering, create_server, install
from mfls.lsp.sync import SyncServer
from mfls.text.edits import TextChange
from mfls.text.line_index import Encoding, LineIndex

TEXT = "😀 {{ x }}\nline two\n"
URI = "file:///c/a.md"
OTHER = "file:///c/b.md"


def converter(encoding: Encoding = Encoding.UTF16) -> to_proto.Converter:
    texts = Texts(lambda uri: "other\n" if uri == OTHER else None)
    texts.open[URI] = OpenBuffer("file:///c/A.md", 4, LineIndex(TEXT))
    return to_proto.Converter(texts, encoding)


def test_diagnostic_keeps_code_severity_tags_and_related_places() -> None:
    convert = converter()
    item = Diagnostic(
        "legacy-binding",
        "hint",
        2,
        9,
        "old form",
        related=((OTHER, 0, 5, "there"), ("file:///gone.md", 0, 1, "dropped")),
        tags=(DEPRECATED,),
    )
    found = to_proto.diagnostic(convert, LineIndex(TEXT), item)
    assert found.range == t.Range(
        start=t.Position(line=0, character=3), end=t.Position(line=0, character=10)
    )
    assert (found.code, found.severity, found.source) == (
        "legacy-binding",
        t.DiagnosticSeverity.Hint,
        "mfls",
    )
    assert found.tags == [t.DiagnosticTag.Deprecated]
    [related] = found.related_information or []
    assert related.location.uri == OTHER and related.message == "there"


def test_positions_follow_the_encoding() -> None:
    for encoding, character in ((Encoding.UTF16, 3), (Encoding.UTF8, 5), (Encoding.UTF32, 2)):
        assert converter(encoding).position(LineIndex(TEXT), 2).character == character


def test_completion_list_defers_documentation_with_data_to_find_it_again() -> None:
    item = CompletionItem("x", "1", "bound in a", "**x**", "bound")
    result = Completion(2, 9, [item])
    lazy = to_proto.completion_list(converter(), URI, 5, LineIndex(TEXT), result, True)
    [sent] = lazy.items
    assert sent.documentation is None
    assert sent.data == {"uri": URI, "offset": 5, "key": "x"}
    assert to_proto.resolve_completion(sent, "**x**").documentation == t.MarkupContent(
        kind=t.MarkupKind.Markdown, value="**x**"
    )
    eager = to_proto.completion_list(converter(), URI, 5, LineIndex(TEXT), result, False)
    assert eager.items[0].data is None and eager.items[0].documentation is not None


def test_tokens_are_split_at_line_ends_and_relative() -> None:
    text = "ab\ncd\n"
    data = to_proto.encode_tokens(converter(), LineIndex(text), [(1, 5, 2, 1)])
    assert data == [0, 1, 1, 2, 1, 1, 0, 2, 2, 1]


def test_refusal_error_codes() -> None:
    assert to_proto.refusal_error(Refusal("no")) == t.ResponseError(code=-32803, message="no")
    stale = to_proto.refusal_error(Refusal("later", stale=True))
    assert (stale.code, stale.message) == (-32801, "later")


def test_result_id_is_equal_exactly_for_equal_diagnostics() -> None:
    writer = to_proto.DiagnosticWriter(converter())

    def texts(*items: Diagnostic) -> list[str]:
        return writer.texts(LineIndex(TEXT), items)

    one = texts(Diagnostic("c", "error", 0, 1, "m"))
    assert to_proto.result_id(one) == to_proto.result_id(texts(Diagnostic("c", "error", 0, 1, "m")))
    assert to_proto.result_id(one) != to_proto.result_id(texts(Diagnostic("c", "error", 0, 2, "m")))
    assert to_proto.result_id(one) != to_proto.result_id(texts(Diagnostic("c", "error", 0, 1, "n")))
    assert to_proto.result_id([]) != to_proto.result_id(one)
    two = texts(Diagnostic("c", "error", 0, 1, "m"), Diagnostic("c", "error", 0, 1, "m"))
    assert to_proto.result_id(two) != to_proto.result_id(one)


def test_an_edit_of_a_changed_buffer_is_a_stale_refusal() -> None:
    convert = converter()
    builder = to_proto.EditBuilder(convert.texts, Capabilities())
    change = rn.WorkspaceChange(
        documents=(rn.DocumentChange(URI, None, 4, "an older text", (TextChange(0, 1, "A"),)),)
    )
    refusal = builder.edit(change)
    assert isinstance(refusal, Refusal) and refusal.stale
    current = rn.WorkspaceChange(
        documents=(rn.DocumentChange(URI, None, 4, TEXT, (TextChange(0, 1, "A"),)),)
    )
    edit = builder.edit(current)
    assert isinstance(edit, t.WorkspaceEdit) and edit.changes is not None
    assert list(edit.changes) == ["file:///c/A.md"]  # the client's spelling of the URI


def test_capabilities_are_read_once_into_plain_flags() -> None:
    from pytest_lsp import client_capabilities

    vscode = Capabilities.read(client_capabilities("visual-studio-code"))
    assert vscode.encoding is Encoding.UTF16
    assert vscode.lazy_completion_documentation and vscode.document_changes
    assert vscode.hierarchical_symbols and vscode.definition_links
    assert Capabilities.read(t.ClientCapabilities()) == Capabilities()


def _boom(ls: Any, params: Any) -> Any:
    raise RuntimeError("broken")


async def _async_boom(state: Any, plumbing: Any, params: Any) -> Any:
    raise RuntimeError("broken")


def test_a_fault_is_an_internal_error_and_one_log_line_with_its_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = create_server()
    run = answering(
        server, Route("textDocument/hover", _boom, Mode.READ, empty=lambda params: "empty")
    )
    with caplog.at_level(logging.DEBUG, logger="mfls"):
        fault = run("params")
    assert isinstance(fault, Fault)
    error = fault.error()
    assert error.code == t.ErrorCodes.InternalError == -32603
    assert error.message.startswith("textDocument/hover failed: RuntimeError: broken")
    [record] = [r for r in caplog.records if r.name == "mfls"]
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert "textDocument/hover" in record.getMessage()


async def test_an_async_fault_in_a_notification_answers_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = create_server()
    run = answering(server, Route("workspace/didChangeConfiguration", _async_boom, Mode.MUTATE))
    with caplog.at_level(logging.DEBUG, logger="mfls"):
        assert await run("params") is None
    assert len([r for r in caplog.records if r.exc_info is not None]) == 1


async def test_an_async_fault_in_a_request_is_an_internal_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    run = answering(create_server(), Route("workspace/willRenameFiles", _async_boom, Mode.MUTATE))
    with caplog.at_level(logging.DEBUG, logger="mfls"):
        fault = await run("params")
    assert isinstance(fault, Fault) and fault.error().code == -32603
    assert len([r for r in caplog.records if r.exc_info is not None]) == 1


def test_a_command_that_raises_is_an_internal_error() -> None:
    route = Route("mfls.courseInfo", _boom, Mode.READ, command=True)
    fault = answering(create_server(), route)("file:///c/a.md")
    assert isinstance(fault, Fault) and fault.method == "mfls.courseInfo"


def test_a_request_whose_handler_raises_is_answered_internal_error_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """In memory, through the protocol: the client gets -32603 with the method's name,
    and the log one record (pygls's own report of a failure stays silent)."""
    sync = SyncServer()
    install(sync.server, [Route(t.TEXT_DOCUMENT_DOCUMENT_COLOR, _boom, Mode.READ)])
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize"}
    sync.handle_json({**hello, "params": {"processId": None, "capabilities": {}}})
    asked = {"textDocument": {"uri": URI}}
    request = {"jsonrpc": "2.0", "id": 2, "method": t.TEXT_DOCUMENT_DOCUMENT_COLOR}
    with caplog.at_level(logging.DEBUG):
        sent = sync.handle_json({**request, "params": asked})
    [answer] = [m for m in sent if m.get("id") == 2]
    assert "result" not in answer
    assert answer["error"]["code"] == -32603
    assert answer["error"]["message"].startswith(f"{t.TEXT_DOCUMENT_DOCUMENT_COLOR} failed:")
    [record] = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert record.name == "mfls" and record.exc_info is not None
    assert not [m for m in sent if m.get("method") == t.WINDOW_SHOW_MESSAGE]


async def test_a_cancelled_disk_request_queued_behind_the_worker_never_runs() -> None:
    """The worker is busy (indexing, say) when a DISK request comes; the client cancels
    it before the worker is free: the handler is never called."""
    server = create_server()
    server.started()
    ran: list[Any] = []
    route = Route("textDocument/rename", lambda snap, files, params: ran.append(params), Mode.DISK)
    run = answering(server, route)
    busy, free = threading.Event(), threading.Event()

    def occupy() -> None:
        busy.set()
        free.wait(10)

    occupying = asyncio.ensure_future(server.on_worker(occupy))
    assert await asyncio.to_thread(busy.wait, 10)
    queued = asyncio.ensure_future(run("params"))
    await asyncio.sleep(0.01)  # the request reaches the worker's queue
    assert queued.cancel()
    free.set()
    await occupying
    with pytest.raises(asyncio.CancelledError):
        await queued
    await server.on_worker(lambda: None)  # whatever was queued has had its turn
    assert ran == []
    server.stop_worker()


def test_a_refusal_is_returned_as_it_is() -> None:
    refusal = Refusal("not here")
    run = answering(
        create_server(),
        Route("textDocument/prepareRename", lambda snap, params: refusal, Mode.READ),
    )
    assert run(None) is refusal
