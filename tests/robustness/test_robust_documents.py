"""Well-formed but wrong document traffic: positions out of range, changes to documents
never opened, versions going backwards, edits out of bounds. After each, the server is up,
hovers correctly and holds exactly the text a correct editor would hold."""

from __future__ import annotations

import asyncio

from lsprotocol import types as t
from robust_session import PROBE, verify

from tests.kit.lsp_client import Session
from tests.kit.lsp_client import session as lsp_session

URI = "file:///robustness/doc.md"
TEXT = (
    "# Lesson\n\n?[{{ colour }} Red | Blue]\r\n\r\nUse {{ colour }} with 🚀 and {{ size }}.\r"
    "Then " + PROBE + ".\n"
)


def partial(sl: int, sc: int, el: int, ec: int, text: str) -> t.TextDocumentContentChangePartial:
    return t.TextDocumentContentChangePartial(
        range=t.Range(
            start=t.Position(line=sl, character=sc), end=t.Position(line=el, character=ec)
        ),
        text=text,
    )


async def answered(session: Session, position: t.Position) -> None:
    """Every position request answers (a result or null) for this position."""
    doc = t.TextDocumentIdentifier(uri=URI)
    client = session.client
    await client.text_document_hover_async(t.HoverParams(text_document=doc, position=position))
    await client.text_document_completion_async(
        t.CompletionParams(text_document=doc, position=position)
    )
    await client.text_document_definition_async(
        t.DefinitionParams(text_document=doc, position=position)
    )
    await client.text_document_references_async(
        t.ReferenceParams(
            text_document=doc,
            position=position,
            context=t.ReferenceContext(include_declaration=True),
        )
    )
    await client.text_document_document_highlight_async(
        t.DocumentHighlightParams(text_document=doc, position=position)
    )
    await client.text_document_semantic_tokens_range_async(
        t.SemanticTokensRangeParams(
            text_document=doc, range=t.Range(start=t.Position(line=0, character=0), end=position)
        )
    )


async def test_positions_out_of_range_and_past_line_ends_are_answered() -> None:
    async with lsp_session() as session:
        session.open(URI, TEXT)
        big = 2**31 - 1
        for line, character in [
            (0, 500),  # past the end of a line
            (2, 27),  # past the end of a CRLF line, between CR and LF
            (4, 1000),
            (5, 0),  # the empty last line
            (6, 0),  # one line past the end
            (1000, 3),
            (big, big),
            (4, 24),  # inside the surrogate pair of 🚀
        ]:
            await answered(session, t.Position(line=line, character=character))
        await verify(session, URI, TEXT)


async def test_a_change_to_a_document_never_opened_is_ignored() -> None:
    other = "file:///robustness/never-opened.md"
    async with lsp_session() as session:
        session.open(URI, TEXT)
        session.change(other, [partial(0, 0, 0, 0, "{{ x }}")], version=5)
        session.change(other, [t.TextDocumentContentChangeWholeDocument(text="{{ y }}")], 6)
        await verify(session, URI, TEXT)
        hover = await session.client.text_document_hover_async(
            t.HoverParams(
                text_document=t.TextDocumentIdentifier(uri=other),
                position=t.Position(line=0, character=3),
            )
        )
        assert hover is None, "a document never opened must not exist on the server"


async def test_a_version_going_backwards_still_applies_the_edit_in_order() -> None:
    """The protocol promises increasing versions; the server trusts the order of arrival
    and applies every change, so its text stays what the editor shows."""
    async with lsp_session() as session:
        session.open(URI, TEXT, version=10)
        session.change(URI, [partial(0, 2, 0, 8, "Intro")], version=3)
        session.change(URI, [partial(0, 2, 0, 2, "An ")], version=1)
        session.change(URI, [partial(0, 0, 0, 0, "")], version=-7)
        expected = TEXT.replace("# Lesson", "# An Intro", 1)
        await verify(session, URI, expected)


async def test_edit_ranges_out_of_bounds_are_clamped_to_the_text() -> None:
    """An LSP position past a line's end means that end; past the last line, the end of the
    text (the spec's rule for positions). Reversed ranges are taken as written backwards."""
    async with lsp_session() as session:
        session.open(URI, TEXT)
        session.change(URI, [partial(0, 900, 0, 999, "!")])  # past the line's end
        text = TEXT.replace("# Lesson", "# Lesson!", 1)
        session.change(URI, [partial(100, 0, 200, 5, "\n" + PROBE)])  # past the last line
        text += "\n" + PROBE
        session.change(URI, [partial(0, 4, 0, 2, "X")])  # reversed: replaces [2, 4)
        text = text[:2] + "X" + text[4:]
        await verify(session, URI, text)


async def test_many_changes_in_one_notification_apply_in_order() -> None:
    async with lsp_session() as session:
        session.open(URI, TEXT)
        session.change(
            URI,
            [
                partial(0, 0, 0, 0, "{{ a "),
                partial(0, 0, 0, 5, ""),
                t.TextDocumentContentChangeWholeDocument(text="{{ q\r\n"),
                partial(1, 0, 1, 0, "}}\r" + PROBE),
                partial(0, 4, 0, 4, "\u2028"),
            ],
        )
        await asyncio.sleep(0.05)
        await verify(session, URI, "{{ q\u2028\r\n}}\r" + PROBE)


async def test_open_twice_replaces_and_close_of_an_unknown_document_is_ignored() -> None:
    async with lsp_session() as session:
        session.open(URI, "{{ old }}")
        session.open(URI, TEXT, version=2)
        session.client.text_document_did_close(
            t.DidCloseTextDocumentParams(
                text_document=t.TextDocumentIdentifier(uri="file:///robustness/unknown.md")
            )
        )
        await verify(session, URI, TEXT)
