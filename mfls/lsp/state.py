"""`ServerState`: the front end's one mutable object.

It holds the course workspace (which holds the open buffers), the settings, the
client's capabilities and locale, the workspace folders and the renames waiting to be
seen applied. Only MUTATE and DISK handlers (`mfls.lsp.routes`) and the server's
plumbing change it; a READ handler gets a `Snapshot` of it (`snapshot()`, O(1): the open
buffers are a mapping that each change replaces, never updates, so a snapshot keeps the
buffers of its moment).
"""

from __future__ import annotations

from collections.abc import Mapping

from mfls.features import rename_record as rr
from mfls.features.messages import AUTO, language_of
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.diagnostic_memo import DiagnosticMemo
from mfls.lsp.documents import OpenBuffer
from mfls.lsp.settings import Settings
from mfls.lsp.snapshot import Snapshot
from mfls.text.line_index import LineIndex
from mfls.workspace.workspace import Workspace


class ServerState:
    def __init__(
        self,
        workspace: Workspace,
        diagnostics_memo: DiagnosticMemo | None = None,
        *,
        json_ready: bool = False,
    ) -> None:
        self.workspace = workspace
        self.caps = Capabilities()  # replaced once, by `initialize`
        self.settings = Settings()
        self.client_locale: str | None = None  # `locale` of `initialize`
        self.folders: list[str] = []
        self.pending_renames = rr.PendingRenames()
        """The editor's renames not yet seen applied (`editing.rename` adds them)."""
        self.json_ready = json_ready
        self._indexes: dict[str, LineIndex] = {}  # closed documents' (`documents.Texts`)
        self._diagnostics_memo = diagnostics_memo or DiagnosticMemo()

    @property
    def buffers(self) -> Mapping[str, OpenBuffer]:
        """The open buffers by canonical URI, in the order they were opened: the
        workspace's, held there once (`Workspace.buffers`)."""
        return self.workspace.buffers

    def forget_index(self, uri: str) -> None:
        """Drop the line index kept for `uri` as a closed document (it was closed)."""
        self._indexes.pop(uri, None)

    @property
    def language(self) -> str:
        """The language of messages: the `locale` setting, else the client's locale."""
        chosen = self.settings.locale
        return language_of(self.client_locale) if chosen == AUTO else chosen

    def snapshot(self, shared_indexes: bool = True) -> Snapshot:
        """What a request sees of the state now, frozen (`mfls.lsp.snapshot`); without
        `shared_indexes` it keeps its closed documents' line indexes to itself (a
        snapshot used on the worker thread)."""
        return Snapshot.of(
            self.workspace.snapshot,
            self.workspace.buffers,
            self.caps,
            self.settings,
            self.language,
            json_ready=self.json_ready,
            diagnostics_memo=self._diagnostics_memo,
            indexes=self._indexes if shared_indexes else None,
        )
