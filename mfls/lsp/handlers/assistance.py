"""Help while reading and typing: hover, completion (and its lazy resolve), semantic
tokens."""

from __future__ import annotations

from typing import Any

from lsprotocol import types as t

from mfls.features import completion, hover, semantic_tokens
from mfls.lsp import from_proto, to_proto
from mfls.lsp.handlers import authoring
from mfls.lsp.server import MflsServer

COMPLETION_LIMIT = 100  # items per answer; past it the list is incomplete and re-asked

TOKENS_LEGEND = t.SemanticTokensLegend(
    token_types=list(semantic_tokens.TOKEN_TYPES),
    token_modifiers=list(semantic_tokens.TOKEN_MODIFIERS),
)


def on_hover(ls: MflsServer, params: t.HoverParams) -> t.Hover | None:
    at = from_proto.cursor(ls.texts, ls.caps.encoding, params.text_document.uri, params.position)
    if at is None:
        return None
    info = hover.hover(ls.courses.snapshot, at.uri, at.offset, ls.language)
    return None if info is None else to_proto.hover(ls.convert, at.index, info)


# `{` and `[` open a marker and an interaction; a space typed inside an open `{{` asks
# again (VS Code closes its list at a space): elsewhere a space gets no list.
COMPLETION_OPTIONS = t.CompletionOptions(trigger_characters=["{", "[", " "], resolve_provider=True)


def complete(ls: MflsServer, params: t.CompletionParams) -> t.CompletionList | None:
    at = from_proto.cursor(ls.texts, ls.caps.encoding, params.text_document.uri, params.position)
    if at is None:
        return None
    interaction_snippets = authoring.snippet_completion(ls, at)
    if interaction_snippets is not None:
        return interaction_snippets
    result = completion.complete(ls.courses.snapshot, at.uri, at.offset, limit=COMPLETION_LIMIT)
    if result is None:
        return None
    caps = ls.caps
    lazy, details, snippets = (
        caps.lazy_completion_documentation,
        caps.completion_label_details,
        caps.completion_snippets,
    )
    return to_proto.completion_list(
        ls.convert, at.uri, at.offset, at.index, result, lazy, details, snippets
    )


def resolve_completion(ls: MflsServer, item: t.CompletionItem) -> t.CompletionItem:
    """The documentation `complete` left out, found again from the item's `data` in the
    current snapshot (nothing is remembered between the two requests)."""
    data: Any = item.data
    if not isinstance(data, dict):
        return item
    uri, offset, key = data.get("uri"), data.get("offset"), data.get("key")
    if not (isinstance(uri, str) and isinstance(offset, int) and isinstance(key, str)):
        return item
    result = completion.complete(ls.courses.snapshot, uri, offset)
    if result is None:
        return item
    documentation = next((i.documentation for i in result.items if i.key == key), None)
    return to_proto.resolve_completion(item, documentation)


def tokens_full(ls: MflsServer, params: t.SemanticTokensParams) -> t.SemanticTokens:
    return _tokens(ls, params.text_document, None)


def tokens_range(ls: MflsServer, params: t.SemanticTokensRangeParams) -> t.SemanticTokens:
    return _tokens(ls, params.text_document, params.range)


def no_tokens(params: Any) -> t.SemanticTokens:
    return t.SemanticTokens(data=[])


def _tokens(
    ls: MflsServer, document: t.TextDocumentIdentifier, range_: t.Range | None
) -> t.SemanticTokens:
    span = from_proto.span(ls.texts, ls.caps.encoding, document.uri, range_)
    if span is None:
        return no_tokens(None)
    start, end = (None, None) if range_ is None else (span.start, span.end)
    found = semantic_tokens.tokens(ls.courses.snapshot, span.uri, start, end)
    spans = [(x.start, x.start + x.length, x.type, x.modifiers) for x in found]
    return t.SemanticTokens(data=to_proto.encode_tokens(ls.convert, span.index, spans))
