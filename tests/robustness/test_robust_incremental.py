"""Incremental documents over hostile text: after any edit sequence, `Document.edited`
gives exactly what a full `scan` of the final text gives, and its offset lookups agree.

tests/syntax/test_incremental.py edits documents built from MarkdownFlow lines; these edit
arbitrary text (surrogates, NUL, control characters, CR/CRLF mixtures, container prefixes)
and check the lookups and the scan invariants too.
"""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from mdflow_strategies import apply_edits, edit_sequences, hostile_text

from mfls.syntax.document import Document
from mfls.syntax.model import ScanResult
from mfls.syntax.scanner import scan
from tests.fuzz.scan_invariants import check_result

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _lookups_agree(doc: Document, full: ScanResult, text: str) -> None:
    for offset in range(0, len(text) + 1, max(1, len(text) // 25)):
        near = doc.scan_between(max(0, offset - 1), offset + 1)
        marker = next((m for m in full.markers if m.start <= offset < m.end), None)
        found = next((m for m in near.markers if m.start <= offset < m.end), None)
        assert found == marker, f"marker_at({offset})"
        invalid = next((i for i in full.invalid if i.start <= offset < i.end), None)
        found_invalid = next((i for i in near.invalid if i.start <= offset < i.end), None)
        assert found_invalid == invalid, f"invalid_at({offset})"
        interaction = next((x for x in full.interactions if x.start <= offset < x.end), None)
        found_x = next((x for x in near.interactions if x.start <= offset < x.end), None)
        assert found_x == interaction, f"interaction_at({offset})"


@st.composite
def _text_and_edits(draw: st.DrawFn) -> tuple[str, list[tuple[int, int, str]]]:
    text = draw(hostile_text)
    return text, draw(edit_sequences(text))


@SETTINGS
@given(_text_and_edits())
@example(("a\r\nb {{ k }}\r\n", [(1, 2, ""), (1, 1, "\n")]))  # split a CRLF, then rejoin it
@example(("> {{ a\n> b }}\n", [(2, 2, "```\n"), (2, 6, "")]))
@example(("\ud800{{ x }}\x00", [(0, 1, ""), (0, 0, "\udfff\r")]))
def test_any_edit_sequence_equals_a_full_scan(case: tuple[str, list[tuple[int, int, str]]]) -> None:
    text, edits = case
    doc = Document(text)
    for start, end, new_text in edits:
        doc = doc.edited(start, end, new_text)
        text = apply_edits(text, [(start, end, new_text)])
        full = scan(text)
        assert doc.text == text
        assert doc.result() == full
    check_result(text, doc.result())
    _lookups_agree(doc, doc.result(), text)


@SETTINGS
@given(_text_and_edits())
def test_undoing_every_edit_returns_the_original_result(
    case: tuple[str, list[tuple[int, int, str]]],
) -> None:
    text, edits = case
    original = Document(text)
    doc = original
    undo: list[tuple[int, int, str]] = []
    current = text
    for start, end, new_text in edits:
        undo.append((start, start + len(new_text), current[start:end]))
        doc = doc.edited(start, end, new_text)
        current = apply_edits(current, [(start, end, new_text)])
    for start, end, old_text in reversed(undo):
        doc = doc.edited(start, end, old_text)
    assert doc.text == text
    assert doc.result() == original.result() == scan(text)
