"""The rename journal: what a multi-file rename is doing, so a crash can be finished or undone.

Before a rename touches anything it writes `COURSE/.mfls/rename-journal.json` (fsynced)
naming every file with the SHA-256 of its old and new bytes and its temporary name, and
it records each phase: `preparing` (temporary files being written; no original touched),
`swapping` (every temporary file is complete and durable; files are being exchanged),
`undoing` (the exchanges are being reversed), `cleaning` (every file renamed and checked;
the kept old copies are being removed). The journal is removed at the end of a run that
succeeded or was undone. While it exists the course has a *pending* rename:
`pending_journal` finds it, `resume` finishes it and `undo` rolls it back. What each file
holds is read from disk (hashes), not trusted from the journal, so recovery is right
whatever instant the crash happened at.

A course is untrusted input (a cloned repository or a downloaded archive can carry a
journal), so a journal is acted on, and `--resume`/`--undo` advised, only when it passes
`_refusal`: read and written only through a real folder `.mfls` inside the course
(`mfls.disk.own_files`), every file it names a regular file (or missing) inside the course
once links are resolved, its temporary and kept names the ones a rename gives that file.
Any other journal is reported ("this journal names files outside the course; nothing was
done") and never acted on.

Format (version 1):
    {"version": 1, "tool": "mfls rename", "course": ROOT, "old_key": OLD,
     "new_key": NEW, "phase": PHASE, "pid": PID, "started": ISO-8601 UTC,
     "files": [{"path": ABS, "temp": ABS, "keep": ABS, "old_sha256": HEX,
                "new_sha256": HEX, "state": "planned" | "written" | "checked"}]}
"""

from __future__ import annotations

import contextlib
import datetime
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from mfls.disk import exchange, reading
from mfls.disk.own_files import own_folder_problem, own_path_problem
from mfls.disk.problems import GONE, OUTSIDE, printable

JOURNAL_DIRECTORY = ".mfls"
JOURNAL_NAME = "rename-journal.json"
VERSION = 1

_FILE_STATE = {"preparing": "planned", "swapping": "written", "undoing": "written"}
_PHASES = frozenset({"preparing", "swapping", "undoing", "cleaning"})
_STATES = frozenset({"", "planned", "written", "checked"})


def journal_path(course_root: str | os.PathLike[str]) -> Path:
    return Path(course_root) / JOURNAL_DIRECTORY / JOURNAL_NAME


def sha256(data: bytes) -> str:
    import hashlib  # OpenSSL takes ~4 ms to load; a check only reads journals

    return hashlib.sha256(data).hexdigest()


class JournalFile(NamedTuple):
    path: str
    temp: str
    keep: str
    old_sha256: str
    new_sha256: str
    state: str = "planned"


class Journal(NamedTuple):
    location: Path
    course: str
    old_key: str
    new_key: str
    phase: str
    pid: int = 0
    started: str = ""
    files: tuple[JournalFile, ...] = ()
    damaged: str = ""  # why the journal file could not be read (then nothing else is known)
    refused: str = ""  # why mfls does not act on this journal (it fails the checks)

    @property
    def usable(self) -> bool:
        """True when `resume` and `undo` may act on this journal."""
        return not self.damaged and not self.refused

    def to_json(self) -> str:
        import json  # not loaded by the commands that only look for journals

        payload = {
            "version": VERSION,
            "tool": "mfls rename",
            "course": self.course,
            "old_key": self.old_key,
            "new_key": self.new_key,
            "phase": self.phase,
            "pid": self.pid,
            "started": self.started,
            "files": [
                {
                    "path": f.path,
                    "temp": f.temp,
                    "keep": f.keep,
                    "old_sha256": f.old_sha256,
                    "new_sha256": f.new_sha256,
                    "state": f.state,
                }
                for f in self.files
            ],
        }
        return json.dumps(payload, indent=1) + "\n"

    def message(self) -> str:
        """The line every command and the server show while this journal is pending; how
        to finish or undo it only when mfls may act on it."""
        course = self.course
        if self.refused:
            return (
                f"{printable(str(self.location))}: {self.refused}; nothing was done "
                "(mfls does not act on it; look at it, and remove it if no rename is running)"
            )
        if self.damaged:
            return (
                f"{printable(str(self.location))}: this rename journal cannot be read "
                f"({self.damaged}); nothing was done (mfls does not act on it; look at it, "
                "and remove it if no rename is running)"
            )
        what = f"an interrupted rename of {self.old_key!r} to {self.new_key!r}"
        return (
            f"{what} is pending in {course}: run `mfls rename --resume --course {course}` "
            f"to finish it or `mfls rename --undo --course {course}` to roll it back"
        )


def pending_journal(course_root: str | os.PathLike[str]) -> Journal | None:
    """The journal of an unfinished rename of the course at `course_root`, or None.

    A `.mfls` that is a link (or a journal that is one) gives a journal `refused` without
    reading anything through it; so does a journal failing the checks (`_refusal`)."""
    location = journal_path(course_root)
    root = str(course_root)
    refusal = own_folder_problem(course_root) or own_path_problem(
        course_root, (JOURNAL_DIRECTORY, JOURNAL_NAME)
    )
    if refusal is not None:
        if refusal.kind != OUTSIDE:  # `.mfls` is no folder: no journal can be in it
            return None
        return Journal(location, root, "", "", "", refused=refusal.reason)
    if not reading.lexists(str(location)):
        return None
    # Through the safe read: a FIFO or a huge file there never blocks or floods a caller.
    raw, problems = reading.read_bytes(str(location), root)
    if raw is None:
        if problems and problems[0].kind == GONE:
            return None
        reason = problems[0].reason if problems else "unreadable"
        return Journal(location, root, "", "", "", damaged=reason)
    from mfls.text.json_nesting import COURSE_FILE_NESTING, loads_within

    try:
        data = loads_within(raw.decode("utf-8"), COURSE_FILE_NESTING)
        files = tuple(
            JournalFile(
                _text(f["path"]),
                _text(f["temp"]),
                _text(f["keep"]),
                _text(f["old_sha256"]),
                _text(f["new_sha256"]),
                _text(f.get("state", "")),
            )
            for f in data["files"]
        )
        journal = Journal(
            location,
            root,
            _text(data["old_key"]),
            _text(data["new_key"]),
            _text(data["phase"]),
            int(data.get("pid", 0)),
            str(data.get("started", "")),
            files,
        )
        if data.get("version") != VERSION:
            return journal._replace(refused=f"this journal is not of version {VERSION}")
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        return Journal(location, root, "", "", "", damaged=f"{error!r}")
    refused = _refusal(journal)
    return journal if refused is None else journal._replace(refused=refused)


def _text(value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"a field holds {type(value).__name__}, not a string")
    return value


def _is_hash(value: str) -> bool:
    return len(value) == 64 and not value.strip("0123456789abcdef")


def _refusal(journal: Journal) -> str | None:
    """Why mfls must not act on `journal`, or None: every file it names must be a regular
    file (or missing) inside the course once links are resolved, named with no link on
    the way, with the temporary and kept names a rename gives it; hashes, phase and
    states as a rename writes them; no file twice."""
    if journal.phase not in _PHASES:
        return f"this journal has an unknown phase {journal.phase!r}"
    root = reading.real_path(journal.course)
    folders: dict[str, bool] = {}  # a folder's verdict, once per folder
    seen: set[str] = set()
    for file in journal.files:
        if file.path in seen:
            return f"this journal names {printable(file.path)} twice"
        seen.add(file.path)
        if not (_is_hash(file.old_sha256) and _is_hash(file.new_sha256)):
            return f"this journal has a malformed hash for {printable(file.path)}"
        if file.state not in _STATES:
            return f"this journal has an unknown state {file.state!r}"
        folder, base = os.path.split(file.path)
        names = (
            (file.path, "path"),
            (file.temp, "temporary name"),
            (file.keep, "kept name"),
        )
        for name, what in names:
            if not _inside_course(name, root, folders):
                return f"this journal names files outside the course (the {what} {printable(name)})"
        temp = os.path.join(folder, f".{base}{exchange.TEMP_SUFFIX}")
        keep = os.path.join(folder, f".{base}{exchange.KEEP_SUFFIX}")
        if (file.temp, file.keep) != (temp, keep):  # the names `exchange` gives the file
            return (
                "this journal names files outside the course (the temporary or kept name "
                f"of {printable(file.path)} is not the one a rename gives it)"
            )
        for name, what in names:
            why = _not_plain_file(name)
            if why is not None:
                return f"this journal names a {what} {printable(name)} that is {why}"
    return None


def _inside_course(name: str, real_root: str, folders: dict[str, bool]) -> bool:
    """True when `name` is absolute, normal and lies inside `real_root` with no link
    between the root and its folder (the file itself is checked by `_not_plain_file`)."""
    if not os.path.isabs(name) or os.path.normpath(name) != name or "\0" in name:
        return False
    folder = os.path.dirname(name)
    verdict = folders.get(folder)
    if verdict is None:
        verdict = reading.inside(folder, real_root) and reading.real_path(folder) == folder
        folders[folder] = verdict
    return verdict


def _not_plain_file(name: str) -> str | None:
    try:
        mode = os.lstat(name).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        return f"unusable ({error.strerror or error})"
    if stat.S_ISLNK(mode):
        return "a link"
    return reading.not_regular(mode)


def pending_warnings(roots: Sequence[str]) -> list[str]:
    """One message per pending journal at the root of any of the courses at `roots` (for
    a CLI warning); a journal above a course root is not the course's."""
    found: dict[Path, str] = {}
    for root in roots:
        journal = pending_journal(os.path.abspath(root))
        if journal is not None:
            found.setdefault(journal.location, journal.message())
    return list(found.values())


# ----- writing ---------------------------------------------------------------------


class JournalWriter:
    """Records one rename (an `exchange.Recorder`); refuses to start beside another."""

    def __init__(self, course_root: str | os.PathLike[str], old_key: str, new_key: str) -> None:
        self.location = journal_path(course_root)
        self.journal = Journal(self.location, str(course_root), old_key, new_key, "preparing")

    def begin(self, changes: Sequence[exchange.Change]) -> str | None:
        files = tuple(
            JournalFile(
                str(c.path),
                str(exchange.temp_path(c.path)),
                str(exchange.keep_path(c.path)),
                sha256(c.original),
                sha256(c.new),
            )
            for c in changes
        )
        started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        self.journal = self.journal._replace(pid=os.getpid(), started=started, files=files)
        _check_folder(self.journal)
        with contextlib.suppress(FileExistsError):
            self.location.parent.mkdir()
        _check_folder(self.journal)
        if not os.path.lexists(self.location):
            _drop_draft(self.location)  # left by a rename killed before it began
        created = _create_anonymously(self.journal)
        if created is None:
            created = _create_from_draft(self.journal)
        if not created:
            return "another rename of this course is pending or running; nothing was written"
        exchange.sync_directories([self.location])
        return None

    def phase(self, phase: str) -> None:
        state = _FILE_STATE.get(phase, "checked")
        files = tuple(f._replace(state=state) for f in self.journal.files)
        self.journal = self.journal._replace(phase=phase, files=files)
        _write_journal(self.journal)

    def finish(self) -> None:
        remove(self.journal)


class OwnFolderRefused(OSError):
    """The folder `.mfls` of the course is a link or no folder: nothing is written there."""


def _check_folder(journal: Journal) -> None:
    """Raise `OwnFolderRefused` unless the journal's folder is a real folder in the course
    (or missing): nothing is written, replaced or removed through a link."""
    problem = own_folder_problem(journal.course)
    if problem is not None:
        raise OwnFolderRefused(problem.reason)


def _draft_path(location: Path) -> Path:
    """Where a rename about to start drafts its journal (where `O_TMPFILE` is missing)."""
    return location.with_name(location.name + ".new")


def _update_path(location: Path) -> Path:
    """Where the running rename writes the next version of its journal (only it does)."""
    return location.with_name(location.name + ".next")


def _drop_draft(location: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        _draft_path(location).unlink()


_NEW_FLAGS = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _write_all(descriptor: int, journal: Journal) -> None:
    data = journal.to_json().encode("utf-8")
    while data:
        data = data[os.write(descriptor, data) :]
    os.fsync(descriptor)


def _create_anonymously(journal: Journal) -> bool | None:
    """Create the journal whole from a file that has no name until it is linked (Linux
    `O_TMPFILE`), so a crash at any instant leaves either the journal or nothing. False
    when a journal is there already; None where the system cannot do it."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        descriptor = os.open(journal.location.parent, flag | os.O_WRONLY, 0o644)
    except OSError:
        return None
    try:
        _write_all(descriptor, journal)
        os.link(f"/proc/self/fd/{descriptor}", journal.location)
    except FileExistsError:
        return False
    except OSError:
        return None
    finally:
        os.close(descriptor)
    return True


def _same_file(path: Path, status: os.stat_result) -> bool:
    try:
        found = os.lstat(path)
    except OSError:
        return False
    return (found.st_dev, found.st_ino) == (status.st_dev, status.st_ino)


def _create_from_draft(journal: Journal) -> bool:
    """Create the journal by linking a complete draft to its name; False when a journal
    is there already, or another rename is starting or ending in the same instant (then
    the journal, if any, is not this draft). A crash may leave the draft, which the next
    rename removes."""
    fresh = _draft_path(journal.location)
    try:  # exclusive: two renames starting together never write the same draft
        descriptor = os.open(fresh, _NEW_FLAGS | os.O_EXCL, 0o644)
    except (FileExistsError, FileNotFoundError):
        return False
    try:
        _write_all(descriptor, journal)
        mine = os.fstat(descriptor)
        try:  # a link appears complete or not at all, and never over another journal
            os.link(fresh, journal.location)
        except (FileExistsError, FileNotFoundError):
            pass  # another rename's journal, or this draft was dropped: decided below
        except OSError:  # no hard links here
            if os.path.lexists(journal.location):
                raise
            os.replace(fresh, journal.location)
        # Only a journal that is this very file is this rename's: the draft name may have
        # been dropped and taken again by another rename starting in the same instant.
        return _same_file(journal.location, mine)
    finally:
        if _same_file(fresh, os.fstat(descriptor)):
            with contextlib.suppress(FileNotFoundError):
                fresh.unlink()
        os.close(descriptor)


def _write_journal(journal: Journal) -> None:
    _check_folder(journal)
    update = _update_path(journal.location)
    descriptor = os.open(update, _NEW_FLAGS | os.O_TRUNC, 0o644)
    try:
        _write_all(descriptor, journal)
    finally:
        os.close(descriptor)
    os.replace(update, journal.location)
    exchange.sync_directories([journal.location])


def remove(journal: Journal) -> None:
    _check_folder(journal)
    with contextlib.suppress(FileNotFoundError):
        _update_path(journal.location).unlink()
    with contextlib.suppress(FileNotFoundError):
        journal.location.unlink()
    exchange.sync_directories([journal.location])
    with contextlib.suppress(OSError):
        journal.location.parent.rmdir()


# ----- recovery --------------------------------------------------------------------

RENAMED = "renamed"  # the new bytes are in place, the old copy is kept at the temp name
CLEANED = "renamed, old copy removed"
READY = "not renamed yet"  # the old bytes are in place, the new copy is ready
UNTOUCHED = "not renamed"  # the old bytes are in place, no new copy
OVER_SAVE = "renamed over a save made meanwhile"  # the temp name holds a third content
CHANGED = "changed since"  # the file holds neither the old nor the new bytes
DELETED = "deleted"


class FileStatus(NamedTuple):
    file: JournalFile
    state: str


class Outcome(NamedTuple):
    """What `resume` or `undo` did (`settle` runs either). `restart`: nothing was
    changed; plan the rename again."""

    ok: bool
    message: str
    restart: bool = False
    problems: tuple[str, ...] = ()
    # Reading or writing a file failed part way; the journal is kept, to try again.
    failed: bool = False


def _hash_of(path: Path) -> str | None:
    data = exchange.read_or_none(path)
    return None if data is None else sha256(data)


def inspect(journal: Journal) -> list[FileStatus]:
    """What each file of the journal holds now (a half-done fallback swap is completed);
    nothing for a journal mfls does not act on."""
    if not journal.usable:
        return []
    statuses = []
    for file in journal.files:
        path, temp, keep = Path(file.path), Path(file.temp), Path(file.keep)
        if os.path.lexists(keep):
            if not os.path.lexists(temp):
                os.replace(keep, temp)
            elif _hash_of(keep) == _hash_of(path):
                keep.unlink()
        now, kept = _hash_of(path), _hash_of(temp)
        if now is None:
            state = DELETED
        elif now == file.new_sha256 and kept is None:
            state = CLEANED
        elif now == file.new_sha256:
            state = RENAMED if kept == file.old_sha256 else OVER_SAVE
        elif now == file.old_sha256:
            state = READY if kept == file.new_sha256 else UNTOUCHED
        else:
            state = CHANGED
        statuses.append(FileStatus(file, state))
    return statuses


def _remove_temps(journal: Journal, only_ours: bool = False) -> None:
    if not journal.usable:
        return
    for file in journal.files:
        temp = Path(file.temp)
        if only_ours and _hash_of(temp) not in (file.new_sha256, None):
            continue
        with contextlib.suppress(FileNotFoundError):
            temp.unlink()


def resume(journal: Journal) -> Outcome:
    """Finish the rename the journal describes, or say why it cannot be finished."""
    if not journal.usable:
        return Outcome(False, journal.message())
    if journal.phase == "preparing":
        _remove_temps(journal)
        remove(journal)
        return Outcome(True, "no file had been changed yet", restart=True)
    if journal.phase == "undoing":
        return Outcome(False, "the rename was being undone; run --undo to finish undoing it")
    statuses = inspect(journal)
    if journal.phase != "cleaning":
        blocking = [s for s in statuses if s.state not in (RENAMED, CLEANED, READY)]
        if blocking:
            problems = tuple(f"{s.file.path}: {s.state}" for s in blocking)
            return Outcome(False, "cannot finish; nothing was changed", problems=problems)
        for status in statuses:
            if status.state != READY:
                continue
            path, temp = Path(status.file.path), Path(status.file.temp)
            try:
                exchange.swap(temp, path)
            except FileNotFoundError:
                return Outcome(False, f"{path} was deleted meanwhile; run --undo")
            if _hash_of(temp) != status.file.old_sha256:
                exchange.swap(temp, path)
                return Outcome(False, f"{path} was saved by another program meanwhile; run --undo")
        exchange.sync_directories([Path(f.path) for f in journal.files])
        _write_journal(journal._replace(phase="cleaning"))
    _remove_temps(journal)
    remove(journal)
    return Outcome(True, f"finished renaming {journal.old_key!r} to {journal.new_key!r}")


def undo(journal: Journal) -> Outcome:
    """Put every file of the journal back as it was before the rename."""
    if not journal.usable:
        return Outcome(False, journal.message())
    if journal.phase == "preparing":
        _remove_temps(journal)
        remove(journal)
        return Outcome(True, "no file had been changed; removed the temporary files")
    statuses = inspect(journal)
    if journal.phase == "cleaning" and any(s.state == CLEANED for s in statuses):
        return Outcome(
            False,
            "the rename had completed and some old copies are already removed; "
            "run --resume to finish it",
        )
    if journal.phase != "undoing":
        journal = journal._replace(phase="undoing")
        _write_journal(journal)
    problems: list[str] = []
    for status in statuses:
        file = status.file
        path, temp = Path(file.path), Path(file.temp)
        if status.state in (RENAMED, OVER_SAVE):
            new = exchange.read_or_none(path) or b""
            if sha256(new) == file.new_sha256 and not exchange.swap_back(
                temp, path, new, exchange.swap
            ):
                problems.append(f"{file.path}: saved meanwhile; that save was kept")
        elif status.state == READY:
            temp.unlink()
        elif status.state == CLEANED:
            problems.append(f"{file.path}: renamed, and its old copy is gone")
        elif status.state in (CHANGED, DELETED):
            held = _hash_of(temp)
            if held == file.new_sha256:
                temp.unlink()
            elif held is not None:
                problems.append(f"{file.path}: {status.state}; its old text is kept in {temp}")
            else:
                problems.append(f"{file.path}: {status.state}; left as it is")
    exchange.sync_directories([Path(f.path) for f in journal.files])
    remove(journal)
    if problems:
        return Outcome(False, "undone except:", problems=tuple(problems))
    return Outcome(True, f"undid the rename of {journal.old_key!r} to {journal.new_key!r}")


def settle(journal: Journal, *, undo_it: bool) -> Outcome:
    """`undo` (with `undo_it`) or `resume` the journal; a failure of the disk is data."""
    try:
        return undo(journal) if undo_it else resume(journal)
    except OSError as error:
        return Outcome(False, f"failed ({error}); the journal is kept, try again", failed=True)
