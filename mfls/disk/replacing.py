"""Replace several files as one step: all of them change, or none does.

Every new content is first written to a temporary file beside its original (same
directory, so the final `os.replace` is an atomic rename on one file system). Only
when every temporary file is written and flushed to disk are the originals replaced.
If anything fails, the originals already replaced are written back and the temporary
files removed. The outcome is data: None, or a `ReplaceFailure` saying what happened.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mfls.disk.reading import read_prefix

TEMP_SUFFIX = ".mfls-tmp"


@dataclass(frozen=True, slots=True)
class FileChange:
    path: Path
    original: bytes  # what the file must still hold when the change is applied
    new: bytes


@dataclass(frozen=True, slots=True)
class ReplaceFailure:
    """Why nothing was written. `changed_on_disk`: a file no longer held the content the
    change was computed from (nothing was touched); otherwise reading or writing failed
    and every file was restored, except the `unrestored` ones the message names."""

    message: str
    changed_on_disk: bool = False
    unrestored: tuple[str, ...] = ()


def write_temp(path: Path, data: bytes) -> Path:
    """Write `data` to a new temporary file beside `path`, with `path`'s permissions."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    temp = Path(name)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        with contextlib.suppress(OSError):
            os.chmod(temp, stat.S_IMODE(path.stat().st_mode))
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise
    return temp


def flush_to_disk(paths: Sequence[Path]) -> None:
    """Make the written files durable before any original is replaced: one `sync()` for
    all of them where the system has it (much faster than one `fsync` per file)."""
    if hasattr(os, "sync"):
        os.sync()
        return
    for path in paths:
        with open(path, "rb+") as handle:
            os.fsync(handle.fileno())


def replace(temp: Path, path: Path) -> None:
    os.replace(temp, path)


def unchanged(changes: Sequence[FileChange]) -> ReplaceFailure | None:
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


def apply_file_changes(changes: Sequence[FileChange]) -> ReplaceFailure | None:
    """Apply every change or none: None when done, else a `ReplaceFailure` after
    restoring everything (an interrupt is raised again once restored)."""
    stale = unchanged(changes)
    if stale is not None:
        return stale
    temps: list[Path] = []
    replaced: list[FileChange] = []
    try:
        for change in changes:
            temps.append(write_temp(change.path, change.new))
        flush_to_disk(temps)
        for change, temp in zip(changes, temps, strict=True):
            replace(temp, change.path)
            replaced.append(change)
    except BaseException as error:
        failures = _restore(replaced)
        for temp in temps:
            with contextlib.suppress(OSError):
                temp.unlink()
        if not isinstance(error, Exception):
            raise
        if failures:
            message = f"writing failed ({error}); could not restore {', '.join(failures)}"
        else:
            message = f"writing failed ({error}); every file was left as it was"
        return ReplaceFailure(message, unrestored=tuple(failures))
    return None


def _restore(replaced: Sequence[FileChange]) -> list[str]:
    """Put the original bytes back into every already replaced file; list failures."""
    failures: list[str] = []
    for change in reversed(replaced):
        try:
            temp = write_temp(change.path, change.original)
            try:
                flush_to_disk([temp])
                replace(temp, change.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    temp.unlink()
                raise
        except OSError:
            failures.append(str(change.path))
    return failures
