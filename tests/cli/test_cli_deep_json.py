"""JSON and TOML nested far too deep, through the command line as a user meets it: an
AI-Shifu export nested 1,000 to 100,000 levels, a course tool folder whose
`structure.json`, `.shifu-sync.json`, `mfcourse.toml` or rename journal nests 5,000.

Each is refused with a clear line before any recursive reader sees it (the playground runs
the same code on Pyodide, whose stack a few thousand levels overflow for good), and an
export at the limit still unpacks in both layouts and packs back byte for byte.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from mfls.exports.ai_shifu import MAX_NESTING
from mfls.exports.json_text import nesting
from tests.kit.cli import mfls
from tests.kit.exports import dumps, export, item, node


def deep_export(depth: int) -> bytes:
    """A valid export but for an unknown field of lists nested `depth` deep (the export
    nests one level more)."""
    text = dumps(export([item("a", "A", "Hi {{name}}\n")], [node("a")], future_field=0))
    return text.replace(b'"future_field": 0', b'"future_field": ' + b"[" * depth + b"]" * depth)


@pytest.mark.parametrize("depth", [1_000, 4_000, 10_000, 100_000])
def test_an_export_nested_deep_is_refused_with_its_depth(tmp_path: Path, depth: int) -> None:
    (tmp_path / "deep.json").write_bytes(deep_export(depth))
    reason = (
        "deep.json is not a usable AI-Shifu export: nested too deep to read: objects and "
        f"lists nest {depth + 1} levels deep; mfls reads exports nested up to "
        f"{MAX_NESTING} levels"
    )
    for args in (["check", "deep.json"], ["unpack", "deep.json", "out"]):
        done = mfls(*args, cwd=tmp_path)
        assert (done.returncode, done.stderr) == (2, f"mfls {args[0]}: {reason}\n")
    assert not (tmp_path / "out").exists()


def test_an_export_at_the_limit_unpacks_in_both_layouts_and_packs_back(tmp_path: Path) -> None:
    field: list[object] = []
    for _ in range(MAX_NESTING - 2):
        field = [field]
    data = dumps(export([item("a", "A", "Hi {{name}}\n")], [node("a")], future_field=field))
    assert nesting(json.loads(data)) == MAX_NESTING
    (tmp_path / "course.json").write_bytes(data)
    for layout in ("mfls", "course-creator"):
        unpacked = mfls("unpack", "--layout", layout, "course.json", layout, cwd=tmp_path)
        assert unpacked.returncode == 0, unpacked.stderr
        packed = mfls("pack", layout, f"{layout}.json", cwd=tmp_path)
        assert packed.returncode == 0, packed.stderr
        assert (tmp_path / f"{layout}.json").read_bytes() == data


DEEP = 5_000


def deep_list(depth: int = DEEP) -> str:
    return "[" * depth + "]" * depth


def course_tool_folder(root: Path) -> Path:
    (root / "lessons").mkdir(parents=True)
    (root / "lessons" / "lesson-01.md").write_text("?[%{{name}}...Your name]\n")
    (root / "lessons" / "lesson-02.md").write_text("Hi {{name}}\n")
    (root / "structure.json").write_text(
        json.dumps({"chapters": [{"title": "C", "lessons": [{"file": "lesson-01.md"}]}]})
    )
    return root


def problems(done: subprocess.CompletedProcess[str]) -> list[tuple[str, str, str]]:
    rows = json.loads(done.stdout)["diagnostics"]
    return [(Path(r["path"]).name, r["code"], r["message"]) for r in rows]


def test_course_files_nested_deep_are_problems_of_the_course(tmp_path: Path) -> None:
    folder = course_tool_folder(tmp_path / "course")
    (folder / "structure.json").write_text(f'{{"chapters": {deep_list()}}}')
    (folder / "mfcourse.toml").write_text(f"x = {deep_list()}\n")
    done = mfls("check", "--format", "json", "course", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    found = problems(done)
    assert ("structure.json", "course-file-invalid") in [(n, c) for n, c, _ in found]
    structure = next(m for n, _, m in found if n == "structure.json")
    assert f"objects and lists nest {DEEP + 1} levels deep" in structure
    course_file = next(m for n, _, m in found if n == "mfcourse.toml")
    assert "nested too deep to read" in course_file


def test_a_sync_manifest_nested_deep_is_ignored_as_the_tool_ignores_a_broken_one(
    tmp_path: Path,
) -> None:
    folder = course_tool_folder(tmp_path / "course")
    (folder / ".shifu-sync.json").write_text(f'{{"lessons": {deep_list()}}}')
    done = mfls("check", "--format", "json", "course", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert problems(done) == []


def test_a_rename_journal_nested_deep_is_damaged_not_a_crash(tmp_path: Path) -> None:
    folder = course_tool_folder(tmp_path / "course")
    (folder / ".mfls").mkdir()
    (folder / ".mfls" / "rename-journal.json").write_text(f'{{"files": {deep_list()}}}')
    done = mfls("rename", "--course", "course", "name", "learner", cwd=tmp_path)
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, done.stderr
    assert "rename-journal.json: this rename journal cannot be read" in done.stderr
    assert f"objects and lists nest {DEEP + 1} levels deep" in done.stderr
    assert "nothing was done" in done.stderr
