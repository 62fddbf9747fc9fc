"""`mfls rename --course DIR OLD NEW [--dry-run]`: rename a memory key in a course's files.

The same edit and the same validation as the editor's rename. `--dry-run` prints a
unified diff and writes nothing. A real run writes every file or none
(`mfls.disk.replacing`); line endings and the UTF-8 encoding (a BOM included) are
kept byte for byte outside the edited markers.

Exit status: 0 renamed (or would rename), 1 refused (the message says why), 2 the
command line or the files could not be used.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mfls.features.course_rename import Unusable
    from mfls.features.refusal import Refusal
    from mfls.features.rename import WorkspaceChange
    from mfls.workspace.index import CourseSnapshot

from mfls.cli.output import write_stdout

HELP = "rename a memory key in every document of a course"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--course", required=True, metavar="DIR", help="the course folder (holding mfcourse.toml)"
    )
    parser.add_argument("old", metavar="OLD", help="the key to rename, as a marker holds it")
    parser.add_argument("new", metavar="NEW", help="the new key")
    parser.add_argument(
        "--dry-run", action="store_true", help="print a unified diff and change nothing"
    )
    parser.epilog = (
        "Every file of the course is written, or none is. Exit status: 0 renamed (or, with "
        "--dry-run, would rename), 1 refused (the message says why), 2 unusable command "
        "line or files."
    )


def plan_rename(
    directory: str, old: str, new: str
) -> tuple[CourseSnapshot, WorkspaceChange] | Refusal | Unusable:
    """Load the course at `directory` and plan the rename of `old` to `new` in it."""
    from mfls.features.course_rename import (
        Unusable,
        keys_of_interest,
        old_key_of,
        plan_course_rename,
    )
    from mfls.features.refusal import Refusal
    from mfls.workspace.loading import load_course, skipped_holding

    old_key = old_key_of(old)
    if isinstance(old_key, Unusable):
        return old_key
    loaded = load_course(directory, keys_of_interest(old_key, new))
    if not loaded.is_folder:
        return Unusable(f"{directory} is not a folder")
    if loaded.course is None:
        return Refusal(f"{directory} holds no MarkdownFlow documents")
    unsafe = skipped_holding(loaded.problems, old_key.encode("utf-8"))
    change = plan_course_rename(loaded.course, old_key, new, unsafe)
    if isinstance(change, Refusal):
        return change
    return loaded.course, change


def run(args: argparse.Namespace) -> int:
    # Imported here: `mfls` builds this parser for every command, including `serve`.
    from mfls.disk.replacing import apply_file_changes
    from mfls.features.course_rename import Unusable, file_changes, relative_name, render_diff

    planned = plan_rename(args.course, args.old, args.new)
    if not isinstance(planned, tuple):
        print(f"mfls rename: {planned.message}", file=sys.stderr)
        return 2 if isinstance(planned, Unusable) else 1
    course, change = planned
    markers = change.markers
    if not change.documents:
        print("mfls rename: the key already has that name; nothing to do", file=sys.stderr)
        return 0
    if args.dry_run:
        write_stdout(render_diff(course, change))
        print(
            f"mfls rename: would change {_count(markers, 'marker')} in "
            f"{_count(len(change.documents), 'file')} "
            "(dry run: nothing written)",
            file=sys.stderr,
        )
        return 0
    writes = file_changes(change)
    if isinstance(writes, Unusable):
        print(f"mfls rename: {writes.message}", file=sys.stderr)
        return 2
    failure = apply_file_changes(writes)
    if failure is not None:
        print(f"mfls rename: {failure.message}", file=sys.stderr)
        return 1 if failure.changed_on_disk else 2
    lines = [f"renamed {_count(markers, 'marker')} in {_count(len(change.documents), 'file')}"]
    for doc in change.documents:
        name = relative_name(doc.path, course.root, doc.uri)
        lines.append(f"  {name}: {_count(len(doc.changes), 'edit')}")
    write_stdout("\n".join(lines) + "\n")
    if change.annotation is not None:
        print(f"mfls rename: note: {change.annotation.description}", file=sys.stderr)
    return 0


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def main(argv: Sequence[str] | None = None) -> int:
    """`mfls rename` on its own (the `mfls` command line adds it as a subcommand)."""
    parser = argparse.ArgumentParser(prog="mfls rename", description=HELP)
    configure(parser)
    return run(parser.parse_args(argv))
