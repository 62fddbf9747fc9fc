"""Which skipped paths make a course rename refuse (`DiskProblem.kind`, decided from data),
and one file change per real file, none outside the course root."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from mfls import disk
from mfls.disk import problems as dp
from mfls.features import course_rename as cr
from mfls.features.refusal import Refusal
from mfls.workspace.loading import load_course, real_paths, unusable_members


def test_kinds_tell_members_from_links_out_loops_and_vanished_files(tmp_path: Path) -> None:
    root = tmp_path / "course"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "loop").symlink_to(root)
    (tmp_path / "elsewhere").mkdir()
    (root / "out").symlink_to(tmp_path / "elsewhere")
    _, found = disk.walk(str(root))
    assert {(os.path.basename(p.path), p.kind, p.member) for p in found} == {
        ("loop", dp.LOOP, False),
        ("out", dp.OUTSIDE, False),
    }
    (tmp_path / "outside.md").write_text("x")
    (root / "escape.md").symlink_to(tmp_path / "outside.md")
    _, (outside,) = disk.read_text(str(root / "escape.md"), str(root))
    _, (gone,) = disk.read_text(str(root / "missing.md"))
    (root / "latin.md").write_bytes(b"caf\xe9\n")
    _, (latin,) = disk.read_text(str(root / "latin.md"))
    assert (outside.kind, gone.kind, latin.kind) == (dp.OUTSIDE, dp.GONE, dp.UNUSABLE)
    assert latin.member and not outside.member and not gone.member
    assert latin == dp.DiskProblem(latin.path, latin.reason, dp.OUTSIDE), "kind is not compared"


def test_unusable_members_leave_out_links_out_and_nested_courses(
    make_course: Callable[..., Path], tmp_path: Path
) -> None:
    root = make_course(
        {
            "a.md": "{{ q }}\n",
            "latin.md": b"caf\xe9\n",
            "nested/mfcourse.toml": "",
            "nested/bad.md": b"\xff\n",
        }
    )
    (tmp_path / "far.md").write_text("{{ q }}\n")
    (root / "escape.md").symlink_to(tmp_path / "far.md")
    loaded = load_course(str(root))
    assert loaded.nested == (str(root / "nested"),)
    assert {os.path.basename(p.path) for p in loaded.problems} == {
        "latin.md",
        "bad.md",
        "escape.md",
    }
    assert [os.path.basename(p.path) for p in unusable_members(loaded)] == ["latin.md"]


def test_one_change_per_real_file_and_none_outside_the_root(
    make_course: Callable[..., Path],
) -> None:
    root = make_course({"a.md": "{{ q }}\n", "shared/t.md": "T {{ q }}\n"})
    (root / "alias.md").symlink_to("shared/t.md")
    (root / "twice.md").symlink_to("a.md")
    loaded = load_course(str(root))
    assert loaded.course is not None
    change = cr.plan_course_rename(loaded.course, "q", "r")
    assert not isinstance(change, Refusal) and change.markers == 4
    paths = [d.path for d in change.documents if d.path is not None]
    real = real_paths(paths)
    once = cr.one_per_file(change, real)
    assert once.markers == 2
    assert sorted(os.path.relpath(d.path or "", root) for d in once.documents) == [
        "a.md",
        os.path.join("shared", "t.md"),
    ]
    writes = cr.file_changes(change, real, disk.real_path(str(root)))
    assert isinstance(writes, list) and len(writes) == 2, "a file reached twice is written once"
    assert {w.path for w in writes} == {Path(real[p]) for p in paths}
    elsewhere = cr.file_changes(change, real, disk.real_path(str(root / "shared")))
    assert isinstance(elsewhere, cr.Unusable) and "resolves outside" in elsewhere.message
