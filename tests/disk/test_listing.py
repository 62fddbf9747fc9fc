"""mfls.disk.walk: what it lists, and the folders it skips as problems."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from mfls import disk
from mfls.disk import DiskProblem


def test_walk_skips_loops_links_out_and_hidden_directories(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "o.md").write_text("o")
    root = tmp_path / "course"
    (root / "sub").mkdir(parents=True)
    (root / "a.md").write_text("a")
    (root / "sub" / "b.md").write_text("b")
    (root / "sub" / "loop").symlink_to(root)
    (root / "out").symlink_to(outside)
    (root / ".git").mkdir()
    (root / ".git" / "c.md").write_text("c")
    (root / "nested").mkdir()
    (root / "nested" / "mfcourse.toml").write_text("")
    with caplog.at_level(logging.DEBUG):
        listing, problems = disk.walk(str(root), landmarks=("mfcourse.toml",))
    assert caplog.records == []
    assert sorted(os.path.relpath(p, root) for p in listing.files) == ["a.md", "sub/b.md"]
    assert listing.landmarks == (str(root / "nested" / "mfcourse.toml"),)
    assert set(problems) == {
        DiskProblem(str(root / "sub" / "loop"), "directory loop through a symbolic link"),
        DiskProblem(str(root / "out"), f"symbolic link leaves the course root {root}"),
    }
    unmarked, _ = disk.walk(str(root))
    assert str(root / "nested" / "mfcourse.toml") in unmarked.files


def test_walk_stops_at_the_document_limit(tmp_path: Path) -> None:
    for index in range(5):
        (tmp_path / f"{index}.md").write_text("x")
    (tmp_path / "mfcourse.toml").write_text("")
    listing, problems = disk.walk(str(tmp_path), max_files=3, landmarks=("mfcourse.toml",))
    assert len(listing.files) == 3
    assert listing.landmarks == (str(tmp_path / "mfcourse.toml"),)
    assert problems == (
        DiskProblem(str(tmp_path), "listing stopped after 3 files (the document limit)"),
    )


def test_fifos_devices_and_dangling_links_are_no_files(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.md")
    (tmp_path / "dangling.md").symlink_to(tmp_path / "missing.md")
    (tmp_path / "folder.md").mkdir()
    (tmp_path / "folder.md" / "inner.md").write_text("x")
    listing, problems = disk.walk(str(tmp_path))
    assert listing.files == (str(tmp_path / "folder.md" / "inner.md"),)
    assert problems == ()


@pytest.mark.skipif(os.geteuid() == 0, reason="root lists every folder")
def test_an_unlistable_folder_is_a_problem(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "a.md").write_text("x")
    locked.chmod(0)
    try:
        listing, problems = disk.walk(str(tmp_path))
    finally:
        locked.chmod(0o755)
    assert listing.files == ()
    assert problems == (DiskProblem(str(locked), "cannot list it (Permission denied)"),)


def test_names_that_are_not_utf8_are_listed(tmp_path: Path) -> None:
    raw = os.fsencode(str(tmp_path)) + b"/caf\xe9.md"
    with open(raw, "wb") as handle:
        handle.write(b"x")
    listing, problems = disk.walk(str(tmp_path))
    assert listing.files == (os.fsdecode(raw),) and problems == ()
    assert disk.read_text(listing.files[0]) == ("x", ())


def test_a_missing_root_is_a_problem(tmp_path: Path) -> None:
    listing, problems = disk.walk(str(tmp_path / "missing"))
    assert listing.files == ()
    [problem] = problems
    assert problem.path == str(tmp_path / "missing") and problem.reason.startswith("cannot list")
