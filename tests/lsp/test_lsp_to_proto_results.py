"""Feature results -> LSP types, result by result, in each position encoding.

The text holds astral characters (two UTF-16 units, four UTF-8 bytes) and a CRLF line
end, so every range shows which encoding it was counted in.
"""

from __future__ import annotations

import pytest
from lsprotocol import types as t

from mfls.features import code_actions as ca
from mfls.features import rename as rn
from mfls.features.completion import Completion, CompletionItem
from mfls.features.diagnostics import DEPRECATED, Diagnostic
from mfls.features.hover import HoverInfo
from mfls.features.navigation import Highlight, Location, LocationLink
from mfls.features.refusal import Refusal
from mfls.features.symbols import DocumentSymbol, WorkspaceSymbol
from mfls.lsp import to_proto
from mfls.lsp.documents import OpenBuffer, Texts
from mfls.text.line_index import Encoding, LineIndex

#       0 1 2 3 4 5 6 7 8 9  10   11..15 16 17    18 19 20..22
TEXT = "😀 {{ 𝒳 }}\r\nline 二\n𝄞 end"
MARKER = (2, 9)  # {{ 𝒳 }}
KEY = (5, 6)  # 𝒳
HAN = (16, 17)  # 二
END = (20, 23)  # end

URI = "file:///c/a.md"
CLIENT_URI = "file:///c/A.md"  # how the client spelled the open document's URI
CLOSED = "file:///c/b.md"
CLOSED_TEXT = "# B\n\n𝒳 {{ k }}\n"
GONE = "file:///c/gone.md"

# Characters of the places above, per encoding: (start, end) on their own line.
COLUMNS = {
    Encoding.UTF16: {"marker": (3, 11), "key": (6, 8), "han": (5, 6), "end": (3, 6)},
    Encoding.UTF8: {"marker": (5, 15), "key": (8, 12), "han": (5, 8), "end": (5, 8)},
    Encoding.UTF32: {"marker": (2, 9), "key": (5, 6), "han": (5, 6), "end": (2, 5)},
}
ENCODINGS = list(COLUMNS)


def converter(encoding: Encoding = Encoding.UTF16) -> to_proto.Converter:
    texts = Texts(lambda uri: CLOSED_TEXT if uri == CLOSED else None)
    texts.open[URI] = OpenBuffer(CLIENT_URI, 7, LineIndex(TEXT))
    return to_proto.Converter(texts, encoding)


def span(line: int, start: int, end: int, end_line: int | None = None) -> t.Range:
    return t.Range(
        start=t.Position(line=line, character=start),
        end=t.Position(line=line if end_line is None else end_line, character=end),
    )


def on(encoding: Encoding, place: str, line: int) -> t.Range:
    return span(line, *COLUMNS[encoding][place])


INDEX = LineIndex(TEXT)


# -- diagnostics --------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_diagnostic_ranges_and_related_places_in_each_encoding(encoding: Encoding) -> None:
    item = Diagnostic(
        "near-miss",
        "information",
        *MARKER,
        "did you mean",
        related=(
            (URI, *HAN, "here"),
            (CLOSED, 5, 6, "and there"),
            (GONE, 0, 1, "a document no longer known is left out"),
        ),
        tags=("unnecessary", DEPRECATED, "no-such-tag"),
    )
    found = to_proto.diagnostic(converter(encoding), INDEX, item)
    assert found.range == on(encoding, "marker", 0)
    assert found.severity == t.DiagnosticSeverity.Information
    assert (found.code, found.source, found.message) == ("near-miss", "mfls", "did you mean")
    assert found.tags == [t.DiagnosticTag.Unnecessary, t.DiagnosticTag.Deprecated]
    closed_key = {Encoding.UTF16: (0, 2), Encoding.UTF8: (0, 4), Encoding.UTF32: (0, 1)}
    assert found.related_information == [
        t.DiagnosticRelatedInformation(
            location=t.Location(uri=CLIENT_URI, range=on(encoding, "han", 1)), message="here"
        ),
        t.DiagnosticRelatedInformation(
            location=t.Location(uri=CLOSED, range=span(2, *closed_key[encoding])),
            message="and there",
        ),
    ]


def test_a_plain_diagnostic_sends_no_empty_lists_and_unknown_severity_warns() -> None:
    found = to_proto.diagnostic(converter(), INDEX, Diagnostic("c", "loud", *END, "m"))
    assert found.related_information is None and found.tags is None
    assert found.severity == t.DiagnosticSeverity.Warning
    assert found.range == on(Encoding.UTF16, "end", 2)
    severities = {
        severity: to_proto.diagnostic(converter(), INDEX, Diagnostic("c", severity, 0, 1, "m"))
        for severity in ("error", "warning", "information", "hint")
    }
    assert [d.severity for d in severities.values()] == [
        t.DiagnosticSeverity.Error,
        t.DiagnosticSeverity.Warning,
        t.DiagnosticSeverity.Information,
        t.DiagnosticSeverity.Hint,
    ]


def test_only_unknown_related_places_give_no_related_information() -> None:
    item = Diagnostic("c", "hint", 0, 1, "m", related=((GONE, 0, 1, "x"),))
    assert to_proto.diagnostic(converter(), INDEX, item).related_information is None


# -- completion ---------------------------------------------------------------------


def _items() -> list[CompletionItem]:
    return [
        CompletionItem("𝒳", "0001", "bound in a.md", "**𝒳**", "bound"),
        CompletionItem("sys_lang", "0002", "host", "h", "host"),
        CompletionItem("seen", "0003", "never asked · read 1×", "s", "doubtful", "never asked"),
    ]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_completion_items_replace_the_range_counted_in_the_encoding(encoding: Encoding) -> None:
    result = Completion(*MARKER, _items(), is_incomplete=True, before=" ", after="")
    sent = to_proto.completion_list(converter(encoding), URI, 4, INDEX, result, False)
    assert sent.is_incomplete is True
    assert [item.label for item in sent.items] == ["𝒳", "sys_lang", "seen"]
    for item, plain in zip(sent.items, _items(), strict=True):
        assert item.text_edit == t.TextEdit(
            range=on(encoding, "marker", 0), new_text=f" {plain.key}"
        )
        # No filterText: Neovim 0.7 reads the edit range only for items without one.
        assert item.filter_text is None and item.insert_text is None
        assert (item.sort_text, item.detail) == (plain.sort_text, plain.detail)
        assert item.documentation == t.MarkupContent(
            kind=t.MarkupKind.Markdown, value=plain.documentation
        )
        assert item.data is None
        assert item.label_details is None
    assert [item.kind for item in sent.items] == [
        t.CompletionItemKind.Variable,
        t.CompletionItemKind.Constant,
        t.CompletionItemKind.Variable,
    ]


def test_a_doubtful_key_is_labelled_for_clients_with_label_details() -> None:
    result = Completion(*MARKER, _items())
    sent = to_proto.completion_list(converter(), URI, 4, INDEX, result, False, True)
    details = [item.label_details for item in sent.items]
    assert details == [None, None, t.CompletionItemLabelDetails(description="never asked")]


def test_completion_range_on_a_later_line_and_an_empty_list() -> None:
    typed = Completion(*HAN, _items()[:1])
    [item] = to_proto.completion_list(converter(Encoding.UTF8), URI, 17, INDEX, typed, True).items
    assert isinstance(item.text_edit, t.TextEdit)
    assert item.text_edit.range == on(Encoding.UTF8, "han", 1)
    assert item.data == {"uri": URI, "offset": 17, "key": "𝒳"}
    empty = to_proto.completion_list(converter(), URI, 0, INDEX, Completion(0, 0, []), False)
    assert empty == t.CompletionList(is_incomplete=False, items=[])


def test_resolving_keeps_documentation_already_there_and_accepts_none() -> None:
    docs = t.MarkupContent(kind=t.MarkupKind.Markdown, value="first")
    item = t.CompletionItem(label="k", documentation=docs)
    assert to_proto.resolve_completion(item, "second").documentation is docs
    bare = t.CompletionItem(label="k")
    assert to_proto.resolve_completion(bare, None).documentation is None


# -- hover --------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_hover_is_markdown_over_the_marker(encoding: Encoding) -> None:
    found = to_proto.hover(converter(encoding), INDEX, HoverInfo("**𝒳**\n\nbound", *MARKER))
    assert found == t.Hover(
        contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value="**𝒳**\n\nbound"),
        range=on(encoding, "marker", 0),
    )


# -- symbols ------------------------------------------------------------------------


def _outline() -> list[DocumentSymbol]:
    binding = DocumentSymbol("𝒳", "binding", *KEY, *KEY)
    interaction = DocumentSymbol("𝒳", "interaction", *MARKER, *KEY, "single choice", (binding,))
    later = DocumentSymbol("end", "reference", *END, *END)
    odd = DocumentSymbol("odd", "no-such-kind", *HAN, *HAN)
    heading = DocumentSymbol("Top", "heading", 0, 23, 0, 1, "", (interaction, odd, later))
    return [heading]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_document_symbols_nest_with_ranges_in_the_encoding(encoding: Encoding) -> None:
    [top] = to_proto.document_symbols(converter(encoding), INDEX, _outline())
    whole_end = COLUMNS[encoding]["end"][1]
    first = {Encoding.UTF16: 2, Encoding.UTF8: 4, Encoding.UTF32: 1}[encoding]
    assert (top.name, top.kind, top.detail) == ("Top", t.SymbolKind.Namespace, None)
    assert top.range == span(0, 0, whole_end, end_line=2)
    assert top.selection_range == span(0, 0, first)
    interaction, odd, later = top.children or []
    assert (interaction.kind, interaction.detail) == (t.SymbolKind.Event, "single choice")
    assert interaction.range == on(encoding, "marker", 0)
    assert interaction.selection_range == on(encoding, "key", 0)
    [binding] = interaction.children or []
    assert (binding.name, binding.kind, binding.children) == ("𝒳", t.SymbolKind.Variable, None)
    assert (odd.kind, odd.range) == (t.SymbolKind.Object, on(encoding, "han", 1))
    assert (later.kind, later.range) == (t.SymbolKind.Field, on(encoding, "end", 2))
    assert to_proto.document_symbols(converter(encoding), INDEX, []) == []


def test_flat_symbols_name_their_parents_and_use_the_clients_uri() -> None:
    found = to_proto.flat_symbols(converter(Encoding.UTF8), URI, INDEX, _outline())
    assert [(s.name, s.kind, s.container_name) for s in found] == [
        ("Top", t.SymbolKind.Namespace, None),
        ("𝒳", t.SymbolKind.Event, "Top"),
        ("𝒳", t.SymbolKind.Variable, "𝒳"),
        ("odd", t.SymbolKind.Object, "Top"),
        ("end", t.SymbolKind.Field, "Top"),
    ]
    assert {s.location.uri for s in found} == {CLIENT_URI}
    assert found[1].location.range == on(Encoding.UTF8, "marker", 0)
    assert found[0].location.range == span(0, 0, 8, end_line=2)


def test_workspace_symbols_in_open_and_closed_documents() -> None:
    found = to_proto.workspace_symbols(
        converter(),
        [
            WorkspaceSymbol("𝒳", "binding", URI, *KEY, "Course"),
            WorkspaceSymbol("k", "reference", CLOSED, 10, 11, "Course"),
            WorkspaceSymbol("lost", "binding", GONE, 0, 1, "Course"),
            WorkspaceSymbol("odd", "no-such-kind", CLOSED, 0, 1, "Other"),
        ],
    )
    assert found == [
        t.SymbolInformation(
            name="𝒳",
            kind=t.SymbolKind.Variable,
            location=t.Location(uri=CLIENT_URI, range=on(Encoding.UTF16, "key", 0)),
            container_name="Course",
        ),
        t.SymbolInformation(
            name="k",
            kind=t.SymbolKind.Field,
            location=t.Location(uri=CLOSED, range=span(2, 6, 7)),
            container_name="Course",
        ),
        t.SymbolInformation(
            name="odd",
            kind=t.SymbolKind.Variable,
            location=t.Location(uri=CLOSED, range=span(0, 0, 1)),
            container_name="Other",
        ),
    ]


# -- semantic tokens ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("encoding", "expected"),
    [
        (Encoding.UTF16, [0, 6, 5, 1, 0, 1, 0, 6, 1, 0, 1, 0, 4, 1, 0, 0, 5, 1, 2, 3]),
        (Encoding.UTF8, [0, 8, 7, 1, 0, 1, 0, 8, 1, 0, 1, 0, 6, 1, 0, 0, 7, 1, 2, 3]),
        (Encoding.UTF32, [0, 5, 4, 1, 0, 1, 0, 6, 1, 0, 1, 0, 3, 1, 0, 0, 4, 1, 2, 3]),
    ],
)
def test_a_token_across_lines_is_split_and_each_piece_is_relative(
    encoding: Encoding, expected: list[int]
) -> None:
    # Given out of order: one token from the key to "e" of "end", over a CRLF and an LF,
    # and one token on the last "d".
    data = to_proto.encode_tokens(converter(encoding), INDEX, [(22, 23, 2, 3), (5, 21, 1, 0)])
    assert data == expected


def test_tokens_skip_empty_lines_and_stay_inside_the_text() -> None:
    text = "{{\n\n\nk}}"
    data = to_proto.encode_tokens(converter(), LineIndex(text), [(0, 50, 0, 1)])
    assert data == [0, 0, 2, 0, 1, 3, 0, 3, 0, 1]
    assert to_proto.encode_tokens(converter(), LineIndex(text), []) == []


def test_tokens_on_one_line_count_from_the_previous_token() -> None:
    data = to_proto.encode_tokens(converter(), INDEX, [(0, 1, 0, 0), (2, 9, 1, 0), (5, 6, 2, 0)])
    assert data == [0, 0, 2, 0, 0, 0, 3, 8, 1, 0, 0, 3, 2, 2, 0]


# -- locations ----------------------------------------------------------------------


def test_locations_use_the_clients_uri_and_drop_unknown_documents() -> None:
    found = to_proto.locations(
        converter(Encoding.UTF8),
        [Location(URI, *END), Location(GONE, 0, 1), Location(CLOSED, 0, 3)],
    )
    assert found == [
        t.Location(uri=CLIENT_URI, range=on(Encoding.UTF8, "end", 2)),
        t.Location(uri=CLOSED, range=span(0, 0, 3)),
    ]


def test_definition_as_links_or_as_plain_locations() -> None:
    links = [
        LocationLink(URI, *MARKER, *KEY, *END),
        LocationLink(GONE, 0, 1, 0, 1, 0, 1),
        LocationLink(CLOSED, 5, 14, 10, 11, *HAN),
    ]
    convert = converter()
    as_links = to_proto.definition(convert, INDEX, links, True)
    assert as_links == [
        t.LocationLink(
            target_uri=CLIENT_URI,
            target_range=on(Encoding.UTF16, "marker", 0),
            target_selection_range=on(Encoding.UTF16, "key", 0),
            origin_selection_range=on(Encoding.UTF16, "end", 2),
        ),
        t.LocationLink(
            target_uri=CLOSED,
            target_range=span(2, 0, 10),
            target_selection_range=span(2, 6, 7),
            origin_selection_range=on(Encoding.UTF16, "han", 1),
        ),
    ]
    assert to_proto.definition(convert, INDEX, links, False) == [
        t.Location(uri=CLIENT_URI, range=on(Encoding.UTF16, "key", 0)),
        t.Location(uri=CLOSED, range=span(2, 6, 7)),
    ]


def test_highlights_are_reads_writes_or_text() -> None:
    found = to_proto.highlights(
        converter(Encoding.UTF32),
        INDEX,
        [Highlight(*KEY, "write"), Highlight(*HAN, "read"), Highlight(*END, "other")],
    )
    assert found == [
        t.DocumentHighlight(range=on(Encoding.UTF32, "key", 0), kind=t.DocumentHighlightKind.Write),
        t.DocumentHighlight(range=on(Encoding.UTF32, "han", 1), kind=t.DocumentHighlightKind.Read),
        t.DocumentHighlight(range=on(Encoding.UTF32, "end", 2), kind=t.DocumentHighlightKind.Text),
    ]


def test_rename_placeholder_and_code_action() -> None:
    target = rn.RenameTarget(URI, *KEY, "𝒳", "/c")
    assert to_proto.rename_placeholder(converter(Encoding.UTF8), INDEX, target) == (
        t.PrepareRenamePlaceholder(range=on(Encoding.UTF8, "key", 0), placeholder="𝒳")
    )
    edit = t.WorkspaceEdit(changes={})
    fixed = to_proto.diagnostic(converter(), INDEX, Diagnostic("near-miss", "hint", 0, 1, "m"))
    action = ca.CodeAction("Use 𝒳", "quickfix", rn.WorkspaceChange(documents=()), preferred=True)
    assert to_proto.code_action(action, edit, [fixed]) == t.CodeAction(
        title="Use 𝒳", kind="quickfix", edit=edit, diagnostics=[fixed], is_preferred=True
    )
    plain = ca.CodeAction("Other", "refactor.rewrite", rn.WorkspaceChange(documents=()))
    sent = to_proto.code_action(plain, edit, [])
    assert sent.diagnostics is None and sent.is_preferred is None


# -- refusals -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("refusal", "code"),
    [
        (Refusal("“b” is already a key of this course", "a", "b", conflict=True), -32803),
        (Refusal("not a key here"), -32803),
        (Refusal("a.md changed; try again", stale=True), -32801),
        (Refusal("changed and conflicting", "a", "b", conflict=True, stale=True), -32801),
    ],
)
def test_a_refusal_is_an_error_answer_with_its_reason(refusal: Refusal, code: int) -> None:
    error = to_proto.refusal_error(refusal)
    assert error == t.ResponseError(code=code, message=refusal.message)
    assert error.data is None
    assert code in (int(t.LSPErrorCodes.RequestFailed), int(t.LSPErrorCodes.ContentModified))
