"""The problems of a course's own files, as `Finding`s at their place in that file's
text: its `mfcourse.toml` (and the limits of the course reported there) and the
`structure.json` of an AI-Shifu course folder, each `course-file-invalid`."""

from __future__ import annotations

import os

from mfls.features.finding import Finding, said
from mfls.workspace.config import COURSE_FILE, ConfigProblem
from mfls.workspace.diagnostic_registry import COURSE_FILE_INVALID
from mfls.workspace.index import CourseSnapshot, WorkspaceSnapshot
from mfls.workspace.uris import uri_to_path


def course_of_course_file(snapshot: WorkspaceSnapshot, uri: str) -> str | None:
    """The course whose `mfcourse.toml` `uri` names."""
    path = uri_to_path(uri)
    if path is None or os.path.basename(path) != COURSE_FILE:
        return None
    for course in snapshot.courses.values():
        if course.config_path == path:
            return course.id
    return None


def course_of_structure_file(snapshot: WorkspaceSnapshot, uri: str) -> str | None:
    """The course whose `structure.json` (an AI-Shifu course folder's) `uri` names."""
    path = uri_to_path(uri)
    if path is None:
        return None
    for course in snapshot.courses.values():
        layout = course.config.layout
        if layout is not None and layout.structure == path:
            return course.id
    return None


def config_findings(course: CourseSnapshot) -> list[Finding]:
    """The problems of `course`'s course file: errors where the file (or the course, over
    a limit) is ignored, else warnings."""
    return [
        _finding(problem, "error" if problem.fatal or problem.over_limit else "warning")
        for problem in course.problems
    ]


def structure_findings(course: CourseSnapshot) -> list[Finding]:
    """The problems of the `structure.json` of an AI-Shifu course folder, each an error."""
    layout = course.config.layout
    return [] if layout is None else [_finding(p, "error") for p in layout.problems]


def _finding(problem: ConfigProblem, severity: str) -> Finding:
    words = said(problem.id, **dict(problem.args))  # as `ConfigProblem.of` words it
    return Finding(COURSE_FILE_INVALID, problem.start, problem.end, words, (), (), severity)
