"""The rename records of `.mfls/renames.jsonl`: the pure record, `mfls.disk.append_line`,
and when `mfls rename` appends one (real runs, --resume, --undo; never dry runs or
refusals)."""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from mfls import __version__
from mfls.cli import rename as cli_rename
from mfls.disk import append_line
from mfls.disk.problems import OUTSIDE
from mfls.features import rename_record as rr

TOML = 'name = "Demo course"\n'
A = "?[{{ q }} A | B]\n"
B = "Use {{ q }} here.\r\n"
FILES = {"mfcourse.toml": TOML, "a.md": A, "sub/b.md": B, "c.md": "No key.\n"}


def sha(data: str | bytes) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def records(root: Path) -> list[dict[str, object]]:
    location = root / ".mfls" / "renames.jsonl"
    if not location.exists():
        return []
    return [json.loads(line) for line in location.read_text("utf-8").splitlines()]


# ----- the record, pure ----------------------------------------------------------------


def test_a_record_is_one_json_line_with_identity_version_source_and_tool() -> None:
    moment = datetime.datetime(
        2026, 1, 2, 4, 5, 6, 789, tzinfo=datetime.timezone(datetime.timedelta(hours=2))
    )
    record = rr.RenameRecord(
        record_id="id-1",
        course_root="/c",
        course_name=None,
        old_key="a\nb",
        new_key="新",
        time=rr.utc_time(moment),
        files=(rr.RecordFile("x/y.md", "00", "11"),),
        tool=rr.SERVER_TOOL,
        tool_version="9",
        applied=rr.OBSERVED,
    )
    line = rr.record_line(record)
    assert line.endswith("\n") and "\n" not in line[:-1]
    assert json.loads(line) == {
        "schema": "mfls-rename-record",
        "version": 1,
        "id": "id-1",
        "action": "rename",
        "course": {"root": "/c", "name": None},
        "old_key": "a\nb",
        "new_key": "新",
        "time": "2026-01-02T02:05:06Z",
        "files": [{"path": "x/y.md", "sha256_before": "00", "sha256_after": "11"}],
        "tool": {"name": "mfls server", "version": "9"},
        "applied": "observed",
    }


def test_pending_renames_wait_until_every_document_is_seen_with_its_new_text() -> None:
    files = rr.pending_files(
        [("u1", "/c/a.md", "old 1", "new 1"), ("u2", "/c/d/b.md", "old 2", "new 2")], "/c"
    )
    assert [f.path for f in files] == ["a.md", "d/b.md"]
    record = rr.RenameRecord(
        "id", "/c", "n", "q", "r", "", rr.pending_record_files(files), rr.SERVER_TOOL, "1"
    )
    assert record.files[1] == rr.RecordFile("d/b.md", sha("old 2"), sha("new 2"))
    pending = rr.PendingRenames().added(rr.PendingRename(record, files))
    texts = {"u1": "new 1", "u2": "old 2"}
    pending, done = pending.observed(texts.get, "T1")
    assert done == [] and len(pending.waiting) == 1
    texts["u1"] = "typed on after the edit"  # seen once is enough
    texts["u2"] = "new 2"
    pending, done = pending.observed(texts.get, "T2")
    assert pending.waiting == () and [d.time for d in done] == ["T2"]
    many = rr.PendingRenames()
    for _ in range(rr.MAX_PENDING + 5):
        many = many.added(rr.PendingRename(record, files))
    assert len(many.waiting) == rr.MAX_PENDING


# ----- the disk gateway ------------------------------------------------------------------


def test_append_line_creates_folders_and_appends_whole_lines(tmp_path: Path) -> None:
    target = tmp_path / ".mfls" / "renames.jsonl"
    assert append_line(str(target), "one\n", str(tmp_path)) == []
    assert append_line(str(target), "two\n", str(tmp_path)) == []
    assert target.read_text() == "one\ntwo\n"
    problems = append_line(str(target), "two\nlines\n", str(tmp_path))
    assert problems and "one line" in problems[0].reason
    assert append_line(str(target), "no end", str(tmp_path))
    assert target.read_text() == "one\ntwo\n"


def test_append_line_refuses_links_out_of_the_root_and_non_regular_files(tmp_path: Path) -> None:
    root, outside = tmp_path / "course", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "renames.jsonl").write_text("theirs\n")
    (root / ".mfls").symlink_to(outside)
    problems = append_line(str(root / ".mfls" / "renames.jsonl"), "x\n", str(root))
    assert problems and problems[0].kind == OUTSIDE
    (root / ".mfls").unlink()
    (root / ".mfls").mkdir()
    (root / ".mfls" / "renames.jsonl").symlink_to(outside / "renames.jsonl")
    assert append_line(str(root / ".mfls" / "renames.jsonl"), "x\n", str(root))
    assert (outside / "renames.jsonl").read_text() == "theirs\n"
    (root / ".mfls" / "renames.jsonl").unlink()
    os.mkfifo(root / ".mfls" / "renames.jsonl")  # never blocks on a FIFO
    problems = append_line(str(root / ".mfls" / "renames.jsonl"), "x\n", str(root))
    assert problems and "regular" in problems[0].reason
    assert append_line(str(tmp_path / "elsewhere.jsonl"), "x\n", str(root))[0].kind == OUTSIDE


# ----- mfls rename ---------------------------------------------------------------------


def test_a_real_run_appends_a_record_and_says_where(
    make_course: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_course(FILES)
    before = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    assert cli_rename.main(["--course", str(root), " q ", " r "]) == 0
    location = root / ".mfls" / "renames.jsonl"
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if "recorded" in line] == [
        f"mfls rename: recorded in {location}"
    ]
    (record,) = records(root)
    uuid.UUID(str(record["id"]))
    moment = datetime.datetime.fromisoformat(str(record["time"]).replace("Z", "+00:00"))
    assert str(record["time"]).endswith("Z") and moment >= before
    assert {k: v for k, v in record.items() if k not in ("id", "time")} == {
        "schema": "mfls-rename-record",
        "version": 1,
        "action": "rename",
        "course": {"root": str(root), "name": "Demo course"},
        "old_key": "q",
        "new_key": "r",
        "files": [
            {"path": "a.md", "sha256_before": sha(A), "sha256_after": sha(A.replace("q", "r"))},
            {
                "path": "sub/b.md",
                "sha256_before": sha(B),
                "sha256_after": sha((root / "sub" / "b.md").read_bytes()),
            },
        ],
        "tool": {"name": "mfls rename", "version": __version__},
        "applied": "written",
    }
    assert cli_rename.main(["--course", str(root), "r", "s"]) == 0
    assert [r["new_key"] for r in records(root)] == ["r", "s"]
    assert records(root)[0]["id"] != records(root)[1]["id"]


def test_dry_runs_refusals_and_no_ops_append_nothing(
    make_course: Callable[..., Path], capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_course({**FILES, "d.md": "{{ taken }}\n"})
    assert cli_rename.main(["--course", str(root), "q", "r", "--dry-run"]) == 0
    assert cli_rename.main(["--course", str(root), "q", "taken"]) == 1
    assert cli_rename.main(["--course", str(root), "q", "q"]) == 0
    assert not (root / ".mfls").exists()
    assert "recorded" not in capsys.readouterr().err


CRASH = """
import os, sys
from pathlib import Path
from mfls.cli import rename as cli_rename
from mfls.disk import replacing
real = replacing.replace
def replace(temp, path):
    done = real(temp, path)
    if Path(path).name == "b.md":
        os._exit(9)
    return done
replacing.replace = replace
cli_rename.main(["--course", sys.argv[1], "q", "r"])
"""


def _crashed(root: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    ran = subprocess.run([sys.executable, "-c", CRASH, str(root)], timeout=60, check=False, env=env)
    assert ran.returncode == 9
    assert (root / ".mfls" / "rename-journal.json").exists()
    assert records(root) == [], "an interrupted rename has no record yet"


@pytest.mark.parametrize("undo", [False, True])
def test_resume_records_the_rename_and_undo_records_the_roll_back(
    make_course: Callable[..., Path], capsys: pytest.CaptureFixture[str], undo: bool
) -> None:
    root = make_course(FILES)
    _crashed(root)
    assert cli_rename.main(["--course", str(root), "--undo" if undo else "--resume"]) == 0
    assert f"recorded in {root / '.mfls' / 'renames.jsonl'}" in capsys.readouterr().err
    (record,) = records(root)
    assert (record["old_key"], record["new_key"]) == ("q", "r")
    assert record["course"] == {"root": str(root), "name": "Demo course"}
    assert record["tool"] == {"name": "mfls rename", "version": __version__}
    files = {f["path"]: f for f in record["files"]}  # type: ignore[attr-defined]
    assert sorted(files) == ["a.md", "sub/b.md"]
    new_a = A.replace("q", "r")
    if undo:
        assert record["action"] == "undo"
        assert files["a.md"] == {
            "path": "a.md",
            "sha256_before": sha(new_a),
            "sha256_after": sha(A),
        }
        assert (root / "a.md").read_text() == A
    else:
        assert record["action"] == "rename"
        assert files["a.md"] == {
            "path": "a.md",
            "sha256_before": sha(A),
            "sha256_after": sha(new_a),
        }
        assert (root / "a.md").read_text() == new_a
