"""mfls's own files under `.mfls/` are held to the course root (issue 20, failures 1 and 4).

A course is untrusted input: a cloned repository or a downloaded archive can carry a
planted `.mfls/rename-journal.json`, or a `.mfls` linked to a folder elsewhere. Each test
plants one, runs the real command line (`python -m mfls`) or the real server, and checks
that every file outside the course is untouched byte for byte, that the journal is
reported and not acted on, and that the advice to run `--resume`/`--undo` is only given
for a journal mfls may act on.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest
from lsprotocol import types as t
from pygls.exceptions import JsonRpcException
from test_robust_editor_rename import open_doc, rename, server, wait_until

from mfls.cli import rename as cli_rename
from mfls.disk import journal
from tests.kit.cli import command, environment, mfls

LESSON = b"Use {{ topic }} here.\n"
RENAMED = b"Use {{ subject }} here.\n"
VICTIM = b"a file of the user's, outside the course\n"
OUTSIDE_WARNING = "names files outside the course"
SECRET = "SECRET-VALUE"


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every name under `folder` (links not followed): a file's bytes, a link's target."""
    found: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.is_symlink():
            found[name] = "-> " + os.readlink(path)
        elif path.is_file():
            found[name] = path.read_bytes()
        else:
            found[name] = "folder"
    return found


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    """A course (one lesson, `a.md`) and, beside it, a folder of the user's."""
    course = tmp_path / "course"
    outside = tmp_path / "outside"
    course.mkdir()
    outside.mkdir()
    (course / "mfcourse.toml").write_text('host = "generic"\n')
    (course / "a.md").write_bytes(LESSON)
    (course / "b.md").write_text("?[{{ topic }} A | B]\n")
    (outside / "victim.md").write_bytes(VICTIM)
    return course, outside


def plant(
    course: Path, phase: str, files: list[dict[str, str]], folder: Path | None = None
) -> Path:
    """Write a journal as a rename would, naming `files`, into `folder` (else the course's
    `.mfls`)."""
    where = folder if folder is not None else course / ".mfls"
    where.mkdir(exist_ok=True)
    location = where / "rename-journal.json"
    entries = [{"state": "written", **f} for f in files]
    payload = {
        "version": 1,
        "tool": "mfls rename",
        "course": str(course),
        "old_key": "topic",
        "new_key": "subject",
        "phase": phase,
        "pid": 0,
        "started": "",
        "files": entries,
    }
    location.write_text(json.dumps(payload))
    return location


def entry(path: Path, temp: Path, keep: Path, old: bytes, new: bytes) -> dict[str, str]:
    return {
        "path": str(path),
        "temp": str(temp),
        "keep": str(keep),
        "old_sha256": sha(old),
        "new_sha256": sha(new),
    }


def lesson_entry(course: Path, **names: Path) -> dict[str, str]:
    path = course / "a.md"
    temp = names.get("temp", course / ".a.md.mfls-tmp")
    keep = names.get("keep", course / ".a.md.mfls-old")
    return entry(path, temp, keep, LESSON, RENAMED)


def assert_refused(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 1, done.stderr
    assert OUTSIDE_WARNING in done.stderr and "nothing was done" in done.stderr, done.stderr
    assert "--resume" not in done.stderr and "--undo" not in done.stderr, done.stderr


def refused_changing_nothing(course: Path, outside: Path, flag: str) -> None:
    """`mfls rename FLAG` refuses the planted journal and changes nothing, in the course
    (the journal is kept) or outside it."""
    before, outside_before = snapshot(course), snapshot(outside)
    assert_refused(mfls("rename", "--course", str(course), flag))
    assert snapshot(outside) == outside_before
    assert snapshot(course) == before, "the journal is kept and nothing is changed"


def refused_with_a_victim_outside(
    places: tuple[Path, Path], phase: str, field: str, flag: str
) -> None:
    """A journal in `phase` whose lesson entry names, as its `field`, a file outside the
    course: `mfls rename FLAG` refuses it and changes nothing."""
    course, outside = places
    plant(course, phase, [lesson_entry(course, **{field: outside / "victim.md"})])
    refused_changing_nothing(course, outside, flag)


@pytest.mark.parametrize("flag", ["--resume", "--undo"])
def test_a_temp_outside_the_course_is_not_deleted_in_phase_preparing(
    places: tuple[Path, Path], flag: str
) -> None:
    refused_with_a_victim_outside(places, "preparing", "temp", flag)


@pytest.mark.parametrize("flag", ["--resume", "--undo"])
def test_a_keep_outside_the_course_is_not_moved_in_phase_swapping(
    places: tuple[Path, Path], flag: str
) -> None:
    # The lesson holds the old bytes and nothing is at its temporary name: `inspect` would
    # move the "kept" file (the outside one) to the temporary name, into the course.
    refused_with_a_victim_outside(places, "swapping", "keep", flag)


def test_an_undo_naming_a_file_outside_the_course_exchanges_nothing(
    places: tuple[Path, Path],
) -> None:
    course, outside = places
    victim = outside / "victim.md"
    temp = outside / ".victim.md.mfls-tmp"
    temp.write_bytes(LESSON)
    # As if the outside file were "renamed" and its old copy kept: an undo would exchange
    # the two and unlink the temporary name.
    plant(
        course,
        "swapping",
        [entry(victim, temp, outside / ".victim.md.mfls-old", LESSON, VICTIM)],
    )
    before, outside_before = snapshot(course), snapshot(outside)
    assert_refused(mfls("rename", "--course", str(course), "--undo"))
    assert_refused(mfls("rename", "--course", str(course), "--resume"))
    assert snapshot(outside) == outside_before
    assert snapshot(course) == before


def test_temp_and_keep_names_other_than_a_renames_are_refused(places: tuple[Path, Path]) -> None:
    course, outside = places
    other = course / "b.md"  # inside the course, but not the lesson's temporary name
    plant(course, "preparing", [lesson_entry(course, temp=other)])
    before, outside_before = snapshot(course), snapshot(outside)
    assert_refused(mfls("rename", "--course", str(course), "--resume"))
    assert snapshot(course) == before and snapshot(outside) == outside_before


def test_a_rename_is_refused_with_exit_1_while_a_planted_journal_is_there(
    places: tuple[Path, Path],
) -> None:
    course, outside = places
    plant(course, "preparing", [lesson_entry(course, temp=outside / "victim.md")])
    before = snapshot(course)
    done = mfls("rename", "--course", str(course), "topic", "subject")
    assert_refused(done)
    assert snapshot(course) == before and (outside / "victim.md").read_bytes() == VICTIM


def test_check_and_scan_give_the_advice_only_for_a_journal_that_passes(
    places: tuple[Path, Path],
) -> None:
    course, outside = places
    location = plant(course, "preparing", [lesson_entry(course)])
    for args in (["check", str(course)], ["scan", str(course / "a.md")]):
        done = mfls(*args)
        assert "interrupted rename of 'topic' to 'subject'" in done.stderr, args
        assert "--resume" in done.stderr and "--undo" in done.stderr, args
    location.unlink()
    plant(course, "preparing", [lesson_entry(course, temp=outside / "victim.md")])
    for args in (["check", str(course)], ["scan", str(course / "a.md")]):
        done = mfls(*args)
        assert OUTSIDE_WARNING in done.stderr and "--resume" not in done.stderr, args
        assert done.returncode == 0, (args, done.stderr)
    assert (outside / "victim.md").read_bytes() == VICTIM


def test_a_journal_above_the_course_root_is_not_reported(tmp_path: Path) -> None:
    course = tmp_path / "course"
    course.mkdir()
    (course / "mfcourse.toml").write_text('host = "generic"\n')
    (course / "a.md").write_bytes(LESSON)
    # A journal of the folder above (another course, or none): not this course's.
    plant(tmp_path, "preparing", [lesson_entry(tmp_path)])
    for args in (["check", str(course)], ["scan", str(course / "a.md")]):
        done = mfls(*args)
        assert done.returncode == 0, (args, done.stderr)
        assert "rename" not in done.stderr and str(tmp_path) + "`" not in done.stderr, args
    assert "interrupted rename" in mfls("check", str(tmp_path)).stderr, "its own root: reported"


def linked_out(course: Path, outside: Path) -> Path:
    """`.mfls` of the course linked to a folder of the user's holding a journal (with a
    secret) and another program's draft at mfls's draft name."""
    theirs = outside / "their-folder"
    plant(course, "swapping", [], folder=theirs)
    (theirs / "rename-journal.json").write_text(
        json.dumps(
            {"version": 1, "old_key": SECRET, "new_key": SECRET, "phase": "swapping", "files": []}
        )
    )
    (theirs / "rename-journal.json.new").write_bytes(b"another program's draft\n")
    (course / ".mfls").symlink_to(theirs, target_is_directory=True)
    return theirs


def test_a_mfls_link_out_of_the_course_is_neither_written_nor_read(
    places: tuple[Path, Path],
) -> None:
    course, outside = places
    linked_out(course, outside)
    before, outside_before = snapshot(course), snapshot(outside)
    done = mfls("rename", "--course", str(course), "topic", "subject")
    assert done.returncode == 2, done.stderr
    assert "is a link" in done.stderr and SECRET not in done.stderr
    for flag in ("--resume", "--undo"):
        done = mfls("rename", "--course", str(course), flag)
        assert done.returncode == 2 and "is a link" in done.stderr, done.stderr
        assert SECRET not in done.stderr
    for args in (["check", str(course)], ["scan", str(course / "a.md")]):
        done = mfls(*args)
        assert done.returncode == 0, (args, done.stderr)
        assert "is a link" in done.stderr and SECRET not in done.stderr, (args, done.stderr)
        assert "--resume" not in done.stderr
    assert snapshot(outside) == outside_before, "the draft there is another program's"
    assert snapshot(course) == before


def test_a_mfls_link_inside_the_course_is_refused_too(places: tuple[Path, Path]) -> None:
    course, _ = places
    (course / "own").mkdir()
    (course / ".mfls").symlink_to(course / "own", target_is_directory=True)
    done = mfls("rename", "--course", str(course), "topic", "subject")
    assert done.returncode == 2 and "is a link" in done.stderr, done.stderr
    assert (course / "a.md").read_bytes() == LESSON and not any((course / "own").iterdir())


def test_the_journal_file_itself_a_link_is_not_read(places: tuple[Path, Path]) -> None:
    course, outside = places
    theirs = outside / "their-folder"
    plant(course, "swapping", [], folder=theirs)
    (course / ".mfls").mkdir()
    (course / ".mfls" / "rename-journal.json").symlink_to(theirs / "rename-journal.json")
    (theirs / "rename-journal.json").write_text(
        json.dumps(
            {"version": 1, "old_key": SECRET, "new_key": "x", "phase": "swapping", "files": []}
        )
    )
    outside_before = snapshot(outside)
    done = mfls("check", str(course))
    assert "is a link" in done.stderr and SECRET not in done.stderr, done.stderr
    done = mfls("rename", "--course", str(course), "--undo")
    assert done.returncode == 1 and SECRET not in done.stderr, done.stderr
    assert snapshot(outside) == outside_before


def test_the_export_manifest_is_not_read_through_a_mfls_link(
    places: tuple[Path, Path], tmp_path: Path
) -> None:
    course, outside = places
    theirs = outside / "their-folder"
    theirs.mkdir()
    (theirs / "ai-shifu-export.json").write_text(json.dumps({"manifest": SECRET}))
    (course / ".mfls").symlink_to(theirs, target_is_directory=True)
    done = mfls("pack", str(course), str(tmp_path / "out.json"))
    assert done.returncode == 2 and "is a link" in done.stderr, done.stderr
    assert SECRET not in done.stderr and not (tmp_path / "out.json").exists()


def test_a_refused_concurrent_rename_exits_1(
    places: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    course, _ = places
    # The other rename's journal appears after this run looked for one (the race of two
    # concurrent runs): its own journal cannot be created, and it is refused.
    location = plant(course, "preparing", [lesson_entry(course)])
    real = journal.pending_journal
    monkeypatch.setattr(journal, "pending_journal", lambda root: None)
    assert cli_rename.main(["--course", str(course), "topic", "subject"]) == 1
    assert "another rename of this course is pending" in capsys.readouterr().err
    monkeypatch.setattr(journal, "pending_journal", real)
    assert (course / "a.md").read_bytes() == LESSON and location.exists()


def test_concurrent_renames_exit_0_once_and_1_otherwise(tmp_path: Path) -> None:
    # Three runs started together, five times: they meet while one starts its journal,
    # while it drafts it, while it removes it. Exactly one renames; the others are refused
    # (exit 1, never 2), and every lesson ends renamed by the one that ran.
    for round_ in range(5):
        course = tmp_path / f"course{round_}"
        course.mkdir()
        (course / "mfcourse.toml").write_text('host = "generic"\n')
        for index in range(4):
            (course / f"l{index}.md").write_bytes(LESSON)
        runs = [
            subprocess.Popen(
                command("rename", "--course", str(course), "topic", f"key{number}"),
                env=environment(),
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for number in range(3)
        ]
        said = [run.communicate(timeout=120)[1].decode() for run in runs]
        assert sorted(run.returncode for run in runs) == [0, 1, 1], said
        winner = next(n for n, run in enumerate(runs) if run.returncode == 0)
        texts = {path.read_bytes() for path in course.glob("*.md")}
        assert texts == {LESSON.replace(b"topic", f"key{winner}".encode())}, said
        assert sorted(p.name for p in (course / ".mfls").iterdir()) == ["renames.jsonl"]


# ----- the server (a real `python -m mfls` process) -----------------------------------


def warnings_of(client: object) -> list[str]:
    messages = getattr(client, "messages", [])
    return [m.message for m in messages if m.type == t.MessageType.Warning]


async def test_the_server_does_not_read_a_journal_through_a_mfls_link(
    places: tuple[Path, Path],
) -> None:
    course, outside = places
    linked_out(course, outside)
    outside_before = snapshot(outside)
    async with server(course) as client:
        doc = open_doc(client, course / "a.md")
        await wait_until(lambda: any("is a link" in m for m in warnings_of(client)))
        with pytest.raises(JsonRpcException) as refused:
            await asyncio.wait_for(rename(client, doc, 0, 7), 10)
        assert "is a link" in str(refused.value)
        shown = [*warnings_of(client), str(refused.value)]
        assert not any(SECRET in m for m in shown), shown
        assert not any("--resume" in m for m in shown), shown
    assert snapshot(outside) == outside_before


async def test_the_server_gives_the_advice_only_for_a_journal_that_passes(
    places: tuple[Path, Path],
) -> None:
    course, outside = places
    location = plant(course, "preparing", [lesson_entry(course, temp=outside / "victim.md")])
    async with server(course) as client:
        doc = open_doc(client, course / "a.md")
        await wait_until(lambda: any(OUTSIDE_WARNING in m for m in warnings_of(client)))
        assert not any("--resume" in m for m in warnings_of(client))
        with pytest.raises(JsonRpcException) as refused:
            await asyncio.wait_for(rename(client, doc, 0, 7), 10)
        assert OUTSIDE_WARNING in str(refused.value) and "--undo" not in str(refused.value)
    location.unlink()
    plant(course, "preparing", [lesson_entry(course)])
    async with server(course) as client:
        await wait_until(lambda: any("--resume" in m for m in warnings_of(client)))
    assert (outside / "victim.md").read_bytes() == VICTIM
