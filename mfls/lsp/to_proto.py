"""Plain feature results (offsets and keys) -> LSP types, in the negotiated encoding, and
the error answer of a `Refusal`.

Split by concern: positions (`mfls.lsp.positions`), diagnostics and their JSON text
(`mfls.lsp.diagnostic_writer`), workspace edits and the wire converter
(`mfls.lsp.workspace_edits`); their names are still importable from here. The features'
result types are named for the type checker only: importing this module (on the server's
start path) does not import the features.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsprotocol import types as t

from mfls.features.refusal import Refusal
from mfls.lsp.diagnostic_writer import SEVERITIES as SEVERITIES
from mfls.lsp.diagnostic_writer import SOURCE as SOURCE
from mfls.lsp.diagnostic_writer import TAGS as TAGS
from mfls.lsp.diagnostic_writer import DiagnosticWriter as DiagnosticWriter
from mfls.lsp.diagnostic_writer import JsonText as JsonText
from mfls.lsp.diagnostic_writer import diagnostic as diagnostic
from mfls.lsp.diagnostic_writer import full_report_text as full_report_text
from mfls.lsp.diagnostic_writer import publish_diagnostics_text as publish_diagnostics_text
from mfls.lsp.diagnostic_writer import result_id as result_id
from mfls.lsp.diagnostic_writer import workspace_report_text as workspace_report_text
from mfls.lsp.positions import Converter as Converter
from mfls.lsp.positions import StreamPositions as StreamPositions
from mfls.lsp.workspace_edits import EditBuilder as EditBuilder
from mfls.lsp.workspace_edits import JsonReady as JsonReady
from mfls.lsp.workspace_edits import sends_json_ready as sends_json_ready
from mfls.lsp.workspace_edits import wire_converter as wire_converter
from mfls.text.line_index import LineIndex
from mfls.workspace.index import CourseSnapshot
from mfls.workspace.uris import path_to_uri

if TYPE_CHECKING:
    from mfls.features import code_actions as ca
    from mfls.features import navigation, symbols
    from mfls.features import rename as rn
    from mfls.features.code_lens import Lens
    from mfls.features.completion import Completion
    from mfls.features.document_links import DocumentLink
    from mfls.features.folding import Fold
    from mfls.features.hover import HoverInfo
    from mfls.features.inlay_hints import Hint
    from mfls.features.snippets import Snippets

REQUEST_FAILED = int(t.LSPErrorCodes.RequestFailed)
INVALID_PARAMS = int(t.ErrorCodes.InvalidParams)
CONTENT_MODIFIED = int(t.LSPErrorCodes.ContentModified)


def refusal_error(refusal: Refusal) -> t.ResponseError:
    """The error answer of a declined request: ContentModified when the document changed
    under it, InvalidParams when its arguments do not fit, RequestFailed otherwise."""
    code = CONTENT_MODIFIED if refusal.stale else REQUEST_FAILED
    if refusal.malformed:
        code = INVALID_PARAMS
    return t.ResponseError(code=code, message=refusal.message)


def course_file_uri(course: CourseSnapshot) -> str | None:
    path = course.config_path
    return None if path is None else path_to_uri(path)


def completion_list(
    convert: Converter,
    uri: str,
    offset: int,
    index: LineIndex,
    result: Completion,
    lazy_documentation: bool,
    label_details: bool = False,
    snippets: bool = False,
) -> t.CompletionList:
    """Every item replaces exactly the range the feature computed (the key typed so
    far) and carries no `filterText`: Neovim 0.7 reads the range only without one.

    With `lazy_documentation` the documentation is left for `completionItem/resolve`,
    and `data` carries what resolving needs to find it again: the document, the
    requested offset and the key. With `label_details` a doubtful key's doubt is also
    the label's description (the detail always says it). With `snippets` the text is
    sent as a snippet (Neovim 0.11 inserts a plain text only up to its first space).
    """
    range_ = convert.range(index, result.start, result.end)
    text = result.snippet_text if snippets else result.new_text
    text_format = t.InsertTextFormat.Snippet if snippets else None
    first = min((item.sort_text for item in result.items), default=None)
    items = [
        t.CompletionItem(
            label=item.key,
            label_details=t.CompletionItemLabelDetails(description=item.doubt)
            if label_details and item.doubt
            else None,
            kind=t.CompletionItemKind.Constant
            if item.kind == "host"
            else t.CompletionItemKind.Variable,
            detail=item.detail,
            documentation=None
            if lazy_documentation
            else t.MarkupContent(kind=t.MarkupKind.Markdown, value=item.documentation),
            sort_text=item.sort_text,
            preselect=True if item.sort_text == first else None,
            insert_text_format=text_format,
            text_edit=t.TextEdit(range=range_, new_text=text(item.key)),
            data={"uri": uri, "offset": offset, "key": item.key} if lazy_documentation else None,
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
        from mfls.features.navigation import Location

        return locations(
            convert,
            [Location(link.uri, link.selection_start, link.selection_end) for link in links],
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
    "block": t.SymbolKind.Module,
}


FOLD_KINDS = {
    "section": t.FoldingRangeKind.Region,
    "block": t.FoldingRangeKind.Region,
    "comment": t.FoldingRangeKind.Comment,
}


def folding_ranges(index: LineIndex, found: Sequence[Fold]) -> list[t.FoldingRange]:
    """Whole lines: a fold whose end is on its start's line is left out."""
    ranges: list[t.FoldingRange] = []
    seen: set[tuple[int, int]] = set()
    for fold in found:
        first, last = index.line_of(fold.start), index.line_of(fold.end)
        if last <= first or (first, last) in seen:
            continue
        seen.add((first, last))
        ranges.append(
            t.FoldingRange(start_line=first, end_line=last, kind=FOLD_KINDS.get(fold.kind))
        )
    return ranges


SHOW_REFERENCES = "mfls.showReferences"
"""The command of a code lens: arguments (document URI, position, locations) as
`editor.action.showReferences` takes them. The editor plugins map it; the server does
not offer it in `executeCommandProvider` (it has nothing to show on its own)."""


def _position_json(position: t.Position) -> dict[str, int]:
    return {"line": position.line, "character": position.character}


def code_lenses(
    convert: Converter, uri: str, index: LineIndex, found: Sequence[Lens]
) -> list[t.CodeLens]:
    lenses: list[t.CodeLens] = []
    client_uri = convert.texts.client_uri(uri)
    for lens in found:
        range_ = convert.range(index, lens.start, lens.end)
        reads = [
            {
                "uri": location.uri,
                "range": {
                    "start": _position_json(location.range.start),
                    "end": _position_json(location.range.end),
                },
            }
            for location in locations(convert, lens.reads)
        ]
        command = t.Command(
            title=lens.title,
            command=SHOW_REFERENCES,
            arguments=[client_uri, _position_json(range_.start), reads],
        )
        lenses.append(t.CodeLens(range=range_, command=command))
    return lenses


def inlay_hints(convert: Converter, index: LineIndex, found: Sequence[Hint]) -> list[t.InlayHint]:
    """Each hint after its place, set off by a space; a hint with a target is one label
    part that leads there (the first binding of the key). The tooltip is plain text
    (VS Code cuts a long label at `editor.inlayHints.maximumLength`)."""
    hints: list[t.InlayHint] = []
    for hint in found:
        label: str | list[t.InlayHintLabelPart] = hint.label
        if hint.target is not None:
            (place,) = locations(convert, [hint.target]) or (None,)
            if place is not None:
                label = [t.InlayHintLabelPart(value=hint.label, location=place)]
        position = convert.position(index, hint.offset)
        hints.append(
            t.InlayHint(position=position, label=label, tooltip=hint.tooltip, padding_left=True)
        )
    return hints


def document_links(
    index: LineIndex, convert: Converter, found: Sequence[DocumentLink]
) -> list[t.DocumentLink]:
    return [
        t.DocumentLink(
            range=convert.range(index, link.start, link.end),
            target=convert.texts.client_uri(link.target),
            tooltip=link.tooltip,
        )
        for link in found
    ]


def snippet_completion_list(
    convert: Converter, index: LineIndex, found: Snippets, snippets: bool
) -> t.CompletionList:
    """The interaction snippets; in plain text for a client without snippet support."""
    range_ = convert.range(index, found.start, found.end)
    items = [
        t.CompletionItem(
            label=item.label,
            kind=t.CompletionItemKind.Snippet,
            detail=item.detail,
            sort_text=item.sort_text,
            filter_text=item.label,
            insert_text_format=t.InsertTextFormat.Snippet
            if snippets
            else t.InsertTextFormat.PlainText,
            text_edit=t.TextEdit(range=range_, new_text=item.snippet if snippets else item.plain),
        )
        for item in found.items
    ]
    return t.CompletionList(is_incomplete=False, items=items)


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


def rename_placeholder(
    convert: Converter, index: LineIndex, target: rn.RenameTarget
) -> t.PrepareRenamePlaceholder:
    return t.PrepareRenamePlaceholder(
        range=convert.range(index, target.start, target.end), placeholder=target.key
    )


def code_action(
    action: ca.CodeAction, edit: t.WorkspaceEdit, fixed: Sequence[t.Diagnostic]
) -> t.CodeAction:
    return t.CodeAction(
        title=action.title,
        kind=action.kind,
        edit=edit,
        diagnostics=list(fixed) or None,
        is_preferred=action.preferred or None,
    )
