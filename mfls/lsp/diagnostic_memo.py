"""The diagnostics of a document as the JSON texts the server sends, made once per
workspace snapshot and language (a workspace pull asks for every document every few
seconds, and a push round for every open one), and which documents a report covers."""

from __future__ import annotations

from collections.abc import Iterable

from mfls.features import diagnostics
from mfls.lsp.diagnostic_writer import DiagnosticWriter
from mfls.lsp.documents import Texts, is_course_file
from mfls.lsp.positions import Converter
from mfls.lsp.to_proto import course_file_uri
from mfls.text.line_index import LineIndex
from mfls.workspace.index import CourseSnapshot, WorkspaceSnapshot
from mfls.workspace.uris import path_to_uri


def structure_uri(course: CourseSnapshot) -> tuple[str, bool] | None:
    """The URI of the `structure.json` of an AI-Shifu course folder, and whether it has
    problems."""
    layout = course.config.layout
    if layout is None or layout.structure is None:
        return None
    return path_to_uri(layout.structure), bool(layout.problems)


def reported_documents(
    workspace: WorkspaceSnapshot, course_ids: Iterable[str] | None = None
) -> list[str]:
    """Every lesson and reference of the courses (all when None), in course order, then
    each course file that has problems."""
    courses = workspace.courses
    chosen = sorted(courses if course_ids is None else set(course_ids) & set(courses))
    uris: list[str] = []
    files: list[str] = []
    for course_id in chosen:
        course = courses[course_id]
        uris.extend(sorted(course.docs, key=lambda uri: course.docs[uri].order))
        file = course_file_uri(course)
        if file is not None and course.problems:
            files.append(file)
        structure = structure_uri(course)
        if structure is not None and structure[1]:
            files.append(structure[0])
    return uris + files


class DiagnosticMemo:
    """Diagnostics as JSON texts by URI, for one workspace snapshot and language at a
    time; the writer's own memo (`DiagnosticWriter`) lives as long as this.

    A course file's diagnostics are placed in its text as the workspace snapshot keeps
    it (`CourseConfig.text`, `CourseLayout.structure_text`): no file is read."""

    def __init__(self) -> None:
        self._made: tuple[WorkspaceSnapshot | None, str | None, dict[str, list[str]]]
        self._made = (None, None, {})
        self._writer: DiagnosticWriter | None = None

    def of(
        self,
        workspace: WorkspaceSnapshot,
        language: str,
        texts: Texts,
        convert: Converter,
        uri: str,
    ) -> list[str]:
        """The diagnostics of canonical `uri`, its positions converted by `convert`."""
        if self._made[0] is not workspace or self._made[1] != language:
            self._made = (workspace, language, {})
        made = self._made[2]
        found = made.get(uri)
        if found is None:
            if is_course_file(uri):
                found = self._course_file(workspace, language, convert, uri)
            else:
                items = diagnostics.document_diagnostics(workspace, uri, language)
                found = self._written(items, texts.index(uri) if items else None, convert)
            made[uri] = found
        return found

    def _writer_for(self, convert: Converter) -> DiagnosticWriter:
        writer = self._writer
        if writer is None or writer.convert.encoding != convert.encoding:
            writer = self._writer = DiagnosticWriter(convert)
        return writer

    def _course_file(
        self, workspace: WorkspaceSnapshot, language: str, convert: Converter, uri: str
    ) -> list[str]:
        structure_course = diagnostics.course_of_structure_file(workspace, uri)
        if structure_course is not None:
            items = diagnostics.structure_file_diagnostics(workspace, structure_course, language)
            layout = workspace.courses[structure_course].config.layout
            text = layout.structure_text if layout is not None else None
            return self._placed(items, text, convert)
        for course in workspace.courses.values():
            if course_file_uri(course) == uri:
                items = diagnostics.course_file_diagnostics(workspace, course.id, language)
                return self._placed(items, course.config.text, convert)
        return []

    def _placed(
        self, items: list[diagnostics.Diagnostic], text: str | None, convert: Converter
    ) -> list[str]:
        """`items` placed in a course file's `text` ("" when it could not be read)."""
        return self._written(items, LineIndex(text or "") if items else None, convert)

    def _written(
        self, items: list[diagnostics.Diagnostic], index: LineIndex | None, convert: Converter
    ) -> list[str]:
        if not items or index is None:
            return []
        return self._writer_for(convert).texts(index, items, convert)
