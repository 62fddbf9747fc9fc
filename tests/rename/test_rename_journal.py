"""The rename journal (mfls.disk.journal): its format while a rename runs, and the flags."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from mfls.cli import rename as cli_rename
from mfls.disk import exchange, journal

FILES = {"mfcourse.toml": "", "a.md": "Use {{ q }}.\n", "b.md": "?[{{ q }} A | B]\r\n"}


def test_the_journal_names_every_file_with_hashes_and_temp_names_while_swapping(
    make_course: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = make_course(FILES)
    seen: list[dict[str, object]] = []

    def look(index: int, path: Path) -> None:
        seen.append(json.loads((root / ".mfls" / "rename-journal.json").read_text()))

    monkeypatch.setattr(exchange, "before_swap", look)
    assert cli_rename.main(["--course", str(root), "q", "r"]) == 0
    assert len(seen) == 2
    data = seen[0]
    assert (data["version"], data["phase"], data["old_key"], data["new_key"]) == (
        1,
        "swapping",
        "q",
        "r",
    )
    files = data["files"]
    assert isinstance(files, list)
    by_name = {Path(f["path"]).name: f for f in files}
    entry = by_name["a.md"]
    assert entry["old_sha256"] == journal.sha256(b"Use {{ q }}.\n")
    assert entry["new_sha256"] == journal.sha256(b"Use {{ r }}.\n")
    assert entry["temp"] == str(root / ".a.md.mfls-tmp")
    assert entry["state"] == "written"
    assert not journal.journal_path(root).exists(), "the journal is removed after a successful run"
    assert sorted(p.name for p in (root / ".mfls").iterdir()) == ["renames.jsonl"]  # the record
    assert sorted(p.name for p in root.iterdir()) == [".mfls", "a.md", "b.md", "mfcourse.toml"]


def test_no_journal_is_not_pending_and_a_damaged_one_is(make_course: Callable[..., Path]) -> None:
    root = make_course(FILES)
    assert journal.pending_journal(root) is None
    (root / ".mfls").mkdir()
    (root / ".mfls" / "rename-journal.json").write_text("{not json")
    found = journal.pending_journal(root)
    assert found is not None and found.damaged
    # A damaged journal is not one mfls wrote (it writes whole journals only): reported,
    # and no advice to act on it.
    assert "cannot be read" in found.message() and "--undo" not in found.message()
    assert journal.pending_warnings([str(root)]) == [found.message()]


def test_resume_and_undo_take_only_the_course_and_need_a_journal(
    make_course: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_course(FILES)
    assert cli_rename.main(["--course", str(root), "--resume"]) == 1
    assert "no interrupted rename is pending" in capsys.readouterr().err
    assert cli_rename.main(["--course", str(root), "--undo", "q", "r"]) == 2
    assert cli_rename.main(["--course", str(root), "q"]) == 2
    with pytest.raises(SystemExit):
        cli_rename.main(["--course", str(root), "--undo", "--resume"])


def test_a_journal_that_cannot_be_written_stops_the_rename_before_any_write(
    make_course: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_course(FILES)
    (root / ".mfls").write_bytes(b"a file where the journal folder would be\n")
    before = {p.name: p.read_bytes() for p in root.iterdir()}
    assert cli_rename.main(["--course", str(root), "q", "r"]) == 2
    assert "cannot write the rename journal" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in root.iterdir()} == before
