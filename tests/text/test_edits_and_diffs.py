"""mfls.text: text edits and unified diffs (the file writer: tests/disk/test_replacing.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mfls.text import diff as diff_module
from mfls.text.diff import diff_of_changes, unified_diff
from mfls.text.edits import OverlappingEdits, TextChange, apply_changes


def test_apply_changes_uses_original_offsets_in_any_order() -> None:
    text = "ab{{x}}cd{{x}}"
    changes = [TextChange(9, 14, "{{ y }}"), TextChange(2, 7, "{{ y }}")]
    assert apply_changes(text, changes) == "ab{{ y }}cd{{ y }}"


def test_apply_changes_refuses_overlaps() -> None:
    with pytest.raises(OverlappingEdits):
        apply_changes("abcdef", [TextChange(0, 3, "x"), TextChange(2, 4, "y")])


def test_diff_keeps_crlf_and_marks_missing_final_newline() -> None:
    old = "one\r\n{{a}}\r\nthree"
    new = "one\r\n{{ b }}\r\nthree"
    diff = unified_diff("l.md", old, new)
    assert diff.startswith("--- a/l.md\n+++ b/l.md\n")
    assert "-{{a}}\r\n" in diff
    assert "+{{ b }}\r\n" in diff
    last = unified_diff("l.md", "x {{a}}", "x {{ b }}")
    assert last.endswith("+x {{ b }}\n\\ No newline at end of file\n")


def test_diff_of_identical_texts_is_empty() -> None:
    assert unified_diff("l.md", "same\n", "same\n") == ""


def _changes_for(text: str, old: str, new: str) -> list[TextChange]:
    changes = []
    at = text.find(old)
    while at != -1:
        changes.append(TextChange(at, at + len(old), new))
        at = text.find(old, at + len(old))
    return changes


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        (
            "".join(f"line {i}\n" for i in range(40)).replace("line 5\n", "a {{q}}\n"),
            "{{q}}",
            "{{ r }}",
        ),
        (
            "{{q}}\r\nx\r\n" * 3 + "".join(f"l{i}\r\n" for i in range(20)) + "end {{q}}",
            "{{q}}",
            "{{ r }}",
        ),
        ("one {{q}} two {{q}}\rthree\rfour {{q}}", "{{q}}", "{{ a much longer key }}"),
        ("".join(f"p{i}\n" for i in range(30)) + "{{q}}\n", "{{q}}\n", "{{ r }}\n\nnew line\n"),
        ("head\n{{q}}\n" + "".join(f"m{i}\n" for i in range(12)) + "{{q}}\ntail\n", "{{q}}\n", ""),
    ],
)
def test_diff_of_changes_matches_a_line_diff(text: str, old: str, new: str) -> None:
    changes = _changes_for(text, old, new)
    assert changes
    expected = unified_diff("l.md", text, apply_changes(text, changes))
    assert diff_of_changes("l.md", text, changes) == expected


@given(st.lists(st.sampled_from(["a", "é", "\n", "\r", "\r\n", "\u2028", " "]), max_size=30))
def test_diff_lines_split_only_at_physical_line_ends(pieces: list[str]) -> None:
    text = "".join(pieces)
    lines = diff_module._lines(text)
    assert "".join(lines) == text
    for line in lines[:-1]:
        assert line.endswith(("\n", "\r"))
    for line in lines:
        body = line.rstrip("\r\n")
        assert "\n" not in body and "\r" not in body
        assert line == body or line[len(body) :] in ("\n", "\r", "\r\n")
