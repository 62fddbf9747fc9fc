"""`mfls rename --course DIR OLD NEW [--dry-run]`: rename a memory key in a course's files.

The same edit and the same validation as the editor's rename. `--dry-run` prints a
unified diff and writes nothing. A real run writes every file or none
(`mfls.disk.replacing`), never over a save made meanwhile; line endings and the UTF-8
encoding (a BOM included) are kept byte for byte outside the edited markers. A link
inside the course is edited at its target and stays a link. Any course file or folder
that cannot be read, listed or decoded makes the rename refuse. A run keeps a journal
in DIR/.mfls (`mfls.disk.journal`); after a crash, `mfls rename --resume --course DIR`
finishes the rename and `mfls rename --undo --course DIR` rolls it back, and until then
every other rename of the course is refused. A journal is acted on only when every file
it names lies inside the course (a cloned or downloaded course can carry one); any other
is reported and left alone. A `.mfls` that is a link is never written or read through.

Each completed rename (a real run, or `--resume` finishing one) appends a record to
DIR/.mfls/renames.jsonl for the host (`mfls.features.rename_record`), and `--undo`
appends an `"action": "undo"` record once an interrupted rename is rolled back (a host
may have read the renamed files meanwhile); one stderr line says where.

Exit status: 0 renamed (or would rename), 1 refused (the message says why: a pending
journal, another rename running, a key taken), 2 the command line or the files (a `.mfls`
link included) could not be used.
"""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mfls.disk.journal import Journal
    from mfls.features.course_rename import FileChange, Unusable
    from mfls.features.refusal import Refusal
    from mfls.features.rename import WorkspaceChange
    from mfls.features.rename_record import RecordFile
    from mfls.workspace.index import CourseSnapshot

from mfls.cli.output import configure_stderr, say, shown, write_stdout


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--course", required=True, metavar="DIR", help="the course folder (holding mfcourse.toml)"
    )
    parser.add_argument(
        "old", metavar="OLD", nargs="?", help="the key to rename, as a marker holds it"
    )
    parser.add_argument("new", metavar="NEW", nargs="?", help="the new key")
    parser.add_argument(
        "--dry-run", action="store_true", help="print a unified diff and change nothing"
    )
    recovery = parser.add_mutually_exclusive_group()
    recovery.add_argument(
        "--resume", action="store_true", help="finish a rename that was interrupted"
    )
    recovery.add_argument(
        "--undo", action="store_true", help="roll back a rename that was interrupted"
    )
    parser.epilog = (
        "Every file of the course is written, or none is; --resume or --undo finish or "
        "roll back an interrupted run. Exit status: 0 renamed (or, with "
        "--dry-run, would rename), 1 refused (the message says why), 2 unusable command "
        "line or files."
    )


def plan_rename(
    directory: str, old: str, new: str
) -> tuple[CourseSnapshot, WorkspaceChange] | Refusal | Unusable:
    """Load the course at `directory` and plan the rename of `old` to `new` in it: one
    edit per file (a file reached through links is edited once)."""
    from mfls.disk import printable
    from mfls.features.course_rename import (
        Unusable,
        keys_of_interest,
        old_key_of,
        one_per_file,
        plan_course_rename,
        relative_name,
    )
    from mfls.features.refusal import Refusal
    from mfls.workspace.loading import load_course, real_paths, unusable_members

    old_key = old_key_of(old)
    if isinstance(old_key, Unusable):
        return old_key
    loaded = load_course(directory, keys_of_interest(old_key, new))
    if not loaded.is_folder:
        return Unusable(f"{directory} is not a folder")
    if loaded.course is None:
        return Refusal(f"{directory} holds no MarkdownFlow documents")
    root = loaded.course.root or os.path.abspath(directory)
    unsafe = [
        f"{printable(relative_name(p.path, root, p.path))} ({p.reason})"
        for p in unusable_members(loaded)
    ]
    change = plan_course_rename(loaded.course, old_key, new, unsafe)
    if isinstance(change, Refusal):
        return change
    paths = [doc.path for doc in change.documents if doc.path is not None]
    return loaded.course, one_per_file(change, real_paths(paths))


def run(args: argparse.Namespace) -> int:
    from mfls.disk import journal

    configure_stderr(logging.WARNING)
    if args.resume or args.undo:
        if args.old is not None or args.new is not None or args.dry_run:
            say("rename", "--resume and --undo take only --course")
            return 2
        return _recover(args)
    if args.old is None or args.new is None:
        say("rename", "OLD and NEW are required (or --resume / --undo)")
        return 2
    if _own_folder_unusable(args.course, "write"):
        return 2
    pending = journal.pending_journal(os.path.abspath(args.course))
    if pending is not None:
        say("rename", f"refused: {pending.message()}")
        return 1
    return _rename(args)


def _rename(args: argparse.Namespace) -> int:
    # Imported here: `mfls` builds this parser for every command, including `serve`.
    from mfls.disk import real_path
    from mfls.disk.journal import JournalWriter
    from mfls.disk.replacing import ReplaceFailure, replace_files
    from mfls.features.course_rename import Unusable, file_changes, relative_name, render_diff
    from mfls.workspace.loading import real_paths

    planned = plan_rename(args.course, args.old, args.new)
    if not isinstance(planned, tuple):
        say("rename", f"{planned.message}")
        return 2 if isinstance(planned, Unusable) else 1
    course, change = planned
    markers = change.markers
    if not change.documents:
        say("rename", "the key already has that name; nothing to do")
        return 0
    if args.dry_run:
        write_stdout(render_diff(course, change, shown))
        say(
            "rename",
            f"would change {_count(markers, 'marker')} in "
            f"{_count(len(change.documents), 'file')} (dry run: nothing written)",
        )
        return 0
    root = os.path.abspath(args.course)
    paths = [doc.path for doc in change.documents if doc.path is not None]
    writes = file_changes(change, real_paths(paths), real_path(root))
    if isinstance(writes, Unusable):
        say("rename", writes.message)
        return 2
    done = replace_files(writes, JournalWriter(root, args.old, args.new))
    if isinstance(done, ReplaceFailure):
        say("rename", done.message)
        return 1 if done.changed_on_disk or done.refused else 2
    _record(root, course.config.name, args.old, args.new, _files_of(writes, root))
    lines = [f"renamed {_count(markers, 'marker')} in {_count(len(change.documents), 'file')}"]
    for doc in change.documents:
        name = relative_name(doc.path, course.root, doc.uri)
        lines.append(f"  {shown(name)}: {_count(len(doc.changes), 'edit')}")
    write_stdout("\n".join(lines) + "\n")
    if change.annotation is not None:
        say("rename", f"note: {change.annotation.description}")
    if done.replaced:
        say(
            "rename",
            f"note: {_count(done.replaced, 'file')} could not be swapped "
            "atomically here and were replaced after a check instead (a save by another "
            "program in that instant could be overwritten)",
        )
    return 0


def _own_folder_unusable(course: str, use: str) -> bool:
    """Say so when the course's `.mfls` is a link or no folder (nothing is done there)."""
    from mfls.disk.own_files import own_folder_problem

    problem = own_folder_problem(os.path.abspath(course))
    if problem is not None:
        say("rename", f"cannot {use} the rename journal: {problem.reason}; nothing was done")
    return problem is not None


def _recover(args: argparse.Namespace) -> int:
    from mfls.disk import journal

    if _own_folder_unusable(args.course, "read"):
        return 2
    pending = journal.pending_journal(os.path.abspath(args.course))
    if pending is None:
        say("rename", f"no interrupted rename is pending in {args.course}")
        return 1
    if not pending.usable:
        say("rename", f"refused: {pending.message()}")
        return 1
    outcome = journal.settle(pending, undo_it=args.undo)
    if outcome.failed:
        say("rename", f"{outcome.message}")
        return 2
    if outcome.restart:
        say("rename", f"{outcome.message}; renaming again")
        args.old, args.new, args.resume = pending.old_key, pending.new_key, False
        return _rename(args)
    say("rename", f"{outcome.message}")
    if pending.phase != "preparing" and (outcome.ok or args.undo):
        _record_journal(pending, undone=args.undo)
    for problem in outcome.problems:
        say("rename", f"  {problem}")
    return 0 if outcome.ok else 1


def _files_of(writes: Sequence[FileChange], root: str) -> tuple[RecordFile, ...]:
    from mfls.disk import real_path
    from mfls.features import rename_record as rr

    base = real_path(root)
    return tuple(
        rr.RecordFile(
            rr.relative_file(str(w.path), base), rr.sha256_bytes(w.original), rr.sha256_bytes(w.new)
        )
        for w in writes
    )


def _record_journal(pending: Journal, *, undone: bool) -> None:
    """The record of a rename `--resume` finished, or of one `--undo` rolled back (then
    each file's hashes go from the interrupted rename's new content to what it holds now)."""
    from mfls.disk import read_bytes, real_path
    from mfls.features import rename_record as rr
    from mfls.workspace.loading import load_course

    root = os.path.abspath(pending.course)
    base = real_path(root)
    files = []
    for file in pending.files:
        if undone:
            data, _ = read_bytes(file.path)
            after = "" if data is None else rr.sha256_bytes(data)
            files.append(rr.RecordFile(rr.relative_file(file.path, base), file.new_sha256, after))
        else:
            files.append(
                rr.RecordFile(rr.relative_file(file.path, base), file.old_sha256, file.new_sha256)
            )
    course = load_course(root, ()).course
    name = None if course is None else course.config.name
    action = rr.UNDO if undone else rr.RENAME
    _record(root, name, pending.old_key, pending.new_key, tuple(files), action)


def _record(
    root: str,
    name: str | None,
    old_key: str,
    new_key: str,
    files: tuple[RecordFile, ...],
    action: str = "rename",
) -> None:
    """Append the record of a rename to the course's renames file; one stderr line."""
    import datetime
    import uuid

    from mfls import __version__
    from mfls.disk import append_line
    from mfls.features import rename_record as rr
    from mfls.syntax.keys import check_new_key

    record = rr.RenameRecord(
        record_id=str(uuid.uuid4()),
        course_root=root,
        course_name=name,
        old_key=check_new_key(old_key)[0] or old_key,
        new_key=check_new_key(new_key)[0] or new_key,
        time=rr.utc_time(datetime.datetime.now(datetime.timezone.utc)),
        files=files,
        tool=rr.CLI_TOOL,
        tool_version=__version__,
        action=action,
    )
    location = rr.records_path(root)
    problems = append_line(location, rr.record_line(record), root)
    if problems:
        say(
            "rename",
            f"warning: the rename was not recorded: {problems[0].shown}: {problems[0].reason}",
        )
    else:
        say("rename", f"recorded in {shown(location)}")


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def main(argv: Sequence[str] | None = None) -> int:
    """`mfls rename` on its own (the `mfls` command line adds it as a subcommand)."""
    from mfls.cli import SUBCOMMANDS

    described = next(sub.help for sub in SUBCOMMANDS if sub.name == "rename")
    parser = argparse.ArgumentParser(prog="mfls rename", description=described)
    configure(parser)
    return run(parser.parse_args(argv))
