"""The server as a process: progress while indexing, TCP, survival. Its settings are
tested in process, in tests/handlers/test_handlers_settings.py."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import socket
import subprocess
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as t
from pygls.exceptions import JsonRpcInvalidParams

from tests.kit.files import write_files
from tests.kit.lsp_client import SERVER, Session, capabilities, session, uri_of
from tests.kit.sockets import receive_until


async def test_initial_indexing_reports_progress_and_requests_are_answered(
    tmp_path: Path,
) -> None:
    files = {f"lessons/{n:03d}.md": f"# L{n}\n\n?[{{{{ k{n} }}}} A | B]\n" for n in range(450)}
    write_files(tmp_path, files)
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        # A request sent while indexing runs is answered (possibly before the index is whole).
        hover = s.client.text_document_hover_async(
            t.HoverParams(
                text_document=t.TextDocumentIdentifier(uri=uri_of(tmp_path / "lessons/000.md")),
                position=t.Position(line=2, character=5),
            )
        )
        await asyncio.wait_for(hover, 20)
        await s.indexed()
        (token,) = [k for k, v in s.client.progress_reports.items() if v]
        kinds = [type(v).__name__ for v in s.client.progress_reports[token]]
        assert kinds[0] == "WorkDoneProgressBegin"
        assert kinds[-1] == "WorkDoneProgressEnd"
        reports = [
            v for v in s.client.progress_reports[token] if isinstance(v, t.WorkDoneProgressReport)
        ]
        # One report per 200 files, and the last one.
        assert [r.message for r in reports] == ["200/450 files", "400/450 files", "450/450 files"]
        assert reports[-1].percentage == 100
        found = await s.client.workspace_symbol_async(t.WorkspaceSymbolParams(query="k449"))
        assert [x.name for x in found or []] == ["k449"]


async def test_broken_requests_do_not_kill_the_server(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.md": "?[{{ q }} A | B]\n"})
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        await s.indexed()
        uri = s.open(tmp_path / "a.md")
        # A change to a document that was never opened, and a close of one: ignored.
        s.client.text_document_did_change(
            t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri="file:///nope.md", version=3),
                content_changes=[t.TextDocumentContentChangeWholeDocument(text="x")],
            )
        )
        s.close("file:///never-opened.md")
        # A non-Markdown document is not taken in.
        s.open(tmp_path / "script.py", "print('{{ q }}')\n", language="python")
        # A whole-document replacement after incremental ones.
        s.change(uri, [t.TextDocumentContentChangeWholeDocument(text="{{ }}\n")])
        items = await s.pushed(uri, lambda d: [x.code for x in d] == ["marker-empty"])
        assert items[0].range.end == t.Position(line=0, character=5)
        tokens = await s.client.text_document_semantic_tokens_full_async(
            t.SemanticTokensParams(
                text_document=t.TextDocumentIdentifier(uri=uri_of(tmp_path / "script.py"))
            )
        )
        assert tokens is not None and list(tokens.data) == []
        # An unsaved buffer is a course of its own.
        untitled = "untitled:Untitled-1"
        s.versions[untitled] = 1
        s.client.text_document_did_open(
            t.DidOpenTextDocumentParams(
                text_document=t.TextDocumentItem(
                    uri=untitled, language_id="markdownflow", version=1, text="Use {{ q }}.\n"
                )
            )
        )
        found = await s.pushed(untitled, lambda d: len(d) == 1)
        assert found[0].code == "unbound-reference"


def test_version_and_tcp(tmp_path: Path) -> None:
    done = subprocess.run([*SERVER, "--version"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0
    assert done.stdout.startswith("mfls ")

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [*SERVER, "serve", "--tcp", f"127.0.0.1:{port}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        body = (
            '{"jsonrpc":"2.0","id":1,"method":"initialize",'
            '"params":{"processId":null,"rootUri":null,"capabilities":{}}}'
        )
        message = f"Content-Length: {len(body)}\r\n\r\n{body}".encode()
        for _ in range(100):
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=10)
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the TCP server did not start")
        with connection:
            connection.sendall(message)
            received = receive_until(connection, b'"serverInfo"')
        assert b'"name": "mfls"' in received or b'"name":"mfls"' in received
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert server.stdout is not None
    assert server.stdout.read() == b"", "TCP mode writes nothing to stdout"


def raw_send(s: Session, message: dict[str, Any]) -> None:
    """Bytes on the wire, past the client's typed serialization."""
    body = json.dumps(message).encode()
    writer = s.client.protocol.writer
    assert writer is not None
    writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)


def raw_request(s: Session, method: str, params: Any) -> asyncio.Future[Any]:
    msg_id = f"raw-{uuid.uuid4()}"
    future: concurrent.futures.Future[Any] = concurrent.futures.Future()
    s.client.protocol._request_futures[msg_id] = future
    raw_send(s, {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
    return asyncio.wrap_future(future)


async def test_malformed_params_are_answered_invalid_params(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.md": "?[{{ q }} A | B]\n"})
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        uri = s.open(tmp_path / "a.md")
        for params in (
            {"textDocument": {"uri": uri}, "position": {"line": -1, "character": -5}},
            {"textDocument": {"uri": uri}},
            None,
        ):
            with pytest.raises(JsonRpcInvalidParams):
                await asyncio.wait_for(raw_request(s, "textDocument/hover", params), 10)
        # A malformed notification is ignored, and the server still answers.
        raw_send(s, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"x": 5}})
        hover = await s.client.text_document_hover_async(
            t.HoverParams(
                text_document=t.TextDocumentIdentifier(uri=uri),
                position=t.Position(line=0, character=5),
            )
        )
        assert hover is not None
        assert not s.client.messages, "nothing to show the user"
