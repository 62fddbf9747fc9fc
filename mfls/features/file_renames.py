"""Lesson files renamed or moved in the editor (`workspace/willRenameFiles`): the edits
that keep a course naming the same lessons, in the `structure.json` of an AI-Shifu
course folder and in an `mfcourse.toml` that lists lessons by name (as `mfls unpack`
writes it). Pure: the caller hands in the texts of those files.
"""

from __future__ import annotations

import json
import os
import posixpath
from collections.abc import Iterator, Sequence

from mfls.text.json_nesting import COURSE_FILE_NESTING, loads_within
from mfls.workspace.course_creator import LESSONS, lesson_path
from mfls.workspace.json_spans import Spanned, json_spans

Rename = tuple[str, str]  # old path, new path (absolute)
TextEdit = tuple[int, int, str]  # start, end (code points), new text


def _moved(path: str, renames: Sequence[Rename]) -> str | None:
    """Where `path` lies after `renames` (a file renamed, or a folder holding it), or
    None when they leave it where it is."""
    for old, new in renames:
        if path == old:
            return new
        prefix = old.rstrip(os.sep) + os.sep
        if path.startswith(prefix):
            return new.rstrip(os.sep) + os.sep + path[len(prefix) :]
    return None


def _file_values(top: Spanned) -> Iterator[Spanned]:
    """The `chapters[].lessons[].file` strings of structure.json."""
    chapters = top.member("chapters") if isinstance(top.value, dict) else None
    for chapter in chapters.items if chapters is not None else ():
        lessons = chapter.member("lessons") if isinstance(chapter.value, dict) else None
        for lesson in lessons.items if lessons is not None else ():
            found = lesson.member("file") if isinstance(lesson.value, dict) else None
            if found is not None and isinstance(found.value, str):
                yield found


def structure_edits(root: str, text: str, renames: Sequence[Rename]) -> list[TextEdit]:
    """The edits of `structure.json` (text `text`, of the course folder at `root`) that
    keep each lesson it lists that `renames` move inside `lessons/` listed; a lesson moved
    out of `lessons/` is left for the missing-file diagnostic (the tool reads only there)."""
    body = text.removeprefix("\ufeff")
    shift = len(text) - len(body)
    try:
        loads_within(body, COURSE_FILE_NESTING)
        top = json_spans(body)
    except (ValueError, RecursionError):
        return []
    lessons_dir = os.path.join(root, LESSONS)
    edits: list[TextEdit] = []
    for value in _file_values(top):
        path = lesson_path(lessons_dir, value.value)
        moved = _moved(path, renames) if path is not None else None
        if moved is None or not moved.startswith(lessons_dir + os.sep):
            continue
        name = posixpath.join(*os.path.relpath(moved, lessons_dir).split(os.sep))
        edits.append((value.start + shift, value.end + shift, json.dumps(name, ensure_ascii=False)))
    return edits


def _lessons_strings(text: str) -> Iterator[tuple[int, int, str]]:
    """The strings of the top-level `lessons = [...]` array of a course file: their spans
    and values (basic and literal strings; comments skipped)."""
    at = 0
    for line in text.splitlines(keepends=True):
        stripped = line.lstrip()
        if stripped.startswith("[") and not stripped.startswith("[["):
            return  # a table: the top level is over
        if stripped.startswith("lessons") and stripped[len("lessons") :].lstrip().startswith("="):
            at += line.index("[") if "[" in line else len(line)
            break
        at += len(line)
    else:
        return
    if at >= len(text) or text[at] != "[":
        return
    at += 1
    while at < len(text):
        char = text[at]
        if char == "]":
            return
        if char == "#":
            end = text.find("\n", at)
            at = len(text) if end == -1 else end
        elif char == '"':
            try:
                value, end = json.JSONDecoder().raw_decode(text, at)
            except ValueError:
                return
            yield at, end, value
            at = end
        elif char == "'":
            end = text.find("'", at + 1)
            if end == -1:
                return
            yield at, end + 1, text[at + 1 : end]
            at = end + 1
        else:
            at += 1


def course_file_edits(root: str, text: str, renames: Sequence[Rename]) -> list[TextEdit]:
    """The edits of an `mfcourse.toml` (text `text`, at `root`) whose `lessons` list names
    a file that `renames` move (a name, not a glob: one holding glob characters is left)."""
    edits: list[TextEdit] = []
    for start, end, value in _lessons_strings(text):
        if any(char in value for char in "*?[]{}"):
            continue
        path = os.path.join(root, *value.removeprefix("./").split("/"))
        moved = _moved(path, renames)
        if moved is None or not moved.startswith(root.rstrip(os.sep) + os.sep):
            continue
        name = posixpath.join(*os.path.relpath(moved, root).split(os.sep))
        edits.append((start, end, _toml_string(name)))
    return edits


def _toml_string(text: str) -> str:
    """A TOML basic string (JSON's escapes, and DEL escaped as TOML requires)."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
