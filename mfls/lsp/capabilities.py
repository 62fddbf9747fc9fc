"""What the client can do, read once from `initialize` into one frozen object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lsprotocol import types as t
from pygls.capabilities import ServerCapabilitiesBuilder

from mfls.text.line_index import Encoding


@dataclass(frozen=True, slots=True)
class Capabilities:
    """The client capabilities mfls acts on. The defaults are a client that declares
    nothing: UTF-16 positions, push diagnostics, plain `changes` edits."""

    encoding: Encoding = Encoding.UTF16
    work_done_progress: bool = False
    configuration: bool = False
    watch_registration: bool = False  # dynamic registration of didChangeWatchedFiles
    watch_relative_patterns: bool = False
    pull_diagnostics: bool = False
    diagnostic_versions: bool = False  # publishDiagnostics.versionSupport: old ones dropped
    diagnostics_refresh: bool = False
    lazy_completion_documentation: bool = False  # documentation via completionItem/resolve
    completion_label_details: bool = False  # CompletionItem.labelDetails
    completion_snippets: bool = False  # snippet completion items
    definition_links: bool = False
    declaration_links: bool = False
    hierarchical_symbols: bool = False
    document_changes: bool = False  # WorkspaceEdit.documentChanges
    snippet_edits: bool = False  # SnippetTextEdit inside documentChanges
    change_annotations: bool = False  # annotated edits inside documentChanges
    code_lens_refresh: bool = False  # workspace/codeLens/refresh
    inlay_hint_refresh: bool = False  # workspace/inlayHint/refresh

    @classmethod
    def read(cls, caps: t.ClientCapabilities) -> Capabilities:
        chosen = ServerCapabilitiesBuilder.choose_position_encoding(caps)
        text = caps.text_document
        workspace = caps.workspace
        watched = workspace.did_change_watched_files if workspace else None
        edits = workspace.workspace_edit if workspace else None
        completion_item = text.completion.completion_item if text and text.completion else None
        resolvable = _get(completion_item, "resolve_support", "properties") or ()
        document_changes = bool(edits and edits.document_changes)
        return cls(
            encoding=Encoding.parse(getattr(chosen, "value", chosen)),
            work_done_progress=bool(_get(caps.window, "work_done_progress")),
            configuration=bool(workspace and workspace.configuration),
            watch_registration=bool(watched and watched.dynamic_registration),
            watch_relative_patterns=bool(watched and watched.relative_pattern_support),
            pull_diagnostics=text is not None and text.diagnostic is not None,
            diagnostic_versions=bool(_get(text, "publish_diagnostics", "version_support")),
            diagnostics_refresh=bool(_get(workspace, "diagnostics", "refresh_support")),
            lazy_completion_documentation="documentation" in resolvable,
            completion_label_details=bool(_get(completion_item, "label_details_support")),
            completion_snippets=bool(_get(completion_item, "snippet_support")),
            definition_links=bool(_get(text, "definition", "link_support")),
            declaration_links=bool(_get(text, "declaration", "link_support")),
            hierarchical_symbols=bool(
                _get(text, "document_symbol", "hierarchical_document_symbol_support")
            ),
            document_changes=document_changes,
            snippet_edits=document_changes and bool(edits and edits.snippet_edit_support),
            change_annotations=document_changes and bool(edits and edits.change_annotation_support),
            code_lens_refresh=bool(_get(workspace, "code_lens", "refresh_support")),
            inlay_hint_refresh=bool(_get(workspace, "inlay_hint", "refresh_support")),
        )


def _get(root: Any, *names: str) -> Any:
    """A nested optional member, None where any step is absent."""
    for name in names:
        if root is None:
            return None
        root = getattr(root, name, None)
    return root
