"""The data of an AI-Shifu course folder as `mfls.workspace.course_creator` reads it
(kept apart so that `CourseConfig` can hold it without an import cycle). Named tuples: a
text `mfls check` loads no `dataclasses`."""

from __future__ import annotations

from typing import Any, NamedTuple


class StructureLesson(NamedTuple):
    """One lesson of the folder in course order: its file (`file` as `structure.json`
    writes it, `path` the absolute path, None when refused), its chapter and title, the
    `hidden`/`access` flags as written (None when absent), where `file` stands in
    `structure.json`, and whether the file was found."""

    file: str
    path: str | None
    chapter: str = ""
    title: str = ""
    hidden: bool | None = None
    access: str | None = None
    span: tuple[int, int, int, int] = (0, 0, 0, 0)  # start, end, line, column
    found: bool = True


class SyncedLesson(NamedTuple):
    """A lesson as `.shifu-sync.json` holds it (written by the tool, never by mfls): its
    file (relative to the course root), name and the hash of its text at the last pull
    or push (None when the tool recorded none)."""

    file: str
    name: str
    content_sha256: str | None
    found: bool = True  # whether the listing of the course folder found the file


class CourseLayout(NamedTuple):
    """An AI-Shifu course folder: its root, `structure.json` (None: absent, the lessons
    are `lessons/lesson-*.md`), `.shifu-sync.json` (None: absent), the chapters and
    lessons in course order, and the problems of `structure.json`."""

    root: str
    structure: str | None
    sync: str | None
    chapters: tuple[str, ...] = ()
    lessons: tuple[StructureLesson, ...] = ()
    problems: tuple[Any, ...] = ()  # ConfigProblem: at their place in structure.json
    from_structure: bool = False
    synced: tuple[SyncedLesson, ...] = ()
    structure_text: str | None = None  # as read (None: absent or unreadable)
