"""A course in figures, for a status line: its name, members, keys and problems."""

from __future__ import annotations

from dataclasses import dataclass

from mfls.features.diagnostics import course_file_diagnostics, document_diagnostics
from mfls.features.refusal import Refusal
from mfls.features.sync_status import SyncStatus, sync_status
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.uris import uri_to_path


@dataclass(frozen=True)
class CourseInfo:
    name: str
    root: str | None  # None: a document outside every workspace folder
    course_file: str | None  # where its mfcourse.toml is or would be
    lessons: int
    references: int
    keys: int  # the keys some lesson binds
    errors: int
    warnings: int
    information: int  # hints are not counted: editors list them nowhere
    # An AI-Shifu course folder with `.shifu-sync.json`: its lessons against that record.
    sync: SyncStatus | None = None

    @property
    def problems(self) -> int:
        return self.errors + self.warnings + self.information


def course_info(snapshot: WorkspaceSnapshot, uri: str) -> CourseInfo | Refusal:
    """The course `uri` belongs to (a lesson, a reference or its course file)."""
    course = snapshot.course_for(uri)
    if course is None:
        path = uri_to_path(uri)
        course = next((c for c in snapshot.courses.values() if c.config_path == path), None)
    if course is None:
        return Refusal("This file belongs to no MarkdownFlow course.")
    counts = {"error": 0, "warning": 0, "information": 0, "hint": 0}
    for member in course.docs:
        for item in document_diagnostics(snapshot, member):
            counts[item.severity] += 1
    for item in course_file_diagnostics(snapshot, course.id):
        counts[item.severity] += 1
    kinds = [entry.kind for entry in course.docs.values()]
    return CourseInfo(
        name=course.name,
        root=course.root,
        course_file=course.config_path,
        lessons=kinds.count("lesson"),
        references=kinds.count("reference"),
        keys=sum(1 for _ in course.lesson_bound_keys()),
        errors=counts["error"],
        warnings=counts["warning"],
        information=counts["information"],
        sync=sync_status(course),
    )
