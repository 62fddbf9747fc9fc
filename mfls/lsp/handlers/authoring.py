"""Help while writing a course: code lenses on bindings, inlay hints after reads and
bindings (unless the `inlayHints.enabled` setting is false), interaction snippets after
`?[` (called by `assistance.complete`). Their features are imported at first use, not on
the server's start path (the editor's first problem waits for that start)."""

from __future__ import annotations

from lsprotocol import types as t

from mfls.lsp import from_proto, to_proto
from mfls.lsp.snapshot import Snapshot

CODE_LENS_OPTIONS = t.CodeLensOptions(resolve_provider=False)
INLAY_HINT_OPTIONS = t.InlayHintOptions(resolve_provider=False)


def code_lenses(snap: Snapshot, params: t.CodeLensParams) -> list[t.CodeLens] | None:
    doc = snap.document(params.text_document.uri)
    if doc is None:
        return None
    from mfls.features import code_lens

    found = code_lens.code_lenses(snap.workspace, doc.uri, snap.language)
    return to_proto.code_lenses(snap.convert, doc.uri, doc.index, found)


def hints(snap: Snapshot, params: t.InlayHintParams) -> list[t.InlayHint] | None:
    """The hints in the requested range."""
    if not snap.settings.inlay_hints:
        return []
    span = snap.span(params.text_document.uri, params.range)
    if span is None:
        return None
    from mfls.features import inlay_hints

    found = inlay_hints.inlay_hints(snap.workspace, span.uri, span.start, span.end, snap.language)
    return to_proto.inlay_hints(snap.convert, span.index, found)


def snippet_completion(snap: Snapshot, at: from_proto.Cursor) -> t.CompletionList | None:
    """The interaction snippets when the cursor follows `?[`, else None."""
    from mfls.features import snippets

    found = snippets.interaction_snippets(snap.workspace, at.uri, at.offset)
    if found is None:
        return None
    return to_proto.snippet_completion_list(
        snap.convert, at.index, found, snap.caps.completion_snippets
    )
