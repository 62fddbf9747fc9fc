"""Courses on disk for the rename and code action tests (helpers and fixtures)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from mfls.features.rename import WorkspaceChange
from mfls.syntax.model import ScanResult
from mfls.syntax.scanner import scan
from mfls.text.edits import TextChange, apply_changes
from mfls.text.line_index import Encoding, LineIndex
from mfls.workspace.uris import path_to_uri, uri_to_path
from mfls.workspace.workspace import Workspace


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))


try:
    from mfls.syntax.document import Document
except ImportError:  # until the scanner's incremental model lands: rescan whole texts

    class Document:  # type: ignore[no-redef]
        def __init__(self, text: str, version: int | None = None) -> None:
            self.text = text
            self._result = scan(text)

        def result(self) -> ScanResult:
            return self._result

        def edited(
            self, start: int, end: int, new_text: str, version: int | None = None
        ) -> Document:
            return Document(self.text[:start] + new_text + self.text[end:], version)


def indexed(*folders: Path) -> Workspace:
    workspace = Workspace(document_factory=Document)
    workspace.set_folders([str(f) for f in folders])
    workspace.index_all()
    return workspace


def uri(path: Path) -> str:
    return path_to_uri(str(path))


def applied(change: WorkspaceChange) -> dict[str, str]:
    """uri -> the document's text after the change."""
    return {d.uri: apply_changes(d.text, d.changes) for d in change.documents}


@pytest.fixture
def make_course(tmp_path: Path) -> Callable[..., Path]:
    def make(files: dict[str, str | bytes], name: str = "course") -> Path:
        root = tmp_path / name
        root.mkdir(parents=True, exist_ok=True)
        write_files(root, files)
        return root

    return make


# ----- end to end: a real `python -m mfls` process ------------------------------------

SERVER = [sys.executable, "-m", "mfls"]
TIMEOUT = 20.0


def caps_of(client: str, *, snippets: bool = False) -> t.ClientCapabilities:
    caps = copy.deepcopy(client_capabilities(client))
    if snippets:
        assert caps.workspace is not None and caps.workspace.workspace_edit is not None
        caps.workspace.workspace_edit.snippet_edit_support = True
    return caps


async def wait_until(condition: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the server")
        await asyncio.sleep(0.02)


class Editor:
    """A started client with the texts it has opened, applying edits like an editor."""

    def __init__(self, client: LanguageClient, encoding: Encoding) -> None:
        self.client = client
        self.encoding = encoding
        self.open_texts: dict[str, str] = {}

    def open(self, path: Path, version: int = 1) -> str:
        doc_uri = uri(path)
        text = path.read_bytes().decode("utf-8")
        self.open_texts[doc_uri] = text
        self.client.text_document_did_open(
            t.DidOpenTextDocumentParams(
                text_document=t.TextDocumentItem(
                    uri=doc_uri, language_id="markdown", version=version, text=text
                )
            )
        )
        return doc_uri

    def position(self, doc_uri: str, offset: int) -> t.Position:
        line, character = LineIndex(self.text(doc_uri)).position(offset, self.encoding)
        return t.Position(line=line, character=character)

    def text(self, doc_uri: str) -> str:
        if doc_uri in self.open_texts:
            return self.open_texts[doc_uri]
        path = uri_to_path(doc_uri)
        assert path is not None
        return Path(path).read_bytes().decode("utf-8")

    def offsets(self, doc_uri: str, range_: t.Range) -> tuple[int, int]:
        index = LineIndex(self.text(doc_uri))
        return (
            index.offset(range_.start.line, range_.start.character, self.encoding),
            index.offset(range_.end.line, range_.end.character, self.encoding),
        )

    def applied(self, edit: t.WorkspaceEdit) -> dict[str, str]:
        """uri -> text after the edit (snippet edits applied as their snippet text)."""
        per_doc: dict[str, list[Any]] = {}
        if edit.document_changes is not None:
            for change in edit.document_changes:
                assert isinstance(change, t.TextDocumentEdit)
                per_doc.setdefault(change.text_document.uri, []).extend(change.edits)
        for doc_uri, edits in (edit.changes or {}).items():
            per_doc.setdefault(doc_uri, []).extend(edits)
        result = {}
        for doc_uri, edits in per_doc.items():
            changes = []
            for e in edits:
                start, end = self.offsets(doc_uri, e.range)
                new = e.snippet.value if isinstance(e, t.SnippetTextEdit) else e.new_text
                changes.append(TextChange(start, end, new))
            result[doc_uri] = apply_changes(self.text(doc_uri), changes)
        return result


@contextlib.asynccontextmanager
async def editor(caps: t.ClientCapabilities, *folders: Path) -> AsyncIterator[Editor]:
    client = await ClientServerConfig(server_command=SERVER).start()
    assert isinstance(client, LanguageClient)

    @client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:
        return None

    # The server re-registers its file watchers once it knows the courses' globs.
    @client.feature(t.CLIENT_UNREGISTER_CAPABILITY)
    def unregister(params: t.UnregistrationParams) -> None:
        return None

    try:
        result = await client.initialize_session(
            t.InitializeParams(
                capabilities=caps,
                workspace_folders=[
                    t.WorkspaceFolder(uri=uri(folder), name=folder.name) for folder in folders
                ],
            )
        )
        encoding = Encoding.parse(str(result.capabilities.position_encoding or "utf-16"))
        opened = Editor(client, encoding)

        def indexed() -> bool:
            return any(
                isinstance(value, t.WorkDoneProgressEnd)
                for reports in client.progress_reports.values()
                for value in reports
            )

        await wait_until(indexed)
        yield opened
    finally:
        try:
            await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
        finally:
            await client.stop()
