"""Plain feature results (offsets and keys) -> LSP types, in the negotiated encoding.

Diagnostics, sent by the thousand on each keystroke, are also written straight to JSON
text (`DiagnosticWriter`), which is what the server publishes. Also the wire converter
(pygls's, taught to send ready-made JSON), the streaming position converter and
`EditBuilder` for workspace edits over many documents, and the error answer of a
`Refusal`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

import cattrs
from lsprotocol import types as t
from pygls.protocol import default_converter

from mfls.features import code_actions as ca
from mfls.features import navigation, symbols
from mfls.features import rename as rn
from mfls.features.code_lens import Lens
from mfls.features.completion import Completion
from mfls.features.diagnostics import DEPRECATED, Diagnostic, Related
from mfls.features.document_links import DocumentLink
from mfls.features.folding import Fold
from mfls.features.hover import HoverInfo
from mfls.features.refusal import Refusal
from mfls.features.snippets import Snippets
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.documents import Texts
from mfls.text.line_index import Encoding, LineIndex, units
from mfls.text.lines import line_breaks, line_start, off_crlf
from mfls.workspace.index import CourseSnapshot
from mfls.workspace.uris import path_to_uri

REQUEST_FAILED = int(t.LSPErrorCodes.RequestFailed)
INVALID_PARAMS = int(t.ErrorCodes.InvalidParams)
CONTENT_MODIFIED = int(t.LSPErrorCodes.ContentModified)


class Converter:
    """Code point offsets -> LSP positions and ranges, in the negotiated encoding."""

    def __init__(self, texts: Texts, encoding: Encoding = Encoding.UTF16) -> None:
        self.texts = texts
        self.encoding = encoding

    def position(self, index: LineIndex, offset: int) -> t.Position:
        line, character = index.position(offset, self.encoding)
        return t.Position(line=line, character=character)

    def range(self, index: LineIndex, start: int, end: int) -> t.Range:
        return t.Range(start=self.position(index, start), end=self.position(index, end))

    def range_in(self, uri: str, start: int, end: int) -> t.Range | None:
        index = self.texts.index(uri)
        return None if index is None else self.range(index, start, end)


def refusal_error(refusal: Refusal) -> t.ResponseError:
    """The error answer of a declined request: ContentModified when the document changed
    under it, InvalidParams when its arguments do not fit, RequestFailed otherwise."""
    code = CONTENT_MODIFIED if refusal.stale else REQUEST_FAILED
    if refusal.malformed:
        code = INVALID_PARAMS
    return t.ResponseError(code=code, message=refusal.message)


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


class JsonText(str):
    """A value already written as JSON text: `MflsProtocol` sends it as it is."""


_RANGE_TEXT = (
    '{"range": {"start": {"line": %d, "character": %d}, "end": {"line": %d, "character": %d}}, '
)
_MEMO_SIZE = 50_000
"""Texts remembered by a `DiagnosticWriter` (all forgotten when it is full)."""
_Place = tuple[str, int, int, int, int, str]  # client URI, range, message of a related place


class DiagnosticWriter:
    """Plain diagnostics -> their JSON texts, exactly as the wire converter writes what
    `diagnostic` makes (the same members, order and escapes), without building
    lsprotocol objects or running cattrs.

    Ranges are computed on every call; the rest of a diagnostic's text (message, code,
    severity, tags, related places) is remembered by its content, and related places by
    the line index they were counted in, so a keystroke that moves diagnostics mostly
    reformats their ranges."""

    def __init__(self, convert: Converter) -> None:
        self.convert = convert
        self._rest: dict[tuple[str, str, str, tuple[str, ...], tuple[_Place, ...]], str] = {}
        self._places: dict[tuple[Related, ...], tuple[tuple[object, ...], tuple[_Place, ...]]]
        self._places = {}  # related places -> (what they were counted in, the places)

    def texts(self, index: LineIndex, items: Sequence[Diagnostic]) -> list[str]:
        rest = self._rest
        if len(rest) > _MEMO_SIZE:
            rest.clear()
        if len(self._places) > _MEMO_SIZE:
            self._places.clear()
        targets: dict[str, tuple[LineIndex, str] | None] = {}
        ranges = index.spans([(item.start, item.end) for item in items], self.convert.encoding)
        found: list[str] = []
        for item, range_ in zip(items, ranges, strict=True):
            places = self._places_of(item.related, targets) if item.related else ()
            key = (item.code, item.severity, item.message, item.tags, places)
            tail = rest.get(key)
            if tail is None:
                tail = rest[key] = _rest_text(item, places)
            found.append(_RANGE_TEXT % range_ + tail)
        return found

    def _places_of(
        self, related: tuple[Related, ...], targets: dict[str, tuple[LineIndex, str] | None]
    ) -> tuple[_Place, ...]:
        """The related places that can be shown: (client URI, range, message) each."""
        texts = self.convert.texts
        encoding = self.convert.encoding
        basis: list[tuple[LineIndex, str] | None] = []
        for uri, _, _, _ in related:
            if uri in targets:
                target = targets[uri]
            else:
                index = texts.index(uri)
                target = targets[uri] = None if index is None else (index, texts.client_uri(uri))
            basis.append(target)
        counted_in = (encoding, *basis)  # line indexes compare by identity
        seen = self._places.get(related)
        if seen is not None and seen[0] == counted_in:
            return seen[1]
        places: list[_Place] = []
        for (_, start, end, message), target in zip(related, basis, strict=True):
            if target is not None:
                index, client_uri = target
                [(line, character, end_line, end_character)] = index.spans([(start, end)], encoding)
                places.append((client_uri, line, character, end_line, end_character, message))
        found = tuple(places)
        self._places[related] = (counted_in, found)
        return found


def _rest_text(item: Diagnostic, places: tuple[_Place, ...]) -> str:
    """The JSON text of a diagnostic after its range: `"message": ...}`."""
    rest: dict[str, Any] = {
        "message": item.message,
        "severity": int(SEVERITIES.get(item.severity, t.DiagnosticSeverity.Warning)),
        "code": item.code,
        "source": SOURCE,
    }
    tags = [int(TAGS[tag]) for tag in item.tags if tag in TAGS]
    if tags:
        rest["tags"] = tags
    if places:
        rest["relatedInformation"] = [
            {
                "location": {
                    "uri": uri,
                    "range": {
                        "start": {"line": line, "character": character},
                        "end": {"line": end_line, "character": end_character},
                    },
                },
                "message": message,
            }
            for uri, line, character, end_line, end_character, message in places
        ]
    return json.dumps(rest)[1:]


def publish_diagnostics_text(uri: str, texts: Sequence[str], version: int | None) -> str:
    """The whole `textDocument/publishDiagnostics` notification of `texts` (from
    `DiagnosticWriter`), as pygls would write it."""
    tail = "" if version is None else f', "version": {json.dumps(version)}'
    return (
        f'{{"params": {{"uri": {json.dumps(uri)}, "diagnostics": [{", ".join(texts)}]{tail}}}, '
        f'"method": "{t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS}", "jsonrpc": "2.0"}}'
    )


def full_report_text(texts: Sequence[str], result_id: str) -> JsonText:
    """A full `textDocument/diagnostic` report of `texts` (from `DiagnosticWriter`)."""
    return JsonText(
        f'{{"items": [{", ".join(texts)}], "kind": "full", "resultId": {json.dumps(result_id)}}}'
    )


def workspace_report_text(
    reports: Iterable[tuple[str, int | None, str, Sequence[str] | None]],
) -> JsonText:
    """A `workspace/diagnostic` report: for each document (client URI, version, result id,
    texts from `DiagnosticWriter`, or None when the client's result id still holds) a full
    or an unchanged report."""
    parts = []
    for uri, version, result_id, texts in reports:
        head = (
            f'"uri": {json.dumps(uri)}, "version": {json.dumps(version)}, '
            f'"resultId": {json.dumps(result_id)}'
        )
        if texts is None:
            parts.append(f'{{"kind": "unchanged", {head}}}')
        else:
            parts.append(f'{{"kind": "full", {head}, "items": [{", ".join(texts)}]}}')
    return JsonText(f'{{"items": [{", ".join(parts)}]}}')


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


class StreamPositions:
    """Offsets -> LSP positions of one text, for offsets asked in ascending order.

    Counts line endings between consecutive offsets instead of indexing the whole text,
    which matters when one rename touches thousands of closed documents."""

    def __init__(self, text: str, encoding: Encoding) -> None:
        self.text = text
        self.encoding = encoding
        self._offset = 0
        self._line = 0
        self._lf = "\n" in text
        self._cr = "\r" in text

    def line_character(self, offset: int) -> tuple[int, int]:
        text = self.text
        offset = off_crlf(text, min(max(offset, 0), len(text)))
        if offset < self._offset:
            self._offset, self._line = 0, 0
        low = self._offset
        if self._cr:
            self._line += line_breaks(text, low, offset)
        elif self._lf:
            self._line += text.count("\n", low, offset)
        self._offset = offset
        start = line_start(text, offset) if self._lf or self._cr else 0
        return self._line, self._units(text[start:offset])

    def position(self, offset: int) -> t.Position:
        line, character = self.line_character(offset)
        return t.Position(line=line, character=character)

    def range(self, start: int, end: int) -> t.Range:
        return t.Range(start=self.position(start), end=self.position(end))

    def range_json(self, start: int, end: int) -> dict[str, dict[str, int]]:
        start_line, start_character = self.line_character(start)
        piece = self.text[start:end]
        if "\n" in piece or "\r" in piece:
            end_line, end_character = self.line_character(end)
        else:
            end_line, end_character = start_line, start_character + self._units(piece)
        return {
            "start": {"line": start_line, "character": start_character},
            "end": {"line": end_line, "character": end_character},
        }

    def _units(self, piece: str) -> int:
        return units(piece, self.encoding)


class JsonReady(dict[str, Any]):
    """A `TextDocumentEdit` already in its JSON form, sent as it is.

    A rename of a key used 10,000 times would otherwise build some 50,000 attrs objects
    only for the converter to flatten them again. cattrs unstructures the members of
    `documentChanges` (a union) by their runtime class, so a registered pass-through
    hook lets these dicts stand in; `sends_json_ready` checks that before relying on it.
    """


def wire_converter() -> cattrs.Converter:
    """pygls's converter, also sending `JsonReady` values untouched."""
    converter = default_converter()
    converter.register_unstructure_hook(JsonReady, lambda value: value)
    return converter


def sends_json_ready(converter: cattrs.Converter) -> bool:
    """True when `converter` demonstrably sends a `JsonReady` edit as it is."""
    probe = JsonReady({"textDocument": {"uri": "file:///probe.md", "version": None}})
    probe["edits"] = [
        {"range": StreamPositions("", Encoding.UTF16).range_json(0, 0), "newText": ""}
    ]
    try:
        sent = converter.unstructure(t.WorkspaceEdit(document_changes=[probe]))  # type: ignore[list-item]  # the probe
    except Exception:
        return False
    return bool(sent == {"documentChanges": [dict(probe)]})


class EditBuilder:
    """Turns plain `WorkspaceChange`s into `WorkspaceEdit`s for one client.

    A change's annotation is sent (never needing confirmation) only to a client that
    declares `changeAnnotationSupport`.

    With `json_ready`, documents go out as `JsonReady` dicts (see there); otherwise as
    lsprotocol objects, the same JSON once sent."""

    def __init__(self, texts: Texts, caps: Capabilities, *, json_ready: bool = False) -> None:
        self.texts = texts
        self.encoding = caps.encoding
        self.json_ready = json_ready
        self.document_changes = caps.document_changes
        self.snippets = caps.snippet_edits
        self.annotations = caps.change_annotations

    def target(self, change: rn.DocumentChange) -> tuple[StreamPositions, int | None, str] | None:
        """Positions in the text the change was computed on, the open buffer's version
        (None on disk) and the URI to send; None when the buffer has changed since."""
        buffer = self.texts.open.get(change.uri)
        positions = StreamPositions(change.text, self.encoding)
        if buffer is not None:
            if buffer.index.text != change.text:
                return None
            return positions, buffer.version, buffer.client_uri
        return positions, None, change.uri

    def edit(
        self, change: rn.WorkspaceChange, *, snippet: bool = False
    ) -> t.WorkspaceEdit | Refusal:
        """The edit, or a stale refusal when an open document changed meanwhile."""
        targets = []
        for doc in change.documents:
            target = self.target(doc)
            if target is None:
                return Refusal(
                    f"{doc.uri} changed while the edit was computed; try again", stale=True
                )
            targets.append((doc, *target))
        annotated = change.annotation is not None and self.annotations
        annotation_id = rn.ANNOTATION_ID if annotated else None
        if not self.document_changes:
            changes: dict[str, list[t.TextEdit]] = {}
            for doc, positions, _, uri in targets:
                changes[uri] = [
                    t.TextEdit(range=positions.range(c.start, c.end), new_text=c.new_text)
                    for c in sorted(doc.changes, key=lambda c: c.start)
                ]
            return t.WorkspaceEdit(changes=changes)
        documents: list[Any] = []
        for doc, positions, version, uri in targets:
            edits: list[dict[str, Any]] = []
            for c in sorted(doc.changes, key=lambda c: c.start):
                edit: dict[str, Any] = {"range": positions.range_json(c.start, c.end)}
                if snippet:
                    edit["snippet"] = {"kind": "snippet", "value": c.new_text}
                else:
                    edit["newText"] = c.new_text
                    if annotation_id is not None:
                        edit["annotationId"] = annotation_id
                edits.append(edit)
            document = JsonReady({"textDocument": {"uri": uri, "version": version}, "edits": edits})
            documents.append(document if self.json_ready else _text_document_edit(document))
        annotations = None
        if change.annotation is not None and annotation_id is not None:
            annotations = {
                annotation_id: t.ChangeAnnotation(
                    label=change.annotation.label,
                    needs_confirmation=False,
                    description=change.annotation.description,
                )
            }
        return t.WorkspaceEdit(document_changes=documents, change_annotations=annotations)


def _text_document_edit(document: dict[str, Any]) -> t.TextDocumentEdit:
    """The lsprotocol form of one JSON-ready document edit."""
    edits: list[t.TextEdit | t.AnnotatedTextEdit | t.SnippetTextEdit] = []
    for edit in document["edits"]:
        r = edit["range"]
        range_ = t.Range(
            start=t.Position(line=r["start"]["line"], character=r["start"]["character"]),
            end=t.Position(line=r["end"]["line"], character=r["end"]["character"]),
        )
        if "snippet" in edit:
            edits.append(
                t.SnippetTextEdit(
                    range=range_, snippet=t.StringValue(value=edit["snippet"]["value"])
                )
            )
        elif "annotationId" in edit:
            edits.append(
                t.AnnotatedTextEdit(
                    range=range_, new_text=edit["newText"], annotation_id=edit["annotationId"]
                )
            )
        else:
            edits.append(t.TextEdit(range=range_, new_text=edit["newText"]))
    identifier = document["textDocument"]
    return t.TextDocumentEdit(
        text_document=t.OptionalVersionedTextDocumentIdentifier(
            uri=identifier["uri"], version=identifier["version"]
        ),
        edits=edits,
    )


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


def result_id(texts: Iterable[str]) -> str:
    """A digest of diagnostics' JSON texts (from `DiagnosticWriter`), equal exactly when
    they are."""
    payload = "\n".join(texts).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(payload, digest_size=12).hexdigest()
