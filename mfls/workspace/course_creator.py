"""The AI-Shifu course folder, as the platform's course tool (`shifu-cli.py` of the
`ai-shifu-course-creator` skill) writes it, read as a course without `mfcourse.toml`.

A folder is one when it holds `structure.json` or `.shifu-sync.json` beside a `lessons/`
folder. Its lessons, in course order, are the `chapters[].lessons[].file` of
`structure.json` (relative to `lessons/`), or without one `lessons/lesson-*.md` in number
order (as the tool's `build`). `course-prompt.md` is the course prompt: a reference
document run before every lesson, so it comes first in course order. Every other file
(`README.md`, `course-description.md`, the JSON files, `assets/`, backups) is no lesson.
Host `ai-shifu` applies. An `mfcourse.toml` beside them wins for each setting it sets.

Paths in `structure.json` are untrusted: a lesson is only ever one of the files the walk
of the course root listed (which never leaves it), and a name that leaves `lessons/` is
refused with a diagnostic.
"""

from __future__ import annotations

import os
import posixpath
import re
import sys
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from mfls.disk import Disk
from mfls.text.json_nesting import COURSE_FILE_NESTING, loads_within
from mfls.text.lines import line_column
from mfls.workspace.config import COURSE_FILE, ConfigProblem, CourseConfig
from mfls.workspace.course_layout import CourseLayout, StructureLesson, SyncedLesson
from mfls.workspace.index import DocKind
from mfls.workspace.uris import path_to_uri

if TYPE_CHECKING:
    from mfls.workspace.json_spans import Spanned

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

STRUCTURE: Final = "structure.json"
SYNC: Final = ".shifu-sync.json"
LESSONS: Final = "lessons"
COURSE_PROMPT: Final = "course-prompt.md"
README: Final = "README.md"
HOST: Final = "ai-shifu"
LANDMARKS: Final = (STRUCTURE, SYNC)
"""The files that make a folder holding `lessons/` a course folder."""
EXPORT_MANIFEST: Final = ".mfls/ai-shifu-export.json"
"""The manifest `mfls unpack` writes (`mfls.exports.layout.MANIFEST`): its folder's
`prompts/course.md` is the course prompt."""
UNPACKED_COURSE_PROMPT: Final = "prompts/course.md"
_LESSON_NAME: Final = re.compile(r"lesson-(.*)\.md\Z")
_DIGITS: Final = re.compile(r"\d+")


def is_course_folder(directory: str, disk: Disk) -> bool:
    """Whether `directory` holds `structure.json` or `.shifu-sync.json` beside `lessons/`."""
    return disk.is_directory(os.path.join(directory, LESSONS)) and any(
        disk.is_regular_file(os.path.join(directory, name)) for name in LANDMARKS
    )


def course_roots(landmarks: Iterable[str], disk: Disk) -> list[str]:
    """The course roots among the folders of walk `landmarks` (paths of course files)."""
    roots: list[str] = []
    for path in landmarks:
        directory, name = os.path.split(path)
        if name == COURSE_FILE or (name in LANDMARKS and is_course_folder(directory, disk)):
            roots.append(directory)
    return list(dict.fromkeys(roots))


def nearest_root(directory: str, boundary: str | None, disk: Disk) -> str | None:
    """The nearest folder from `directory` up to `boundary` that is a course root: one
    holding `mfcourse.toml`, or an AI-Shifu course folder."""
    course_file = disk.nearest_holding(directory, COURSE_FILE, boundary)
    candidate = os.path.abspath(directory)
    while course_file is None or len(candidate) > len(course_file):
        if boundary is not None and not _within(candidate, boundary):
            break
        if is_course_folder(candidate, disk):
            return candidate
        parent = os.path.dirname(candidate)
        if parent == candidate:
            break
        candidate = parent
    return course_file


def _within(path: str, folder: str) -> bool:
    folder = os.path.abspath(folder)
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


# -- reading the folder -------------------------------------------------------------


def configure(
    root: str,
    config: CourseConfig,
    course_file_text: str | None,
    disk: Disk,
    max_bytes: int,
) -> CourseConfig:
    """`config` (read from the course's `mfcourse.toml`, whose text is given when there
    is one) as the course folder at `root` makes it, when `root` is one; else unchanged.

    The folder sets host `ai-shifu`, the course prompt as reference, its name (the first
    heading of `README.md`) and its layout; a setting the course file sets wins."""
    if not is_course_folder(root, disk):
        return config
    chosen = _set_keys(course_file_text)
    layout = read_layout(root, disk, max_bytes)
    values: dict[str, Any] = {"layout": layout}
    if "host" not in chosen:
        values["host"] = HOST
    if "name" not in chosen:
        values["name"] = _readme_title(root, disk, max_bytes)
    if "references" not in chosen:
        values["references"] = (COURSE_PROMPT,)
    return config._replace(**values)


def _set_keys(text: str | None) -> frozenset[str]:
    """The top-level keys a course file sets (none when it is absent or broken)."""
    if text is None:
        return frozenset()
    try:
        return frozenset(tomllib.loads(text.removeprefix("\ufeff")))
    except (tomllib.TOMLDecodeError, RecursionError):
        return frozenset()


def lessons_from_course_file(text: str | None) -> bool:
    """Whether the course file lists `lessons` itself (its globs then decide)."""
    return "lessons" in _set_keys(text)


def _readme_title(root: str, disk: Disk, max_bytes: int) -> str | None:
    text, _ = disk.read_text(os.path.join(root, README), root, max_bytes)
    if text is None:
        return None
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip()
    title = first.lstrip("#").strip() if first.startswith("#") else ""
    return title or None


def read_layout(root: str, disk: Disk, max_bytes: int) -> CourseLayout:
    """The folder's chapters and lessons as `structure.json` lists them (files not yet
    looked for: `resolve` does that), with the problems of its text."""
    structure = os.path.join(root, STRUCTURE)
    sync = os.path.join(root, SYNC)
    layout = CourseLayout(
        root,
        structure if disk.is_regular_file(structure) else None,
        sync if disk.is_regular_file(sync) else None,
    )
    if layout.sync is not None:
        layout = layout._replace(synced=_synced(layout.sync, root, disk, max_bytes))
    if layout.structure is None:
        return layout
    text, problems = disk.read_text(structure, root, max_bytes)
    if text is None:
        reason = problems[0].reason if problems else "unreadable"
        problem = ConfigProblem.of("structure.unreadable", {"reason": reason}, (0, 0, 0, 0))
        return layout._replace(problems=(problem,))
    return _from_structure(layout._replace(structure_text=text), text)


def _synced(path: str, root: str, disk: Disk, max_bytes: int) -> tuple[SyncedLesson, ...]:
    """The lessons of `.shifu-sync.json`; none when it is unusable (the tool then falls
    back to no manifest too: `_load_sync`)."""
    text, _ = disk.read_text(path, root, max_bytes)
    try:
        data = loads_within(text, COURSE_FILE_NESTING) if text is not None else None
    except (ValueError, RecursionError):
        return ()
    if not isinstance(data, dict) or not isinstance(data.get("lessons"), list):
        return ()
    found = []
    for entry in data["lessons"]:
        if not isinstance(entry, dict) or entry.get("is_chapter"):
            continue
        file, name, sha = entry.get("file"), entry.get("name"), entry.get("content_sha256")
        if isinstance(file, str) and file:
            found.append(
                SyncedLesson(
                    file,
                    name if isinstance(name, str) else "",
                    sha if isinstance(sha, str) else None,
                )
            )
    return tuple(found)


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _from_structure(layout: CourseLayout, text: str) -> CourseLayout:
    import json  # here: a check of a folder without one loads no `json`

    from mfls.workspace.json_spans import json_spans

    body = text.removeprefix("\ufeff")
    shift = len(text) - len(body)
    try:
        loads_within(body, COURSE_FILE_NESTING, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        offset = min(error.pos + shift, len(text))
        span = (offset, min(offset + 1, len(text)), *line_column(text, offset))
        problem = ConfigProblem.of("structure.invalid-json", {"reason": error.msg}, span)
        return layout._replace(problems=(problem,))
    except (ValueError, RecursionError) as error:
        span = (0, min(1, len(text)), 0, 0)
        problem = ConfigProblem.of("structure.invalid-json", {"reason": str(error)}, span)
        return layout._replace(problems=(problem,))
    reader = _StructureReader(text, shift, layout.root)
    reader.read(json_spans(body))
    if not reader.chapters and not reader.problems:
        return layout  # no chapters: the tool's `build` takes lessons/lesson-*.md
    return layout._replace(
        chapters=tuple(reader.chapters),
        lessons=tuple(reader.lessons),
        problems=tuple(reader.problems),
        from_structure=True,
    )


class _StructureReader:
    """`structure.json` read as the tool reads it, each shape problem at its place."""

    def __init__(self, text: str, shift: int, root: str) -> None:
        self.text = text
        self.shift = shift
        self.lessons_dir = os.path.join(root, LESSONS)
        self.chapters: list[str] = []
        self.lessons: list[StructureLesson] = []
        self.problems: list[ConfigProblem] = []

    def span(self, at: Spanned) -> tuple[int, int, int, int]:
        return self.place(at.start, at.end)

    def place(self, start: int, end: int) -> tuple[int, int, int, int]:
        start, end = start + self.shift, end + self.shift
        return (start, end, *line_column(self.text, start))

    def problem(self, message_id: str, start: int, end: int, **args: str) -> None:
        self.problems.append(ConfigProblem.of(message_id, args, self.place(start, end)))

    def shape(self, at: Spanned, what: str, expected: str) -> None:
        self.problem("structure.shape", at.start, at.end, what=what, expected=expected)

    def read(self, top: Spanned) -> None:
        if not isinstance(top.value, dict):
            self.shape(top, "The file", "an object with `chapters`")
            return
        chapters = top.member("chapters")
        if chapters is None:
            return
        if not isinstance(chapters.value, list):
            self.shape(chapters, "`chapters`", "a list of chapters")
            return
        for number, chapter in enumerate(chapters.items, start=1):
            self.chapter(number, chapter)

    def chapter(self, number: int, chapter: Spanned) -> None:
        if not isinstance(chapter.value, dict):
            self.shape(chapter, f"Chapter {number}", "an object with `title` and `lessons`")
            return
        title_at = chapter.member("title")
        title = title_at.value if title_at is not None else None
        if not isinstance(title, str):
            self.shape(title_at or chapter, f"Chapter {number}'s `title`", "text")
            title = ""
        self.chapters.append(title)
        lessons = chapter.member("lessons")
        if lessons is None:
            return
        if not isinstance(lessons.value, list):
            self.shape(lessons, f"Chapter {number}'s `lessons`", "a list of lessons")
            return
        for lesson in lessons.items:
            self.lesson(title, lesson)

    def lesson(self, chapter: str, lesson: Spanned) -> None:
        if not isinstance(lesson.value, dict):
            self.shape(lesson, "A lesson", "an object with `file` and `title`")
            return
        file_at = lesson.member("file")
        if file_at is None or not isinstance(file_at.value, str):
            self.shape(file_at or lesson, "A lesson's `file`", "a file name in lessons/")
            return
        file = file_at.value
        title = lesson.value.get("title")
        hidden = lesson.value.get("hidden")
        access = lesson.value.get("access")
        path = self.inside_lessons(file)
        if path is None:
            self.problem("structure.outside", file_at.start, file_at.end, file=file)
        self.lessons.append(
            StructureLesson(
                file,
                path,
                chapter,
                title if isinstance(title, str) else "",
                hidden if isinstance(hidden, bool) else None,
                access if isinstance(access, str) else None,
                self.span(file_at),
            )
        )

    def inside_lessons(self, file: str) -> str | None:
        return lesson_path(self.lessons_dir, file)


def lesson_path(lessons_dir: str, file: str) -> str | None:
    """The path of `file` (as structure.json names it) in `lessons_dir`, or None when it
    names no file there (absolute, leaving it, empty, a null byte)."""
    if not file or "\0" in file or posixpath.isabs(file) or os.path.isabs(file):
        return None
    normal = posixpath.normpath(file.replace("\\", "/") if os.sep == "\\" else file)
    if normal in (".", "..") or normal.startswith("../"):
        return None
    return os.path.join(lessons_dir, *normal.split("/"))


# -- the members ----------------------------------------------------------------------


def resolve(
    config: CourseConfig, paths: Iterable[str]
) -> tuple[CourseConfig, dict[str, tuple[str, DocKind, int]]]:
    """The members of the course folder (`config.layout`), among the listed `paths`, in
    course order (the course prompt first), and the layout with each listed file looked
    for: a missing one, or one listed twice, is a problem at its place."""
    layout = config.layout
    assert layout is not None
    listed = {os.path.normcase(p): p for p in paths}
    members: dict[str, tuple[str, DocKind, int]] = {}
    prompt = listed.get(os.path.normcase(os.path.join(layout.root, COURSE_PROMPT)))
    if prompt is not None and COURSE_PROMPT in config.references:
        members[path_to_uri(prompt)] = (prompt, "reference", 0)
    if not layout.from_structure:
        lessons = _numbered_lessons(layout.root, listed.values())
        layout = layout._replace(lessons=lessons)
    problems = list(layout.problems)
    seen: set[str] = set()
    checked: list[StructureLesson] = []
    for lesson in layout.lessons:
        if lesson.path is None:
            checked.append(lesson._replace(found=False))
            continue
        path = listed.get(os.path.normcase(lesson.path))
        if path is None:
            checked.append(lesson._replace(found=False))
            _problem_at(problems, "structure.missing-file", lesson)
            continue
        uri = path_to_uri(path)
        if uri in seen or uri in members:
            _problem_at(problems, "structure.duplicate", lesson)
            continue
        seen.add(uri)
        members[uri] = (path, "lesson", len(members))
        checked.append(lesson)
    problems.sort(key=lambda p: p.start)
    synced = tuple(
        s._replace(found=os.path.normcase(os.path.join(layout.root, *s.file.split("/"))) in listed)
        for s in layout.synced
    )
    layout = layout._replace(lessons=tuple(checked), problems=tuple(problems), synced=synced)
    return config._replace(layout=layout), members


def _problem_at(problems: list[ConfigProblem], message_id: str, lesson: StructureLesson) -> None:
    problems.append(ConfigProblem.of(message_id, {"file": lesson.file}, lesson.span))


def _numbered_lessons(root: str, paths: Iterable[str]) -> tuple[StructureLesson, ...]:
    """`lessons/lesson-*.md` in number order (the number in the name, then the name)."""
    folder = os.path.join(root, LESSONS)
    found = []
    for path in paths:
        directory, name = os.path.split(path)
        match = _LESSON_NAME.match(name)
        if directory == folder and match is not None:
            digits = _DIGITS.search(match.group(1))
            found.append((int(digits.group()) if digits else sys.maxsize, name, path))
    found.sort()
    return tuple(StructureLesson(name, path) for _, name, path in found)


def prompt_first(
    root: str, members: Mapping[str, tuple[str, DocKind, int]], disk: Disk
) -> Mapping[str, tuple[str, DocKind, int]]:
    """The members of a folder `mfls unpack` made, with its course prompt
    (`prompts/course.md`) first in course order: run before every lesson, as in an
    AI-Shifu course folder."""
    if not disk.is_regular_file(os.path.join(root, *EXPORT_MANIFEST.split("/"))):
        return members
    prompt = path_to_uri(os.path.join(root, *UNPACKED_COURSE_PROMPT.split("/")))
    if prompt not in members:
        return members
    ordered = {prompt: (members[prompt][0], members[prompt][1], 0)}
    for uri, (path, kind, _) in members.items():
        if uri != prompt:
            ordered[uri] = (path, kind, len(ordered))
    return MappingProxyType(ordered)
