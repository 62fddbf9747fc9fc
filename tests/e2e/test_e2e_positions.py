"""Position encodings end to end: columns after emoji, CRLF documents, edits, clamping.

The lesson, line by line (code point columns, CRLF line endings):
  0: "😀 ?[{{ q }} A|B]"            binding `{{ q }}` at 4-11
  1: ""
  2: "😀😀 Use {{ q }} and {{ }}."   reference 7-14, empty marker 19-24
Each emoji is 1 code point, 2 UTF-16 units and 4 UTF-8 bytes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_session import Session, capabilities, session, uri_of, write_files
from lsprotocol import types as t

LESSON = "😀 ?[{{ q }} A|B]\r\n\r\n😀😀 Use {{ q }} and {{ }}.\r\n"

# client -> (negotiated encoding, extra units per emoji, how diagnostics arrive)
CLIENTS = {
    "visual-studio-code": ("utf-16", 1),
    "neovim@v0.11": ("utf-8", 3),
    "emacs": ("utf-32", 0),
}


def col(code_points: int, emoji: int, extra: int) -> int:
    return code_points + emoji * extra


async def diagnostics_of(s: Session, uri: str, expect: str | None) -> list[t.Diagnostic]:
    """Pull or wait for a push, depending on what the server chose for this client."""
    assert s.result is not None
    if s.result.capabilities.diagnostic_provider is not None:
        report = await s.pull(uri)
        return list(report.items)

    def ready(items: list[t.Diagnostic]) -> bool:
        codes = {d.code for d in items}
        return expect in codes if expect else "marker-empty" not in codes

    return await s.pushed(uri, ready)


@pytest.mark.parametrize("client", list(CLIENTS))
async def test_columns_after_emoji_in_a_crlf_document(client: str, tmp_path: Path) -> None:
    encoding, extra = CLIENTS[client]
    write_files(tmp_path, {"lesson.md": LESSON})
    async with session(capabilities(client), [tmp_path]) as s:
        assert s.encoding == encoding
        await s.indexed()
        uri = s.open(tmp_path / "lesson.md")

        found = await diagnostics_of(s, uri, "marker-empty")
        empty = [d for d in found if d.code == "marker-empty"]
        assert [d.range for d in empty] == [
            t.Range(
                start=t.Position(line=2, character=col(19, 2, extra)),
                end=t.Position(line=2, character=col(24, 2, extra)),
            )
        ]

        # Definition from the reference on line 2 lands on the binding on line 0.
        links = await s.client.text_document_definition_async(
            t.DefinitionParams(
                text_document=t.TextDocumentIdentifier(uri=uri),
                position=t.Position(line=2, character=col(10, 2, extra)),
            )
        )
        assert links, "no definition"
        target = links[0]
        target_range = (
            target.target_selection_range if hasattr(target, "target_uri") else target.range
        )
        assert target_range.start.line == 0
        assert col(4, 1, extra) <= target_range.start.character
        assert target_range.end.character <= col(11, 1, extra)
        if hasattr(target, "origin_selection_range") and target.origin_selection_range:
            origin = target.origin_selection_range
            assert origin.start.line == 2
            assert col(7, 2, extra) <= origin.start.character <= col(10, 2, extra)

        # An edit after the emoji, then one at the end of a CRLF line: fill the empty marker.
        insert_at = t.Position(line=2, character=col(2, 2, extra))
        s.change(
            uri,
            [
                t.TextDocumentContentChangePartial(
                    range=t.Range(start=insert_at, end=insert_at), text="x"
                ),
                t.TextDocumentContentChangePartial(
                    range=t.Range(
                        start=t.Position(line=2, character=col(22, 2, extra)),
                        end=t.Position(line=2, character=col(22, 2, extra)),
                    ),
                    text="q",
                ),
            ],
        )
        found = await diagnostics_of(s, uri, None)
        assert [d.code for d in found if d.code.startswith("marker-")] == []

        hover = await s.client.text_document_hover_async(
            t.HoverParams(
                text_document=t.TextDocumentIdentifier(uri=uri),
                position=t.Position(line=2, character=col(23, 2, extra)),
            )
        )
        assert hover is not None
        assert hover.range is not None
        assert hover.range.start.line == 2
        assert hover.range.start.character >= col(20, 2, extra)


async def test_out_of_range_positions_are_clamped_not_fatal(tmp_path: Path) -> None:
    write_files(tmp_path, {"lesson.md": LESSON})
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        await s.indexed()
        uri = s.open(tmp_path / "lesson.md")
        doc = t.TextDocumentIdentifier(uri=uri)
        # Past the end of a line, past the last line, inside a surrogate pair.
        for position in (
            t.Position(line=0, character=500),
            t.Position(line=99, character=0),
            t.Position(line=2, character=1),
        ):
            await s.client.text_document_hover_async(
                t.HoverParams(text_document=doc, position=position)
            )
            await s.client.text_document_completion_async(
                t.CompletionParams(text_document=doc, position=position)
            )
        # A change whose range runs past the end of the document is clamped too.
        s.change(
            uri,
            [
                t.TextDocumentContentChangePartial(
                    range=t.Range(
                        start=t.Position(line=3, character=0), end=t.Position(line=40, character=9)
                    ),
                    text="More {{ q }}",
                )
            ],
        )
        symbols = await s.client.text_document_document_symbol_async(
            t.DocumentSymbolParams(text_document=doc)
        )
        assert symbols is not None
        highlights = await s.client.text_document_document_highlight_async(
            t.DocumentHighlightParams(text_document=doc, position=t.Position(line=3, character=8))
        )
        assert highlights is not None and len(highlights) == 3
        assert uri_of(tmp_path / "lesson.md") == uri
