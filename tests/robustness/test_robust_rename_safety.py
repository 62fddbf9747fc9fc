"""`mfls rename` never loses an author's text (docs/robustness.md, "Rename never loses text").

A save by another program while the rename runs undoes the whole rename (a deterministic
hook between the last check and the swap of one file, and saves at random instants by
another process); a file deleted meanwhile is not re-created; kill -9 at any instant
leaves a journal that `--resume` or `--undo` settles; links, owners and modes are kept;
a course member that cannot be read, listed or decoded makes the rename refuse.
Every case ends with a byte-exact check of every file of the course.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mfls.cli import rename as cli_rename
from mfls.disk import replacing
from tests.kit.cli import command, environment, mfls_bytes

try:  # the swap checked after the fact; today's code has only check + replace
    from mfls.disk import exchange, journal
except ImportError:  # pragma: no cover - only when run against the code before it
    exchange = None  # type: ignore[assignment]
    journal = None  # type: ignore[assignment]

OLD, NEW = b"{{ q }}", b"{{ r }}"
SAVED = b"An editor saved this version, without the key.\n"


def make_course(root: Path, count: int) -> dict[str, bytes]:
    root.mkdir(parents=True, exist_ok=True)
    files = {"mfcourse.toml": b'host = "ai-shifu"\n'}
    for i in range(count):
        ending = b"\r\n" if i % 3 == 0 else b"\n"
        files[f"lesson{i:02}.md"] = b"Lesson %d uses " % i + OLD + b" here." + ending
    files["plain.md"] = b"No key in this one.\n"
    for name, data in files.items():
        (root / name).write_bytes(data)
    return files


def renamed(files: dict[str, bytes]) -> dict[str, bytes]:
    return {name: data.replace(OLD, NEW) for name, data in files.items()}


RECORDS = ".mfls/renames.jsonl"


def on_disk(root: Path) -> dict[str, bytes]:
    """Every file under `root`, journal folder and temporary files included (the rename
    records are not: tests/rename/test_rename_records.py checks them)."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if (p.is_file() or p.is_symlink()) and p.relative_to(root).as_posix() != RECORDS
    }


def rename(root: Path, *extra: str) -> int:
    return cli_rename.main(["--course", str(root), *extra])


@pytest.fixture
def between_check_and_swap(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., None]]:
    """Install `action(index, path)` between the last check of a file and its swap."""

    def install(action: Callable[[int, Path], None]) -> None:
        if exchange is not None:
            monkeypatch.setattr(exchange, "before_swap", action)
            return
        real = replacing.replace  # today's code: the check is before every replace
        calls: list[Path] = []

        def replace(temp: Path, path: Path) -> None:
            action(len(calls), path)
            calls.append(path)
            real(temp, path)

        monkeypatch.setattr(replacing, "replace", replace)

    yield install


def saving(victim: Path, save: Callable[[Path, bytes], None]) -> Callable[[int, Path], None]:
    """An editor that saves `victim` (SAVED, with `save`) when the rename comes to it."""

    def editor(index: int, path: Path) -> None:
        if path.name == victim.name:
            save(victim, SAVED)

    return editor


def save_by_replacing(path: Path, data: bytes) -> None:
    """How most editors save: write a copy, rename it over the file."""
    fresh = path.with_name(path.name + ".editor-save")
    fresh.write_bytes(data)
    os.replace(fresh, path)


def save_in_place(path: Path, data: bytes) -> None:
    with open(path, "r+b") as handle:
        handle.truncate(0)
        handle.write(data)


@pytest.mark.parametrize("save", [save_by_replacing, save_in_place])
def test_a_save_between_the_last_check_and_the_swap_undoes_the_whole_rename(
    tmp_path: Path,
    between_check_and_swap: Callable[..., None],
    save: Callable[[Path, bytes], None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = tmp_path / "course"
    files = make_course(root, 6)
    between_check_and_swap(saving(root / "lesson03.md", save))
    assert rename(root, "q", "r") == 1
    assert "lesson03.md" in capsys.readouterr().err
    assert on_disk(root) == {**files, "lesson03.md": SAVED}


def test_a_file_deleted_between_the_last_check_and_the_swap_is_not_recreated(
    tmp_path: Path, between_check_and_swap: Callable[..., None]
) -> None:
    root = tmp_path / "course"
    files = make_course(root, 6)
    victim = root / "lesson04.md"

    def deleter(index: int, path: Path) -> None:
        if path.name == victim.name:
            victim.unlink()

    between_check_and_swap(deleter)
    assert rename(root, "q", "r") == 1
    expected = dict(files)
    del expected["lesson04.md"]
    assert on_disk(root) == expected


SAVER = """
import os, sys, time
path, delay, mode, start = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
data = b"An editor saved this version, without the key.\\n"
folder, deadline = os.path.dirname(path), time.monotonic() + 10
def begun():
    return os.path.exists(start) or any(n.endswith(".mfls-tmp") for n in os.listdir(folder))
while not begun() and time.monotonic() < deadline:
    time.sleep(0.0005)
time.sleep(delay)
if mode == "replace":
    with open(path + ".editor-save", "wb") as f:
        f.write(data)
    os.replace(path + ".editor-save", path)
else:
    with open(path, "r+b") as f:
        f.truncate(0)
        f.write(data)
"""
"""Saves `path` a random `delay` after the rename began (its journal or a temporary file
appeared)."""


def start_saver(root: Path, victim: str, delay: float, mode: str) -> subprocess.Popen[bytes]:
    started = root / ".mfls" / "rename-journal.json"
    command = [sys.executable, "-c", SAVER, str(root / victim), f"{delay}", mode, str(started)]
    return subprocess.Popen(command)


def test_saves_by_another_process_at_random_instants_never_lose_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Whatever the instant of the save, the save survives byte for byte and the other
    files are all renamed or all untouched."""
    monkeypatch.setenv("MFLS_TEST_PAUSE_BEFORE_SWAP", "0.003")
    chance = random.Random(10)
    outcomes: dict[int, int] = {}
    for iteration in range(30):
        root = tmp_path / f"course{iteration}"
        files = make_course(root, 20)
        victim = f"lesson{chance.randrange(20):02}.md"
        mode = "replace" if iteration % 2 else "in-place"
        saver = start_saver(root, victim, chance.uniform(0, 0.12), mode)
        time.sleep(0.05)  # the saver is running
        status = rename(root, "q", "r")
        assert saver.wait(timeout=30) == 0
        capsys.readouterr()
        outcomes[status] = outcomes.get(status, 0) + 1
        after = on_disk(root)
        assert after[victim] == SAVED, (iteration, status, mode)
        others = {k: v for k, v in after.items() if k != victim}
        untouched = {k: v for k, v in files.items() if k != victim}
        assert others in (untouched, renamed(untouched)), (iteration, status)
    assert set(outcomes) <= {0, 1}
    assert outcomes.get(1, 0) >= 3, f"too few saves landed inside the rename: {outcomes}"


def paused_rename(root: Path, pause: float) -> subprocess.Popen[bytes]:
    """`mfls rename q r` of the course at `root`, started, pausing `pause` s before each
    swap (MFLS_TEST_PAUSE_BEFORE_SWAP)."""
    env = environment({**os.environ, "MFLS_TEST_PAUSE_BEFORE_SWAP": f"{pause}"})
    return subprocess.Popen(
        command("rename", "--course", str(root), "q", "r"),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _run_and_kill(root: Path, delay: float) -> int:
    process = paused_rename(root, 0.004)
    try:
        process.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
    return process.wait(timeout=30)


def test_kill_9_at_random_instants_then_resume_or_undo_restores_every_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chance = random.Random(9)
    started = time.monotonic()
    probe = tmp_path / "probe"
    make_course(probe, 50)
    assert _run_and_kill(probe, 60) == 0
    full = time.monotonic() - started
    seen: set[str] = set()
    for iteration in range(20):
        root = tmp_path / f"course{iteration}"
        files = make_course(root, 50)
        status = _run_and_kill(root, chance.uniform(0.3 * full, full))
        pending = root / ".mfls" / "rename-journal.json"
        if pending.exists():
            seen.add("pending")
            assert rename(root, "q", "r") == 1, "a rerun must refuse while a journal is pending"
            assert "--resume" in capsys.readouterr().err
            undo = iteration % 2 == 1
            status = rename(root, "--undo" if undo else "--resume")
            if undo and status == 1 and "run --resume" in capsys.readouterr().err:
                seen.add("past undoing")  # killed while removing the old copies
                undo, status = False, rename(root, "--resume")
            assert status == 0, capsys.readouterr()
            assert on_disk(root) == (files if undo else renamed(files)), iteration
            seen.add("undone" if undo else "resumed")
        else:
            seen.add("finished" if status == 0 else "before")
            draft = root / ".mfls" / "rename-journal.json.new"
            if draft.exists():  # killed while drafting the journal (no O_TMPFILE here)
                seen.add("draft left")
                assert draft.read_bytes() == b"" or status != 0, iteration
                after = {
                    k: v for k, v in on_disk(root).items() if k != ".mfls/rename-journal.json.new"
                }
                assert after == files, (iteration, status)
                assert rename(root, "q", "r") == 0, "the next rename goes on past the draft"
                assert on_disk(root) == renamed(files), iteration  # and removes it
            else:
                assert on_disk(root) in (files, renamed(files)), (iteration, status)
        capsys.readouterr()
    print(sorted(seen))
    assert "pending" in seen


def test_a_pending_journal_is_reported_by_every_command_and_by_the_library(
    tmp_path: Path,
) -> None:
    root = tmp_path / "course"
    files = make_course(root, 10)
    process = paused_rename(root, 0.3)
    location = root / ".mfls" / "rename-journal.json"
    deadline = time.monotonic() + 30
    while b'"swapping"' not in (location.read_bytes() if location.exists() else b""):
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.02)
    time.sleep(0.45)  # one or two files swapped
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    assert on_disk(root) != files

    assert journal is not None
    found = journal.pending_journal(root)
    assert found is not None and found.phase == "swapping"
    assert "--resume" in found.message() and "--undo" in found.message()
    for args in (["check", str(root)], ["scan", str(root / "lesson01.md")]):
        done = mfls_bytes(*args, timeout=60)
        assert b"interrupted rename" in done.stderr and b"--undo" in done.stderr, args
    dry = mfls_bytes("rename", "--course", str(root), "q", "r", "--dry-run", timeout=60)
    assert dry.returncode == 1 and b"--resume" in dry.stderr
    assert rename(root, "--undo") == 0
    assert on_disk(root) == files
    assert journal.pending_journal(root) is None


def test_a_symlinked_lesson_is_edited_at_its_target_and_stays_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "course"
    files = make_course(root, 2)
    (root / "shared").mkdir()
    target = root / "shared" / "target.md"
    target.write_bytes(b"Shared " + OLD + b"\n")
    (root / "alias.md").symlink_to("shared/target.md")
    (root / "twice.md").symlink_to("lesson00.md")  # the same file under two names
    assert rename(root, "q", "r") == 0
    assert (root / "alias.md").is_symlink() and (root / "twice.md").is_symlink()
    assert os.readlink(root / "alias.md") == "shared/target.md"
    assert target.read_bytes() == b"Shared " + NEW + b"\n"
    assert (root / "lesson00.md").read_bytes() == renamed(files)["lesson00.md"]
    assert capsys.readouterr().out.startswith("renamed 3 markers in 3 files\n")


def test_a_link_out_of_the_course_root_is_neither_read_nor_edited_nor_a_reason_to_refuse(
    tmp_path: Path,
) -> None:
    root = tmp_path / "course"
    files = make_course(root, 2)
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"Outside " + OLD + b"\n")
    (root / "escape.md").symlink_to(outside)
    opened: list[str] = []
    watched = {str(outside), str(root / "escape.md")}

    def audit(event: str, args: tuple[object, ...]) -> None:
        if event == "open" and args and str(args[0]) in watched:
            opened.append(str(args[0]))

    sys.addaudithook(audit)
    status = rename(root, "q", "r")
    watched = set()  # the hook stays installed; make it inert
    assert status == 0
    assert opened == []
    assert outside.read_bytes() == b"Outside " + OLD + b"\n"
    after = on_disk(root)
    del after["escape.md"]
    assert after == renamed(files)


def test_owner_and_mode_are_kept(tmp_path: Path) -> None:
    if not hasattr(os, "chown") or os.geteuid() != 0:
        pytest.skip("changing a file's owner needs root")
    root = tmp_path / "course"
    make_course(root, 3)
    lesson = root / "lesson01.md"
    os.chown(lesson, 4321, 4322)
    lesson.chmod(0o640)
    assert rename(root, "q", "r") == 0
    status = lesson.stat()
    assert (status.st_uid, status.st_gid, status.st_mode & 0o7777) == (4321, 4322, 0o640)
    assert NEW in lesson.read_bytes()


def _not_utf8(root: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (root / "latin.md").write_bytes("caf\xe9, no key here\n".encode("latin-1"))
    return "latin.md"


def _unlistable(root: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (root / "locked").mkdir()
    (root / "locked" / "inner.md").write_bytes(b"Inner " + OLD + b"\n")
    real = os.scandir
    locked = str(root / "locked")

    def scandir(path: str = ".") -> object:
        if str(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    return "locked"


def _unopenable(root: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (root / "secret.md").write_bytes(b"Secret, without the key.\n")
    real = os.open
    secret = os.path.realpath(root / "secret.md")

    def open_(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if str(path) == secret:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", open_)
    return "secret.md"


@pytest.mark.parametrize("problem", [_not_utf8, _unlistable, _unopenable])
def test_a_member_that_cannot_be_read_listed_or_decoded_makes_rename_refuse(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    problem: Callable[[Path, pytest.MonkeyPatch], str],
) -> None:
    root = tmp_path / "course"
    make_course(root, 3)
    name = problem(root, monkeypatch)
    before = on_disk(root)
    assert rename(root, "q", "r") == 1
    assert name in capsys.readouterr().err
    assert on_disk(root) == before


def test_without_an_atomic_exchange_the_fallback_still_catches_an_in_place_save(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    between_check_and_swap: Callable[..., None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    if exchange is None:
        pytest.skip("no exchange module")
    monkeypatch.setattr(exchange, "_exchange_call", lambda: None)
    root = tmp_path / "course"
    files = make_course(root, 4)
    assert rename(root, "q", "r") == 0
    assert "could not be swapped atomically" in capsys.readouterr().err
    assert on_disk(root) == renamed(files)

    root = tmp_path / "again"
    files = make_course(root, 4)
    between_check_and_swap(saving(root / "lesson02.md", save_in_place))
    assert rename(root, "q", "r") == 1
    assert on_disk(root) == {**files, "lesson02.md": SAVED}


CRASH_AFTER_SWAP = """
import os, sys
from pathlib import Path
from mfls.cli import rename as cli_rename
from mfls.disk import replacing
from tests.kit.cli import command, environment, mfls_bytes
victim, real = sys.argv[2], replacing.replace
def replace(temp, path):
    if Path(path).name == victim:
        fresh = Path(str(path) + ".editor-save")
        fresh.write_bytes(b"An editor saved this version, without the key.\\n")
        os.replace(fresh, path)
        real(temp, path)
        os._exit(9)
    return real(temp, path)
replacing.replace = replace
cli_rename.main(["--course", sys.argv[1], "q", "r"])
"""


def test_a_crash_right_after_swapping_over_a_save_can_only_be_undone_and_keeps_the_save(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "course"
    files = make_course(root, 8)
    crashed = subprocess.run(
        [sys.executable, "-c", CRASH_AFTER_SWAP, str(root), "lesson03.md"],
        timeout=60,
        check=False,
    )
    assert crashed.returncode == 9
    before = on_disk(root)
    assert rename(root, "--resume") == 1
    assert "lesson03.md" in capsys.readouterr().err
    assert on_disk(root) == before, "a refused resume changes nothing"
    assert rename(root, "--undo") == 0
    assert on_disk(root) == {**files, "lesson03.md": SAVED}


def test_a_journal_draft_left_by_a_crash_is_removed_by_the_next_rename(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # kill -9 while the journal is drafted (where O_TMPFILE is missing) leaves an empty
    # draft and no journal: nothing was touched, and the next rename goes on.
    root = tmp_path / "course"
    files = make_course(root, 3)
    draft = root / ".mfls" / "rename-journal.json.new"
    draft.parent.mkdir(exist_ok=True)
    draft.write_bytes(b"")
    assert rename(root, "q", "r") == 0, capsys.readouterr()
    assert not draft.exists()
    assert on_disk(root) == renamed(files)
