"""The LSP side of code lenses, document links, snippets and comment folds, and the
client capabilities they depend on."""

from __future__ import annotations

import copy

from lsprotocol import types as t
from pytest_lsp import client_capabilities

from mfls.features.code_lens import Lens
from mfls.features.document_links import DocumentLink
from mfls.features.folding import Fold
from mfls.features.navigation import Location
from mfls.features.snippets import Snippet, Snippets
from mfls.lsp import to_proto
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.documents import OpenBuffer, Texts
from mfls.text.line_index import Encoding, LineIndex

TEXT = "😀 ?[{{ q }} A | B]\nUse {{ q }}\n<!--\n-->\n"
URI = "file:///c/a.md"


def converter() -> to_proto.Converter:
    texts = Texts(lambda uri: TEXT if uri == URI else None)
    texts.open[URI] = OpenBuffer("file:///c/A.md", 1, LineIndex(TEXT))
    return to_proto.Converter(texts, Encoding.UTF16)


def test_a_lens_carries_the_client_uri_and_utf16_positions() -> None:
    convert = converter()
    key = TEXT.index("q")
    read = TEXT.index("q", key + 1)
    lens = Lens(
        key, key + 1, "q", "asked here · read 1 time in 1 lesson", (Location(URI, read, read + 1),)
    )
    (found,) = to_proto.code_lenses(convert, URI, LineIndex(TEXT), [lens])
    assert found.range == t.Range(start=t.Position(0, 8), end=t.Position(0, 9))
    assert found.command == t.Command(
        title="asked here · read 1 time in 1 lesson",
        command="mfls.showReferences",
        arguments=[
            "file:///c/A.md",
            {"line": 0, "character": 8},
            [
                {
                    "uri": "file:///c/A.md",
                    "range": {
                        "start": {"line": 1, "character": 7},
                        "end": {"line": 1, "character": 8},
                    },
                }
            ],
        ],
    )


def test_links_snippets_and_comment_folds() -> None:
    convert = converter()
    index = LineIndex(TEXT)
    (link,) = to_proto.document_links(index, convert, [DocumentLink(3, 5, URI, "Open a.md")])
    assert (link.target, link.tooltip) == ("file:///c/A.md", "Open a.md")
    assert link.range == t.Range(start=t.Position(0, 4), end=t.Position(0, 6))
    item = Snippet("input", "{{ ${1:q} }} ...${2:h}]$0", "{{ q }} ...h]", "?[{{ q }} ...h]", "2")
    for snippets, text, fmt in (
        (True, item.snippet, t.InsertTextFormat.Snippet),
        (False, item.plain, t.InsertTextFormat.PlainText),
    ):
        (found,) = to_proto.snippet_completion_list(
            convert, index, Snippets(5, 5, (item,)), snippets
        ).items
        assert found.insert_text_format == fmt and found.kind == t.CompletionItemKind.Snippet
        assert isinstance(found.text_edit, t.TextEdit) and found.text_edit.new_text == text
    start = TEXT.index("<!--")
    (fold,) = to_proto.folding_ranges(index, [Fold(start, len(TEXT) - 1, "comment")])
    assert (fold.start_line, fold.end_line, fold.kind) == (2, 3, t.FoldingRangeKind.Comment)


def test_capabilities_for_snippets_and_lens_refresh() -> None:
    vscode = copy.deepcopy(client_capabilities("visual-studio-code"))
    read = Capabilities.read(vscode)
    assert read.completion_snippets
    assert read.code_lens_refresh == bool(
        vscode.workspace
        and vscode.workspace.code_lens
        and vscode.workspace.code_lens.refresh_support
    )
    assert not Capabilities.read(t.ClientCapabilities()).completion_snippets
    emacs = Capabilities.read(client_capabilities("emacs"))
    assert not emacs.completion_snippets and not emacs.code_lens_refresh
