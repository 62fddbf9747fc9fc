"""An AI-Shifu export checked as a course, in memory: the folder `layout.unpack` would
write is held by a `MemoryDisk` and indexed by a `Workspace`, so the diagnostics are
exactly those of the unpacked course in the editor (course order = structure order).
A text over the size limit of a file (`mfls.disk.MAX_FILE_BYTES`) is left out, as the
unpacked folder's file would be, and named in `ExportCourse.skipped`."""

from __future__ import annotations

import os
import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mfls.disk import MAX_FILE_BYTES
from mfls.disk.memory import MemoryDisk
from mfls.exports.ai_shifu import Export
from mfls.exports.layout import CourseFolder, Placed, decode_text, unpack
from mfls.features.diagnostics import Diagnostic, config_problem_message, document_diagnostics
from mfls.features.messages import EN
from mfls.workspace.config import ConfigProblem
from mfls.workspace.index import CourseSnapshot, WorkspaceSnapshot
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace

ROOT: Final = os.path.join(os.sep, "ai-shifu-export")
"""Where the in-memory course folder lies (a path of the memory disk only)."""


@dataclass(frozen=True, slots=True)
class ExportDiagnostic:
    """A diagnostic of one text of the export (`placed`), in offsets into `text`."""

    placed: Placed
    text: str
    diagnostic: Diagnostic


@dataclass(frozen=True, slots=True)
class ExportCourse:
    """An export indexed as the course `layout.unpack` makes of it, in memory: the
    snapshot, the unpacked folder, and which text of the export each document holds."""

    snapshot: WorkspaceSnapshot
    folder: CourseFolder
    by_uri: dict[str, Placed]
    skipped: tuple[tuple[Placed, str], ...] = ()  # a text left out, and why

    @property
    def course(self) -> CourseSnapshot | None:
        return self.snapshot.courses.get(ROOT)


def export_course(export: Export, source: bytes, source_name: str) -> ExportCourse:
    """The export's course, indexed in a `MemoryDisk` under `ROOT`."""
    folder = unpack(export, source, source_name)
    too_big = {
        p.path: (p, f"{size} bytes is over the {MAX_FILE_BYTES}-byte limit")
        for p in folder.placed
        if (size := len(folder.files[p.path])) > MAX_FILE_BYTES
    }
    files = {
        os.path.join(ROOT, *path.split("/")): _readable(data)
        for path, data in folder.files.items()
        if path not in too_big
    }
    workspace = Workspace(disk=MemoryDisk(files))
    workspace.set_folders([ROOT])
    workspace.index_all()
    by_uri = {path_to_uri(os.path.join(ROOT, *p.path.split("/"))): p for p in folder.placed}
    return ExportCourse(workspace.snapshot, folder, by_uri, tuple(too_big.values()))


def check_export(
    export: Export, source: bytes, source_name: str, language: str = EN
) -> list[ExportDiagnostic]:
    """Every diagnostic of the export's lessons and prompts, lessons in course order,
    messages in `language`."""
    return check_export_course(export_course(export, source, source_name), language)


def check_export_course(indexed: ExportCourse, language: str = EN) -> list[ExportDiagnostic]:
    """`check_export` of an export already indexed."""
    folder, snapshot, by_uri = indexed.folder, indexed.snapshot, indexed.by_uri
    found: list[ExportDiagnostic] = []
    left_out = {placed.path for placed, _ in indexed.skipped}
    for placed in _ordered(folder.placed):
        if placed.path in left_out:
            continue
        uri = path_to_uri(os.path.join(ROOT, *placed.path.split("/")))
        text = decode_text(folder.files[placed.path]) or ""
        for item in document_diagnostics(snapshot, uri, language):
            found.append(ExportDiagnostic(placed, text, _retitled(item, by_uri)))
    return found


def over_limits(indexed: ExportCourse, source_name: str, language: str = EN) -> list[str]:
    """The limits of mfls the export's course is over (the document count, a lesson's
    size), one message each: the folder named as the export, a lesson by its title."""
    course = indexed.course
    if course is None:
        return []
    limit = {"limit": str(MAX_FILE_BYTES)}
    left_out = [
        ConfigProblem.of("config.file-limit", {"path": placed.path, **limit}, (0, 0, 0, 0))
        for placed, _ in indexed.skipped
    ]
    found: list[str] = []
    for problem in (*course.problems, *left_out):
        if not problem.over_limit:
            continue
        path = dict(problem.args).get("path")
        placed = next((p for p in indexed.folder.placed if p.path == path), None)
        where = source_name if placed is None else f"{source_name}#{placed.title}"
        found.append(f"{where}: {config_problem_message(problem, language)}")
    return found


def _readable(data: bytes) -> bytes:
    """`data` as valid UTF-8: a lone surrogate (which the workspace would not read) as
    U+FFFD, one code point for one, so every offset stays where it was."""
    try:
        data.decode("utf-8")
        return data
    except UnicodeDecodeError:
        text = decode_text(data) or ""
        return "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text).encode()


def _retitled(item: Diagnostic, by_uri: dict[str, Placed]) -> Diagnostic:
    """`item` with each lesson it names by file name (where a related place lies) named
    by its title instead: the export has no files."""
    message = item.message
    for uri, *_ in item.related:
        placed = by_uri.get(uri)
        if placed is not None:
            label = posixpath.basename(placed.path)
            message = message.replace(f"in {label}", f"in “{placed.title}”")
    return item if message == item.message else item._replace(message=message)


def _ordered(placed: Sequence[Placed]) -> list[Placed]:
    """Lessons first (course order), then the prompts."""
    return [p for p in placed if p.lesson] + [p for p in placed if not p.lesson]
