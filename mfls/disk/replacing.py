"""Replace several files as one step: all of them change, or none does, and a save made
by another program meanwhile is never overwritten.

Every file is first checked against the bytes its change was computed from. Then every
new content is written to a temporary file beside its original (same directory, owner
and mode) and flushed to disk, and only then are they swapped in (`mfls.disk.exchange`:
an atomic exchange where the system has one, each old file checked after the fact). If
anything fails, or another program saved a file meanwhile, every swapped file is put
back. With a journal (`mfls.disk.journal.JournalWriter`) a crash at any instant can be
finished or undone. The outcome is data: `Replaced`, or a `ReplaceFailure` saying what
happened (`apply_file_changes`: None or the failure).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from mfls.disk import exchange
from mfls.disk.exchange import TEMP_SUFFIX, Change
from mfls.disk.exchange import Applied as Replaced
from mfls.disk.problems import ReplaceFailure
from mfls.disk.reading import read_prefix

__all__ = [
    "TEMP_SUFFIX",
    "Change",
    "FileChange",
    "ReplaceFailure",
    "Replaced",
    "apply_file_changes",
    "replace_files",
]


class FileChange(NamedTuple):
    """One file's change; any object with these three attributes (`Change`) will do."""

    path: Path
    original: bytes  # what the file must still hold when the change is applied
    new: bytes


def write_temp(path: Path, data: bytes) -> Path:
    """Write `data` to the temporary name beside `path`, with `path`'s owner and mode."""
    return exchange.write_temp(path, data)


def flush_to_disk(paths: Sequence[Path]) -> None:
    """Make the written files durable before any original is replaced (a name tests
    replace to count or fail the flush)."""
    exchange.flush(paths)


def replace(temp: Path, path: Path) -> bool:
    """Swap `temp` and `path` (the old file ends at `temp`); False when not atomic."""
    return exchange.swap(temp, path)


def unchanged(changes: Sequence[Change]) -> ReplaceFailure | None:
    """None when every file still holds its `original` bytes, else the first that does not."""
    for change in changes:
        current, problems = read_prefix(str(change.path), None, len(change.original))
        if current is None:
            reason = problems[0].reason if problems else "unreadable"
            return ReplaceFailure(f"cannot read {change.path}: {reason}")
        if current != change.original:
            return ReplaceFailure(
                f"{change.path} changed on disk; nothing was written", changed_on_disk=True
            )
    return None


def replace_files(
    changes: Sequence[Change], journal: exchange.Recorder | None = None
) -> Replaced | ReplaceFailure:
    """Apply every change or none: `Replaced` (how many files, how many of them put in
    place by the non-atomic fallback) when done, else a `ReplaceFailure` after restoring
    everything (an interrupt is raised again once restored)."""
    stale = unchanged(changes)
    if stale is not None:
        return stale
    return exchange.apply(
        changes, write_temp=write_temp, swap=replace, flush=flush_to_disk, journal=journal
    )


def apply_file_changes(
    changes: Sequence[Change], journal: exchange.Recorder | None = None
) -> ReplaceFailure | None:
    """`replace_files`, with None when done."""
    done = replace_files(changes, journal)
    return done if isinstance(done, ReplaceFailure) else None
