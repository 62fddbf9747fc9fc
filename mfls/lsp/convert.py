"""Plain feature results (offsets and keys) -> LSP types, in the negotiated encoding."""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types as t

from mfls.features import navigation, symbols
from mfls.features.completion import Completion
from mfls.features.diagnostics import DEPRECATED, Diagnostic
from mfls.features.hover import HoverInfo
from mfls.lsp.documents import Converter
from mfls.text.line_index import LineIndex
from mfls.workspace.index import CourseSnapshot
from mfls.workspace.uris import path_to_uri

SOURCE = "mfls"

SEVERITIES = {
    "error": t.DiagnosticSeverity.Error,
    "warning": t.DiagnosticSeverity.Warning,
    "information": t.DiagnosticSeverity.Information,
    "hint": t.DiagnosticSeverity.Hint,
}
TAGS = {DEPRECATED: t.DiagnosticTag.Deprecated, "unnecessary": t.DiagnosticTag.Unnecessary}


def course_file_uri(course: CourseSnapshot) -> str | None:
    path = course.config_path
    return None if path is None else path_to_uri(path)


def diagnostic(convert: Converter, index: LineIndex, item: Diagnostic) -> t.Diagnostic:
    related: list[t.DiagnosticRelatedInformation] = []
    for uri, start, end, message in item.related:
        range_ = convert.range_in(uri, start, end)
        if range_ is not None:
            related.append(
                t.DiagnosticRelatedInformation(
                    location=t.Location(uri=convert.texts.client_uri(uri), range=range_),
                    message=message,
                )
            )
    tags = [TAGS[tag] for tag in item.tags if tag in TAGS]
    return t.Diagnostic(
        range=convert.range(index, item.start, item.end),
        message=item.message,
        severity=SEVERITIES.get(item.severity, t.DiagnosticSeverity.Warning),
        code=item.code,
        source=SOURCE,
        related_information=related or None,
        tags=tags or None,
    )


def completion_list(
    convert: Converter, index: LineIndex, result: Completion, lazy_documentation: bool
) -> t.CompletionList:
    """Every item replaces exactly the range the feature computed (what was typed).

    With `lazy_documentation` the documentation is left for `completionItem/resolve`,
    and `data` names the key.
    """
    range_ = convert.range(index, result.start, result.end)
    items = [
        t.CompletionItem(
            label=item.key,
            kind=t.CompletionItemKind.Constant
            if item.kind == "host"
            else t.CompletionItemKind.Variable,
            detail=item.detail,
            documentation=None
            if lazy_documentation
            else t.MarkupContent(kind=t.MarkupKind.Markdown, value=item.documentation),
            sort_text=item.sort_text,
            filter_text=item.filter_text,
            text_edit=t.TextEdit(range=range_, new_text=item.new_text),
            data={"key": item.key} if lazy_documentation else None,
        )
        for item in result.items
    ]
    return t.CompletionList(is_incomplete=result.is_incomplete, items=items)


def resolve_completion(item: t.CompletionItem, documentation: str | None) -> t.CompletionItem:
    if documentation is not None and item.documentation is None:
        item.documentation = t.MarkupContent(kind=t.MarkupKind.Markdown, value=documentation)
    return item


def hover(convert: Converter, index: LineIndex, info: HoverInfo) -> t.Hover:
    return t.Hover(
        contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=info.markdown),
        range=convert.range(index, info.start, info.end),
    )


def definition(
    convert: Converter,
    index: LineIndex,
    links: Sequence[navigation.LocationLink],
    link_support: bool,
) -> list[t.LocationLink] | list[t.Location]:
    if not link_support:
        return locations(
            convert,
            [
                navigation.Location(link.uri, link.selection_start, link.selection_end)
                for link in links
            ],
        )
    found: list[t.LocationLink] = []
    for link in links:
        target = convert.texts.index(link.uri)
        if target is None:
            continue
        found.append(
            t.LocationLink(
                target_uri=convert.texts.client_uri(link.uri),
                target_range=convert.range(target, link.target_start, link.target_end),
                target_selection_range=convert.range(
                    target, link.selection_start, link.selection_end
                ),
                origin_selection_range=convert.range(index, link.origin_start, link.origin_end),
            )
        )
    return found


def locations(convert: Converter, found: Sequence[navigation.Location]) -> list[t.Location]:
    result: list[t.Location] = []
    for location in found:
        range_ = convert.range_in(location.uri, location.start, location.end)
        if range_ is not None:
            result.append(t.Location(uri=convert.texts.client_uri(location.uri), range=range_))
    return result


HIGHLIGHT_KINDS = {"read": t.DocumentHighlightKind.Read, "write": t.DocumentHighlightKind.Write}


def highlights(
    convert: Converter, index: LineIndex, found: Sequence[navigation.Highlight]
) -> list[t.DocumentHighlight]:
    return [
        t.DocumentHighlight(
            range=convert.range(index, item.start, item.end),
            kind=HIGHLIGHT_KINDS.get(item.kind, t.DocumentHighlightKind.Text),
        )
        for item in found
    ]


SYMBOL_KINDS = {
    "heading": t.SymbolKind.Namespace,
    "interaction": t.SymbolKind.Event,
    "binding": t.SymbolKind.Variable,
    "reference": t.SymbolKind.Field,
}


def document_symbols(
    convert: Converter, index: LineIndex, found: Sequence[symbols.DocumentSymbol]
) -> list[t.DocumentSymbol]:
    return [
        t.DocumentSymbol(
            name=item.name,
            kind=SYMBOL_KINDS.get(item.kind, t.SymbolKind.Object),
            range=convert.range(index, item.start, item.end),
            selection_range=convert.range(index, item.selection_start, item.selection_end),
            detail=item.detail or None,
            children=document_symbols(convert, index, item.children) or None,
        )
        for item in found
    ]


def flat_symbols(
    convert: Converter, uri: str, index: LineIndex, found: Sequence[symbols.DocumentSymbol]
) -> list[t.SymbolInformation]:
    """For clients without hierarchical document symbols: one list, parents named."""
    result: list[t.SymbolInformation] = []

    def visit(items: Sequence[symbols.DocumentSymbol], parent: str | None) -> None:
        for item in items:
            result.append(
                t.SymbolInformation(
                    name=item.name,
                    kind=SYMBOL_KINDS.get(item.kind, t.SymbolKind.Object),
                    location=t.Location(
                        uri=convert.texts.client_uri(uri),
                        range=convert.range(index, item.start, item.end),
                    ),
                    container_name=parent,
                )
            )
            visit(item.children, item.name)

    visit(found, None)
    return result


def workspace_symbols(
    convert: Converter, found: Sequence[symbols.WorkspaceSymbol]
) -> list[t.SymbolInformation]:
    result: list[t.SymbolInformation] = []
    for item in found:
        range_ = convert.range_in(item.uri, item.start, item.end)
        if range_ is None:
            continue
        result.append(
            t.SymbolInformation(
                name=item.name,
                kind=SYMBOL_KINDS.get(item.kind, t.SymbolKind.Variable),
                location=t.Location(uri=convert.texts.client_uri(item.uri), range=range_),
                container_name=item.container,
            )
        )
    return result


def encode_tokens(
    convert: Converter, index: LineIndex, tokens: Sequence[tuple[int, int, int, int]]
) -> list[int]:
    """`(start, end, type, modifier bits)` in offsets -> LSP's relative integer encoding.

    Tokens are split at line ends, so no client needs multiline token support.
    """
    data: list[int] = []
    previous_line = 0
    previous_char = 0
    for start, end, token_type, modifiers in sorted(tokens):
        first = index.line_of(max(start, 0))
        last = index.line_of(max(min(end, len(index.text)), 0))
        for line in range(first, last + 1):
            piece_start = max(start, index.line_start(line))
            piece_end = min(end, index.line_content_end(line))
            if piece_end <= piece_start:
                continue
            _, char = index.position(piece_start, convert.encoding)
            _, end_char = index.position(piece_end, convert.encoding)
            delta_line = line - previous_line
            delta_char = char - previous_char if delta_line == 0 else char
            data.extend((delta_line, delta_char, end_char - char, token_type, modifiers))
            previous_line, previous_char = line, char
    return data
