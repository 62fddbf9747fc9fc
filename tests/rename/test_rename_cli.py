"""`mfls rename`: dry runs, real runs, refusals and all-or-nothing writes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from rename_support import indexed

from mfls.cli import rename as cli_rename
from mfls.disk import replacing
from mfls.features import rename as rn
from tests.kit.faults import fail_on_call

FILES: dict[str, str | bytes] = {
    "mfcourse.toml": 'host = "ai-shifu"\n',
    "a.md": "?[{{ q }} A | B]\n",
    "b.md": "Use {{q}} here.\r\nAnd `{{ q }}` too.\r\n",
    "c.md": "\ufeff😀 {{ q }} again\rand {{ q }}\r",
    "d.md": "Use {{ q }} once more.\n\n```\n{{ q }}\n```\n",
    "e.md": "Nothing to see.\n",
    "nested/mfcourse.toml": "",
    "nested/x.md": "{{ q }} in another course\n",
}


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


@pytest.fixture
def course(make_course: Callable[..., Path]) -> Path:
    return make_course(FILES)


def test_dry_run_prints_a_diff_and_writes_nothing(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(course)
    assert cli_rename.main(["--course", str(course), "q", "new q", "--dry-run"]) == 0
    out, err = capsys.readouterr()
    assert _snapshot(course) == before
    assert "--- a/a.md\n+++ b/a.md\n" in out
    assert "-?[{{ q }} A | B]\n+?[{{ new q }} A | B]\n" in out
    assert "-Use {{q}} here.\r\n" in out
    assert "+Use {{ new q }} here.\r\n" in out
    assert "nested" not in out
    assert "e.md" not in out
    assert "would change 6 markers in 4 files" in err


def test_real_run_renames_every_file_keeping_bytes_around_markers(course: Path) -> None:
    before = _snapshot(course)
    assert cli_rename.main(["--course", str(course), " q ", "new q"]) == 0
    after = _snapshot(course)
    assert after["a.md"] == b"?[{{ new q }} A | B]\n"
    assert after["b.md"] == b"Use {{ new q }} here.\r\nAnd `{{ new q }}` too.\r\n"
    assert after["c.md"] == "\ufeff😀 {{ new q }} again\rand {{ new q }}\r".encode()
    assert after["d.md"] == b"Use {{ new q }} once more.\n\n```\n{{ q }}\n```\n"
    for unchanged in ("e.md", "mfcourse.toml", "nested/x.md", "nested/mfcourse.toml"):
        assert after[unchanged] == before[unchanged]
    assert sorted(after) == sorted([*before, ".mfls/renames.jsonl"])  # + the rename record


def test_counts_of_one_are_singular(
    make_course: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_course({"a.md": "Use {{ q }}.\n", "b.md": "?[{{ r }} A | B]\n\n{{ r }} {{ r }}\n"})
    assert cli_rename.main(["--course", str(root), "q", "p", "--dry-run"]) == 0
    assert "would change 1 marker in 1 file (dry run" in capsys.readouterr().err
    assert cli_rename.main(["--course", str(root), "q", "p"]) == 0
    assert capsys.readouterr().out == "renamed 1 marker in 1 file\n  a.md: 1 edit\n"
    assert cli_rename.main(["--course", str(root), "r", "s"]) == 0
    assert capsys.readouterr().out == "renamed 3 markers in 1 file\n  b.md: 3 edits\n"


def test_third_write_failing_leaves_every_file_unchanged(
    course: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(course)
    error = OSError(28, "No space left on device")
    written = fail_on_call(monkeypatch, replacing, "write_temp", 3, error)
    assert cli_rename.main(["--course", str(course), "q", "r"]) == 2
    assert len(written) == 3
    assert _snapshot(course) == before
    assert "No space left on device" in capsys.readouterr().err


def test_third_replace_failing_restores_the_first_two(
    course: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _snapshot(course)
    fail_on_call(monkeypatch, replacing, "replace", 3, OSError(5, "Input/output error"))
    assert cli_rename.main(["--course", str(course), "q", "r"]) == 2
    assert _snapshot(course) == before


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("q", "", "empty"),
        ("q", "a\nb", "line break"),
        ("q", "a}}", "'}}'"),
        ("q", "x\udcffy", "lone surrogate"),
        ("q", "sys_q", "reserves"),
        ("q", "sys_user_nickname", "reserves"),
        ("missing", "r", "No document of the course uses the key “missing”"),
    ],
)
def test_refusals_exit_1_and_change_nothing(
    course: Path, old: str, new: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(course)
    assert cli_rename.main(["--course", str(course), old, new]) == 1
    assert message in capsys.readouterr().err
    assert _snapshot(course) == before


def test_an_old_key_that_is_not_utf8_exits_2_and_changes_nothing(
    course: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(course)
    assert cli_rename.main(["--course", str(course), "q\udcff", "r"]) == 2
    assert "OLD is not valid UTF-8 text" in capsys.readouterr().err
    assert _snapshot(course) == before


def test_conflict_names_the_uses(
    make_course: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_course({"a.md": "?[{{ q }} A | B]\n\n?[{{ r }} C | D]\n"})
    assert cli_rename.main(["--course", str(root), "q", "r"]) == 1
    assert "a.md:3 (binding)" in capsys.readouterr().err


def test_a_file_that_cannot_be_read_but_may_use_the_key_stops_the_run(
    make_course: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_course({"a.md": "{{ q }}\n", "latin.md": "caf\xe9 {{ q }}\n".encode("latin-1")})
    before = _snapshot(root)
    assert cli_rename.main(["--course", str(root), "q", "r"]) == 1
    assert "latin.md" in capsys.readouterr().err
    assert _snapshot(root) == before


def test_the_mfls_command_line_runs_rename(course: Path) -> None:
    before = _snapshot(course)
    done = subprocess.run(
        [sys.executable, "-m", "mfls", "rename", "--course", str(course), "q", "r", "--dry-run"],
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert b"+?[%{{r}} A | B]\n" in done.stdout  # the learner page's form
    assert _snapshot(course) == before


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("What would you like to learn?", "Which topic will you learn?"),
        ("learner_goal", "Why are you learning?"),
        ("Which [path] | level//hint...?", "Which path?"),
    ],
)
def test_the_command_line_plans_the_same_edit_as_the_editor(
    tmp_path: Path, old: str, new: str
) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "course"
    course = tmp_path / "course"
    shutil.copytree(example, course)
    planned_course = cli_rename.plan_rename(str(course), old, new)
    assert isinstance(planned_course, tuple), planned_course
    _, planned = planned_course
    full = indexed(course).snapshot.courses[str(course)]
    expected = rn.rename_key(full, old, new)
    assert planned.documents == expected.documents
    assert planned.documents
