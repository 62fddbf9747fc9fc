"""Help while reading and typing: hover, completion (and its lazy resolve), semantic
tokens. The hover and completion features are imported at their first use, not on the
server's start path (the editor's first problem waits for that start)."""

from __future__ import annotations

from typing import Any

from lsprotocol import types as t

from mfls.features import semantic_tokens
from mfls.lsp import to_proto
from mfls.lsp.handlers import authoring
from mfls.lsp.snapshot import Snapshot

COMPLETION_LIMIT = 100  # items per answer; past it the list is incomplete and re-asked

TOKENS_LEGEND = t.SemanticTokensLegend(
    token_types=list(semantic_tokens.TOKEN_TYPES),
    token_modifiers=list(semantic_tokens.TOKEN_MODIFIERS),
)


def on_hover(snap: Snapshot, params: t.HoverParams) -> t.Hover | None:
    at = snap.cursor(params.text_document.uri, params.position)
    if at is None:
        return None
    from mfls.features import hover

    info = hover.hover(snap.workspace, at.uri, at.offset, snap.language)
    return None if info is None else to_proto.hover(snap.convert, at.index, info)


# `{` and `[` open a marker and an interaction, `/` (of `//`) an option's value; a space
# typed inside an open `{{` asks again (VS Code closes its list at a space): elsewhere a
# space gets no list.
COMPLETION_OPTIONS = t.CompletionOptions(
    trigger_characters=["{", "[", " ", "/"], resolve_provider=True
)


def complete(snap: Snapshot, params: t.CompletionParams) -> t.CompletionList | None:
    at = snap.cursor(params.text_document.uri, params.position)
    if at is None:
        return None
    interaction_snippets = authoring.snippet_completion(snap, at)
    if interaction_snippets is not None:
        return interaction_snippets
    from mfls.features import completion

    result = completion.complete(
        snap.workspace, at.uri, at.offset, limit=COMPLETION_LIMIT, language=snap.language
    )
    if result is None:
        return None
    caps = snap.caps
    lazy, details, snippets = (
        caps.lazy_completion_documentation,
        caps.completion_label_details,
        caps.completion_snippets,
    )
    return to_proto.completion_list(
        snap.convert, at.uri, at.offset, at.index, result, lazy, details, snippets
    )


def resolve_completion(snap: Snapshot, item: t.CompletionItem) -> t.CompletionItem:
    """The documentation `complete` left out, found again from the item's `data` in the
    current snapshot (nothing is remembered between the two requests)."""
    data: Any = item.data
    if not isinstance(data, dict):
        return item
    uri, offset, key = data.get("uri"), data.get("offset"), data.get("key")
    if not (isinstance(uri, str) and isinstance(offset, int) and isinstance(key, str)):
        return item
    from mfls.features import completion

    result = completion.complete(snap.workspace, uri, offset, language=snap.language)
    if result is None:
        return item
    documentation = next((i.documentation for i in result.items if i.key == key), None)
    return to_proto.resolve_completion(item, documentation)


def tokens_full(snap: Snapshot, params: t.SemanticTokensParams) -> t.SemanticTokens:
    return _tokens(snap, params.text_document, None)


def tokens_range(snap: Snapshot, params: t.SemanticTokensRangeParams) -> t.SemanticTokens:
    return _tokens(snap, params.text_document, params.range)


def no_tokens(params: Any) -> t.SemanticTokens:
    return t.SemanticTokens(data=[])


def _tokens(
    snap: Snapshot, document: t.TextDocumentIdentifier, range_: t.Range | None
) -> t.SemanticTokens:
    span = snap.span(document.uri, range_)
    if span is None:
        return no_tokens(None)
    start, end = (None, None) if range_ is None else (span.start, span.end)
    found = semantic_tokens.tokens(snap.workspace, span.uri, start, end)
    spans = [(x.start, x.start + x.length, x.type, x.modifiers) for x in found]
    return t.SemanticTokens(data=to_proto.encode_tokens(snap.convert, span.index, spans))
