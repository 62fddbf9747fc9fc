"""mfls.refactor: text edits, unified diffs and the all-or-nothing file writer."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mfls.refactor import atomic
from mfls.refactor.atomic import AtomicWriteFailed, FileChange, FileChangedOnDisk
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


def _files(tmp_path: Path, count: int) -> list[Path]:
    paths = []
    for i in range(count):
        path = tmp_path / f"f{i}.md"
        path.write_bytes(f"file {i} {{{{a}}}}\r\n".encode())
        paths.append(path)
    return paths


def _changes(paths: list[Path]) -> list[FileChange]:
    return [
        FileChange(p, p.read_bytes(), p.read_bytes().replace(b"{{a}}", b"{{ b }}")) for p in paths
    ]


def test_apply_file_changes_writes_every_file_and_leaves_no_temp(tmp_path: Path) -> None:
    paths = _files(tmp_path, 4)
    paths[1].chmod(0o600)
    atomic.apply_file_changes(_changes(paths))
    for i, path in enumerate(paths):
        assert path.read_bytes() == f"file {i} {{{{ b }}}}\r\n".encode()
    assert paths[1].stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == [p.name for p in paths]


def test_failed_third_temp_write_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _files(tmp_path, 4)
    before = {p: p.read_bytes() for p in paths}
    real = atomic.write_temp
    calls: list[Path] = []

    def failing(path: Path, data: bytes) -> Path:
        calls.append(path)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(atomic, "write_temp", failing)
    with pytest.raises(AtomicWriteFailed, match="left as it was"):
        atomic.apply_file_changes(_changes(paths))
    assert {p: p.read_bytes() for p in paths} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [p.name for p in paths]


def test_failed_third_replace_restores_the_first_two(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = _files(tmp_path, 4)
    before = {p: p.read_bytes() for p in paths}
    real = atomic.replace
    calls: list[Path] = []

    def failing(temp: Path, path: Path) -> None:
        calls.append(path)
        if len(calls) == 3:
            raise OSError(5, "Input/output error")
        real(temp, path)

    monkeypatch.setattr(atomic, "replace", failing)
    with pytest.raises(AtomicWriteFailed):
        atomic.apply_file_changes(_changes(paths))
    assert {p: p.read_bytes() for p in paths} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [p.name for p in paths]


def test_a_file_changed_since_planning_stops_everything(tmp_path: Path) -> None:
    paths = _files(tmp_path, 3)
    changes = _changes(paths)
    paths[2].write_bytes(b"edited meanwhile\n")
    with pytest.raises(FileChangedOnDisk):
        atomic.apply_file_changes(changes)
    assert paths[0].read_bytes() == b"file 0 {{a}}\r\n"


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
