"""What one request sees: a frozen `Snapshot` of the server's state.

`ServerState.snapshot()` (`mfls.lsp.state`) makes one per request, in O(1): the workspace
snapshot, the open buffers as of that moment (a mapping the state replaces, never
changes), the settings, the client's capabilities and the language of messages. A READ
handler (`mfls.lsp.routes`) gets nothing else, so everything it answers is computed on
one moment's texts, and its positions are converted in exactly those texts: an open
buffer's as the snapshot holds it, a closed document's as its workspace snapshot holds it,
whatever has changed since.

Nothing here changes the server; the line indexes of closed documents and the diagnostics
made are memos that snapshots share (a memo answers only for the very text or workspace
snapshot it was built from).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lsprotocol import types as t

from mfls.lsp import from_proto
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.diagnostic_memo import DiagnosticMemo, reported_documents
from mfls.lsp.documents import OpenBuffer, Texts
from mfls.lsp.positions import Converter
from mfls.lsp.settings import Settings
from mfls.lsp.workspace_edits import EditBuilder
from mfls.text.line_index import LineIndex
from mfls.workspace.index import WorkspaceSnapshot


@dataclass(frozen=True, slots=True)
class Snapshot:
    workspace: WorkspaceSnapshot
    texts: Texts  # the open buffers of this moment, then the workspace snapshot's texts
    caps: Capabilities
    settings: Settings
    language: str  # of messages: the `locale` setting, else the client's
    json_ready: bool  # the wire converter sends `JsonReady` dicts as they are
    diagnostics_memo: DiagnosticMemo
    convert: Converter  # offsets -> positions in `texts`, in the negotiated encoding

    @staticmethod
    def of(
        workspace: WorkspaceSnapshot,
        buffers: Mapping[str, OpenBuffer],
        caps: Capabilities,
        settings: Settings,
        language: str,
        *,
        json_ready: bool = False,
        diagnostics_memo: DiagnosticMemo | None = None,
        indexes: dict[str, LineIndex] | None = None,
    ) -> Snapshot:
        """The snapshot of these values; `indexes`: a line index cache to share."""

        def indexed_text(uri: str) -> str | None:
            found = workspace.entry(uri)
            return None if found is None else found[1].text

        texts = Texts(indexed_text, buffers, indexes)
        return Snapshot(
            workspace=workspace,
            texts=texts,
            caps=caps,
            settings=settings,
            language=language,
            json_ready=json_ready,
            diagnostics_memo=DiagnosticMemo() if diagnostics_memo is None else diagnostics_memo,
            convert=Converter(texts, caps.encoding),
        )

    @property
    def buffers(self) -> Mapping[str, OpenBuffer]:
        return self.texts.open

    def index(self, uri: str) -> LineIndex | None:
        """The line index of the text at canonical `uri` in this snapshot."""
        return self.texts.index(uri)

    def client_uri(self, uri: str) -> str:
        """`uri` as the client spelled it when it opened the document."""
        return self.texts.client_uri(uri)

    def document(self, uri: str) -> from_proto.Document | None:
        """The text at `uri` (as the client spells it), or None when this snapshot has none."""
        return from_proto.document(self.texts, uri)

    def cursor(self, uri: str, position: t.Position) -> from_proto.Cursor | None:
        return from_proto.cursor(self.texts, self.caps.encoding, uri, position)

    def span(self, uri: str, range_: t.Range | None) -> from_proto.Span | None:
        """The range's offsets (the whole text when `range_` is None)."""
        return from_proto.span(self.texts, self.caps.encoding, uri, range_)

    def edits(self) -> EditBuilder:
        """A builder of workspace edits for this client, against this snapshot's buffers."""
        return EditBuilder(self.texts, self.caps, json_ready=self.json_ready)

    def diagnostics(self, uri: str) -> list[str]:
        """The diagnostics of canonical `uri` as JSON texts (`DiagnosticMemo`)."""
        memo = self.diagnostics_memo
        return memo.of(self.workspace, self.language, self.texts, self.convert, uri)

    def reported_documents(self, course_ids: frozenset[str] | None = None) -> list[str]:
        """Every lesson and reference of the courses (all when None), then each course
        file with problems (`diagnostic_memo.reported_documents`)."""
        return reported_documents(self.workspace, course_ids)
