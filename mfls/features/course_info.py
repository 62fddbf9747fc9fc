"""A course in figures, for a status line, the key table and the map: its name, members,
questions and problems, counted once here so that every view says the same."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mfls.features.diagnostics import course_config_diagnostics, entry_diagnostics
from mfls.features.facts import facts_of
from mfls.features.refusal import Refusal
from mfls.features.sync_status import SyncStatus, sync_status
from mfls.workspace.catalog import EN, say
from mfls.workspace.index import CourseSnapshot, Memo, WorkspaceSnapshot
from mfls.workspace.uris import uri_to_path


def _count(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


@dataclass(frozen=True, slots=True)
class CourseFigures:
    """The course's counts in the one vocabulary of every view: lessons, reference
    documents, questions (the keys the course asks or reads: the map's lanes, the key
    table's rows) and problems (its diagnostics but hints, which editors list nowhere)."""

    lessons: int
    references: int
    questions: int
    errors: int
    warnings: int
    information: int

    @property
    def problems(self) -> int:
        return self.errors + self.warnings + self.information

    def sentence(self) -> str:
        """`3 lessons · 1 reference document · 5 questions · 3 problems`."""
        return " · ".join(
            (
                _count(self.lessons, "lesson"),
                _count(self.references, "reference document"),
                _count(self.questions, "question"),
                _count(self.problems, "problem"),
            )
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "lessons": self.lessons,
            "references": self.references,
            "questions": self.questions,
            "problems": self.problems,
            "errors": self.errors,
            "warnings": self.warnings,
            "information": self.information,
            "summary": self.sentence(),
        }


_FIGURES = Memo("course figures")


def course_figures(course: CourseSnapshot) -> CourseFigures:
    """The figures of `course` (its problems as the Problems panel counts them), counted
    once per snapshot: the status item, the key table and the map ask the same one."""
    return course.cache.get(_FIGURES, lambda previous, changed: _count_figures(course))


def _count_figures(course: CourseSnapshot) -> CourseFigures:
    counts = {"error": 0, "warning": 0, "information": 0, "hint": 0}
    for entry in course.docs.values():
        for item in entry_diagnostics(course, entry):
            counts[item.severity] += 1
    for item in course_config_diagnostics(course):
        counts[item.severity] += 1
    kinds = [entry.kind for entry in course.docs.values()]
    return CourseFigures(
        lessons=kinds.count("lesson"),
        references=kinds.count("reference"),
        questions=sum(1 for _ in facts_of(course).questions()),
        errors=counts["error"],
        warnings=counts["warning"],
        information=counts["information"],
    )


@dataclass(frozen=True)
class CourseInfo:
    name: str
    root: str | None  # None: a document outside every workspace folder
    course_file: str | None  # where its mfcourse.toml is or would be
    figures: CourseFigures
    # An AI-Shifu course folder with `.shifu-sync.json`: its lessons against that record.
    sync: SyncStatus | None = None

    @property
    def lessons(self) -> int:
        return self.figures.lessons

    @property
    def references(self) -> int:
        return self.figures.references

    @property
    def questions(self) -> int:
        return self.figures.questions

    @property
    def errors(self) -> int:
        return self.figures.errors

    @property
    def warnings(self) -> int:
        return self.figures.warnings

    @property
    def information(self) -> int:
        return self.figures.information

    @property
    def problems(self) -> int:
        return self.figures.problems


def course_info(snapshot: WorkspaceSnapshot, uri: str, language: str = EN) -> CourseInfo | Refusal:
    """The course `uri` belongs to (a lesson, a reference or its course file); a refusal
    worded in `language`."""
    course = snapshot.course_for(uri)
    if course is None:
        path = uri_to_path(uri)
        course = next((c for c in snapshot.courses.values() if c.config_path == path), None)
    if course is None:
        return Refusal(say(language, "course-info.no-course"))
    return CourseInfo(
        course.name, course.root, course.config_path, course_figures(course), sync_status(course)
    )
