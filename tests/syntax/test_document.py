"""The incremental document model: resynchronisation, reuse, lookups."""

from __future__ import annotations

from mfls.syntax.blocks import iter_units
from mfls.syntax.document import Document
from mfls.syntax.model import (
    Block,
    BlockKind,
    Interaction,
    InvalidMarker,
    Literal,
    Marker,
    ScanResult,
)
from mfls.syntax.scanner import scan

LESSON = "".join(f"Paragraph {k} uses {{{{ key{k} }}}}.\n\n" for k in range(200))


def _near(doc: Document, offset: int) -> ScanResult:
    """The scan of the units around `offset`, as features read it."""
    return doc.scan_between(max(0, offset - 1), offset + 1)


def marker_at(doc: Document, offset: int, inclusive_end: bool = False) -> Marker | None:
    for m in _near(doc, offset).markers:
        if m.start <= offset < m.end or (inclusive_end and offset == m.end):
            return m
    return None


def invalid_at(doc: Document, offset: int) -> InvalidMarker | None:
    return next((i for i in _near(doc, offset).invalid if i.start <= offset < i.end), None)


def interaction_at(doc: Document, offset: int) -> Interaction | None:
    return next((x for x in _near(doc, offset).interactions if x.start <= offset < x.end), None)


def literal_at(doc: Document, offset: int) -> Literal | None:
    return next((lit for lit in _near(doc, offset).literals if lit.start <= offset < lit.end), None)


def block_at(doc: Document, offset: int) -> Block | None:
    return next((b for b in _near(doc, offset).blocks if b.start <= offset <= b.end), None)


def records(doc: Document) -> list[object]:
    return [view.record for view in doc.units()]


def reused(old: Document, new: Document) -> int:
    """How many of the new document's units share their stored scan with the old one."""
    before = {id(r) for r in records(old)}
    return sum(1 for r in records(new) if id(r) in before)


def test_initial_result_equals_scan() -> None:
    doc = Document(LESSON, version=3)
    assert doc.version == 3
    assert doc.result() == scan(LESSON)
    assert [(v.start, v.end) for v in doc.units()] == [(u.start, u.end) for u in iter_units(LESSON)]


def test_small_edit_reparses_only_nearby_units() -> None:
    doc = Document(LESSON)
    at = LESSON.index("Paragraph 100")
    new = doc.edited(at, at, "x", version=4)
    assert new.version == 4 and new.text == LESSON[:at] + "x" + LESSON[at:]
    assert new.result() == scan(new.text)
    assert reused(doc, new) >= 197
    # Units after the edit keep their stored scan; only their position moved.
    marker = marker_at(new, new.text.index("key150"))
    assert marker is not None and marker.key == "key150"
    assert new.text[marker.start : marker.end] == "{{ key150 }}"


def test_edit_that_opens_a_fence_reparses_to_the_end_and_closing_it_resyncs() -> None:
    doc = Document(LESSON)
    at = LESSON.index("Paragraph 20")
    opened = doc.edited(at, at, "```\n")
    assert opened.result() == scan(opened.text)
    assert reused(doc, opened) <= 20
    assert opened.result().markers[-1].key == "key19"
    closed_at = opened.text.index("Paragraph 30")
    closed = opened.edited(closed_at, closed_at, "```\n")
    assert closed.result() == scan(closed.text)
    keys = [m.key for m in closed.result().markers]
    assert "key25" not in keys and "key30" in keys and "key199" in keys
    # Inside the now closed fence, an edit stops reparsing right after the fence.
    inside = closed.text.index("Paragraph 25")
    again = closed.edited(inside, inside, "{{ z }}")
    assert again.result() == scan(again.text)
    assert reused(closed, again) >= len(records(closed)) - 2


def test_edit_can_change_how_the_previous_block_ends() -> None:
    doc = Document("Title\n\nnext {{ a }}\n")
    # Removing the blank line makes "next" a lazy continuation of the paragraph before.
    joined = doc.edited(5, 7, "\n")
    assert joined.result() == scan(joined.text)
    assert len(joined.result().blocks) == 1
    # A setext underline typed under a paragraph turns it into a heading.
    heading = doc.edited(6, 6, "===\n")
    blocks = heading.result().blocks
    assert blocks[0].kind is BlockKind.HEADING and blocks[0].setext
    assert heading.result() == scan(heading.text)


def test_crlf_split_and_join() -> None:
    doc = Document("a\r\rb {{ x }}\r\n")
    merged = doc.edited(2, 2, "\n")
    assert merged.text == "a\r\n\rb {{ x }}\r\n"
    assert merged.result() == scan(merged.text)
    split = merged.edited(2, 3, "")
    assert split.result() == scan(split.text)


def test_edits_on_empty_and_whole_documents() -> None:
    empty = Document("")
    assert empty.result() == scan("")
    grown = empty.edited(0, 0, "?[{{ q }} A|B]")
    assert grown.result() == scan(grown.text)
    assert grown.result().interactions[0].binding == "q"
    cleared = grown.edited(0, len(grown.text), "")
    assert cleared.text == "" and cleared.result() == scan("")


def test_lookups_at_offsets() -> None:
    text = "Hi {{ a }} and {{ }}.\n\n?[{{ b }} X|Y]\n\n`{{ c }}`\n"
    doc = Document(text).edited(0, 0, "# T\n\n")
    text = doc.text
    a = text.index("{{ a }}")
    assert marker_at(doc, a).key == "a"
    assert marker_at(doc, a + 7) is None
    assert marker_at(doc, a + 7, inclusive_end=True).key == "a"
    assert invalid_at(doc, text.index("{{ }}") + 1).reason.value == "empty"
    interaction = interaction_at(doc, text.index("X|Y"))
    assert interaction is not None and interaction.binding == "b"
    literal = literal_at(doc, text.index("{{ c }}"))
    assert literal is not None and literal.kind.value == "code_span"
    block = block_at(doc, text.index("?["))
    assert block is not None and block.kind is BlockKind.PARAGRAPH
    assert block_at(doc, 0).kind is BlockKind.HEADING
    part = doc.scan_between(text.index("?["), text.index("?[") + 1)
    assert [m.key for m in part.markers] == ["b"]
