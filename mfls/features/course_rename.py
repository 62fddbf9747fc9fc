"""Renaming a key in a whole course, as `mfls rename` does: pure planning from an
indexed course to file changes, a unified diff of them, and refusals as data.

Where links lead is the disk's to say: callers pass each document path's resolved form
(`mfls.workspace.loading.real_paths`), so a file reached under several names is edited
once, at its target, and nothing resolving outside the course root is written.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mfls.features import rename as rn
from mfls.features.refusal import Refusal
from mfls.syntax.keys import NOT_UTF8, check_new_key
from mfls.text.diff import diff_of_changes
from mfls.text.edits import apply_changes
from mfls.workspace.index import CourseSnapshot, relative_path


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file's new bytes and the bytes they were computed from (what
    `mfls.disk.replacing` checks the file still holds before replacing it)."""

    path: Path
    original: bytes
    new: bytes


@dataclass(frozen=True, slots=True)
class Unusable:
    """The request cannot be considered at all: an argument or a file that cannot be
    used (where a `Refusal` is a request understood and declined)."""

    message: str


def old_key_of(old: str) -> str | Unusable:
    """The key `old` names, as a marker holds it."""
    old_key, problem = check_new_key(old)
    if problem == NOT_UTF8:
        return Unusable("OLD is not valid UTF-8 text, so no marker can hold it")
    if old_key is None:
        return Unusable(f"OLD is not a key a marker can hold ({problem})")
    return old_key


def keys_of_interest(old_key: str, new: str) -> tuple[str, ...]:
    """The keys whose documents the rename and its conflict check read."""
    new_key, _ = check_new_key(new)
    return (old_key,) if new_key is None else (old_key, new_key)


def plan_course_rename(
    course: CourseSnapshot, old_key: str, new: str, unreadable: Sequence[str] = ()
) -> rn.WorkspaceChange | Refusal:
    """The validated rename of `old_key` to `new` in `course`.

    `unreadable` lists course files and folders that could not be read, listed or
    decoded (each as its name and reason): they may use the key, and renaming would leave
    the course half-renamed, so they make the rename refuse.
    """
    change = rn.rename_key(course, old_key, new)
    if isinstance(change, Refusal):
        return change
    if unreadable:
        return unusable_members_refusal(old_key, unreadable)
    return change


def unusable_members_refusal(old_key: str, unreadable: Sequence[str]) -> Refusal:
    """The refusal of a rename (in the CLI and the editor alike) when course files or
    folders could not be used; `unreadable` names each with its reason."""
    return Refusal(
        "these course files or folders could not be read, listed or decoded, and may "
        "use the key, so renaming would leave the course half-renamed: " + ", ".join(unreadable),
        old_key=old_key,
    )


def relative_name(path: str | None, root: str | None, uri: str) -> str:
    if path is None:
        return uri
    if root is not None:
        return relative_path(path, root)
    return path


def render_diff(
    course: CourseSnapshot, change: rn.WorkspaceChange, name: Callable[[str], str] = str
) -> str:
    """The unified diff of `change`; `name` shows each file's name (the command line
    escapes it)."""
    parts = []
    for doc in change.documents:
        label = name(relative_name(doc.path, course.root, doc.uri))
        parts.append(diff_of_changes(label, doc.text, doc.changes))
    return "".join(parts)


def one_per_file(change: rn.WorkspaceChange, real: Mapping[str, str]) -> rn.WorkspaceChange:
    """`change` with a file reached under several names (links) edited once, under its
    own name if that is one of them; `real` maps each document path to its target."""
    chosen: dict[str, rn.DocumentChange] = {}
    for doc in change.documents:
        if doc.path is None:
            continue
        target = real.get(doc.path, doc.path)
        if target not in chosen or doc.path == target:
            chosen[target] = doc
    kept = {id(doc) for doc in chosen.values()}
    documents = tuple(d for d in change.documents if d.path is None or id(d) in kept)
    if len(documents) == len(change.documents):
        return change
    dropped = sum(
        len(d.changes) for d in change.documents if d.path is not None and id(d) not in kept
    )
    return dataclasses.replace(change, documents=documents, markers=change.markers - dropped)


def file_changes(
    change: rn.WorkspaceChange,
    real: Mapping[str, str] | None = None,
    real_root: str | None = None,
) -> list[FileChange] | Unusable:
    """The change as whole-file replacements, each checked against the text it was
    computed from: one per file, a link written at its target (`real` maps each document
    path to it) so it stays a link. With `real_root` (resolved), a file resolving
    outside it is unusable."""
    changes: dict[str, FileChange] = {}
    for doc in change.documents:
        if doc.path is None:
            return Unusable(f"{doc.uri} is not a local file")
        target = doc.path if real is None else real.get(doc.path, doc.path)
        if real_root is not None and not _inside(target, real_root):
            return Unusable(f"{doc.path} resolves outside the course root {real_root}")
        new_text = apply_changes(doc.text, doc.changes)
        found = FileChange(Path(target), doc.text.encode("utf-8"), new_text.encode("utf-8"))
        earlier = changes.setdefault(target, found)
        if earlier != found:
            return Unusable(f"{doc.path} was read twice with different contents; try again")
    return list(changes.values())


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)
