"""The memory picture of one course: every question (key) with the places where it is
asked and read, lesson by lesson in course order, and what is wrong with it.

`course_map(course)` -> `CourseMap`, plain data (`to_json()` is the `mfls map --format
json` contract); the map views (`course_map_html`, `course_map_svg`) and the editors'
course key table are drawn from it. The kinds of places are the verdicts of
`features/facts.py`, the ones the diagnostics give (unbound, near miss, read before
asked, reserved, legacy profile key, binding in a reference), without their severities;
a lesson is named as everywhere else (its file name, or in an export its lesson title),
and the course's figures are `course_figures`.

In the JSON, a place's `kind` is its first verdict and `also` (only when there are some)
lists its further problem kinds (a legacy profile key bound in a reference document is
`legacy-profile`, also `reference-binding`); a key's `problems` count them all. A key's
`askedIn` lists the lessons whose bindings ask it and save the answer (the facts' saving
bindings: not a reserved-key error), never a reference document: those holding a binding
of it are `boundInReferences` (only when there are some), and a key bound only there is
unbound, as its reads' diagnostics say.
Likewise `readLessons` counts lessons only; reference documents reading the key are
`readInReferences` (only when there are some).
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from mfls.features.course_info import CourseFigures, course_figures
from mfls.features.diagnostics import entry_findings
from mfls.features.facts import (
    ASKING,
    KINDS,
    LEGEND,
    PLACE_NEAR_MISS,
    PROBLEM_CODES,
    RANK,
    SAVES_ANSWER,
    facts_of,
)
from mfls.features.messages import EN, counted, say
from mfls.features.refusal import Refusal
from mfls.features.suppressions import may_hold_directives
from mfls.syntax.model import Interaction
from mfls.text.lines import line_breaks, line_start
from mfls.workspace.course_creator import COURSE_PROMPT, LESSONS, UNPACKED_COURSE_PROMPT
from mfls.workspace.index import (
    CourseSnapshot,
    DocEntry,
    Occurrence,
    WorkspaceSnapshot,
    relative_path,
)
from mfls.workspace.uris import path_to_uri, uri_to_path

_PROBLEMS: Final = frozenset(PROBLEM_CODES)
_RANK: Final = {kind: rank for rank, kind in enumerate(RANK)}
SNIPPET_LIMIT: Final = 200
"""Code points of a place's line kept in the map."""

COURSE_GROUP: Final = "course"
SYSTEM_GROUP: Final = "system"


@dataclass(frozen=True, slots=True)
class Lesson:
    """One document of the course (a column of the map), in course order."""

    index: int
    uri: str
    path: str | None
    title: str
    kind: str  # lesson | reference
    group: str  # the folder it lies in (an export: its chapter), "" at the root

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "uri": self.uri,
            "path": self.path,
            "title": self.title,
            "kind": self.kind,
            "group": self.group,
        }


@dataclass(frozen=True, slots=True)
class Place:
    """One marker of a key: where (lesson index, 1-based line, code point column) and
    what it is (`kind`); an asked place carries the interaction's choices."""

    lesson: int
    kind: str
    start: int
    end: int
    line: int
    column: int
    end_line: int
    end_column: int
    text: str  # the line holding the marker, at most SNIPPET_LIMIT code points
    choices: tuple[str, ...] = ()
    input: str | None = None
    multiple: bool = False
    also: tuple[str, ...] = ()
    """The marker's further problem kinds, beyond `kind` (a legacy profile key bound in a
    reference document is a reference binding too): counted in the key's problems."""
    silenced: tuple[str, ...] = ()
    """The problem kinds of the marker (`kind`, `also`) whose diagnostics its document's
    suppression comments silence: the place keeps them (what the key is there), the key's
    problems do not count them."""

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "lesson": self.lesson,
            "kind": self.kind,
            "line": self.line,
            "column": self.column,
            "endLine": self.end_line,
            "endColumn": self.end_column,
            "text": self.text,
        }
        if self.also:
            found["also"] = list(self.also)
        if self.silenced:
            found["silenced"] = list(self.silenced)
        if self.kind in ASKING:
            found["choices"] = list(self.choices)
            found["input"] = self.input
            found["multiple"] = self.multiple
        return found


@dataclass(frozen=True, slots=True)
class KeyProblem:
    """What is wrong with a key as a whole: `code` is the diagnostic code of the places
    of one problem kind (`facts.PROBLEM_CODES`); `suggestion` the key a near miss
    probably means."""

    code: str
    count: int
    suggestion: str | None = None

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"code": self.code, "count": self.count}
        if self.suggestion is not None:
            found["suggestion"] = self.suggestion
        return found


@dataclass(frozen=True, slots=True)
class KeyLane:
    """One question (a lane of the map): its places in course order."""

    key: str
    group: str  # COURSE_GROUP, or SYSTEM_GROUP for the host's keys and reserved ones
    places: tuple[Place, ...]
    suggestion: str | None = None  # a near miss: the key it probably means
    asked_in: tuple[int, ...] = ()
    """The lessons (indices) whose bindings ask the key and save the answer: the facts'
    saving bindings (`CourseFacts.saving_bindings`; a reserved-key error saves nothing). A
    reference document's binding saves nothing (a key bound only there is unbound): it is
    in `bound_in_references`."""
    bound_in_references: tuple[int, ...] = ()
    """The reference documents (indices) holding a binding of the key."""
    read_lessons: int = 0
    """How many lessons read the key (reference documents are `read_in_references`)."""
    read_in_references: tuple[int, ...] = ()
    """The reference documents (indices) reading the key."""

    @property
    def asked(self) -> tuple[Place, ...]:
        """The bindings of the key, wherever they are (reference bindings too)."""
        return tuple(p for p in self.places if p.kind in ASKING)

    @property
    def reads(self) -> tuple[Place, ...]:
        return tuple(p for p in self.places if p.kind not in ASKING)

    @property
    def problems(self) -> tuple[KeyProblem, ...]:
        counts: dict[str, int] = {}
        for place in self.places:
            for kind in (place.kind, *place.also):
                if kind in _PROBLEMS and kind not in place.silenced:
                    counts[kind] = counts.get(kind, 0) + 1
        return tuple(
            KeyProblem(
                PROBLEM_CODES[kind],
                counts[kind],
                self.suggestion if kind == PLACE_NEAR_MISS else None,
            )
            for kind in sorted(counts, key=_RANK.__getitem__)
        )

    def to_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "key": self.key,
            "group": self.group,
            "askedIn": list(self.asked_in),
            "reads": len(self.reads),
            "readLessons": self.read_lessons,
            "problems": [p.to_json() for p in self.problems],
            "places": [p.to_json() for p in self.places],
        }
        if self.bound_in_references:
            found["boundInReferences"] = list(self.bound_in_references)
        if self.read_in_references:
            found["readInReferences"] = list(self.read_in_references)
        return found


@dataclass(frozen=True)
class CourseMap:
    name: str
    root: str | None
    host: str
    lessons: tuple[Lesson, ...]
    keys: tuple[KeyLane, ...]
    figures: CourseFigures
    legend: Mapping[str, str] = field(default_factory=lambda: dict(LEGEND))
    lesson_ids: tuple[str, ...] = ()  # by lesson: `lesson_id` (features/variable_table.py)

    def to_json(self) -> dict[str, Any]:
        return {
            "course": {"name": self.name, "root": self.root, "host": self.host},
            "figures": self.figures.to_json(),
            "legend": [{"kind": kind, "meaning": self.legend[kind]} for kind in KINDS],
            "lessons": [lesson.to_json() for lesson in self.lessons],
            "keys": [lane.to_json() for lane in self.keys],
        }


def course_map(
    course: CourseSnapshot,
    titles: Mapping[str, str] | None = None,
    groups: Mapping[str, str] | None = None,
) -> CourseMap:
    """The map of `course`. `titles`/`groups` (uri -> text) name the lessons where the
    files do not (an export's lesson titles and chapters); otherwise a lesson's title is
    its file name (`DocEntry.label`, as in every message), and its group the folder it
    lies in."""
    entries = sorted(course.docs.values(), key=lambda e: (e.order, e.uri))
    if titles is None and groups is None:
        titles, groups = _folder_names(course)
    lessons: list[Lesson] = []
    column: dict[str, int] = {}
    for index, entry in enumerate(entries):
        column[entry.uri] = index
        title = (titles or {}).get(entry.uri) or entry.label
        group = (groups or {}).get(entry.uri)
        if group is None:
            group = _group(course, entry)
        lessons.append(Lesson(index, entry.uri, entry.path, title, entry.kind, group))
    places: dict[str, list[Place]] = {}
    first_seen: dict[str, tuple[int, int]] = {}
    facts = facts_of(course)
    for entry in entries:
        index = column[entry.uri]
        marks = facts.verdicts(entry)
        if not marks:
            continue
        interactions = _interactions_by_binding(entry.interactions)
        text = entry.text
        silenced = _silenced(course, entry)
        line, at = 1, 0
        for marker, kinds in marks:
            start, end = marker.start, marker.end
            kind, also = kinds[0], kinds[1:]
            quiet = (
                tuple(k for k in kinds if (PROBLEM_CODES.get(k), start, end) in silenced)
                if silenced
                else ()
            )
            line += line_breaks(text, at, start)
            at = start
            begins = line_start(text, start)
            one_line = text.find("\n", start, end) < 0 and text.find("\r", start, end) < 0
            breaks = 0 if one_line else line_breaks(text, start, end)
            end_column = end - (line_start(text, end) if breaks else begins) + 1
            interaction = interactions.get(start) if kind in ASKING else None
            place = Place(
                index,
                kind,
                start,
                end,
                line,
                start - begins + 1,
                line + breaks,
                end_column,
                _snippet(text, begins, start),
                () if interaction is None else tuple(c.label for c in interaction.choices),
                None if interaction is None else interaction.input,
                interaction is not None and interaction.multiple,
                also,
                quiet,
            )
            found = places.get(marker.key)
            if found is None:
                places[marker.key] = [place]
                first_seen[marker.key] = (index, start)
            else:
                found.append(place)
    lanes = [
        KeyLane(
            key,
            SYSTEM_GROUP if facts.reserved(key) else COURSE_GROUP,
            tuple(found),  # documents in course order, markers in text order
            facts.suggestion(key) if any(p.kind == PLACE_NEAR_MISS for p in found) else None,
            _indices(column, facts.saving_bindings(key)),
            _indices(column, facts.bindings_in_references(key)),
            *_reading(lessons, found),
        )
        for key, found in places.items()
    ]
    lanes.sort(key=lambda lane: (lane.group == SYSTEM_GROUP, first_seen[lane.key], lane.key))
    figures = course_figures(course)
    ids = tuple(lesson_id(course, entry) for entry in entries)
    return CourseMap(
        course.name,
        course.root,
        course.host.name,
        tuple(lessons),
        tuple(lanes),
        figures,
        lesson_ids=ids,
    )


def _reading(lessons: list[Lesson], places: Iterable[Place]) -> tuple[int, tuple[int, ...]]:
    """How many lessons read a key at `places`, and the reference documents reading it."""
    reading = {p.lesson for p in places if p.kind not in ASKING}
    references = tuple(sorted(i for i in reading if lessons[i].kind != "lesson"))
    return len(reading) - len(references), references


def _indices(column: Mapping[str, int], occurrences: Iterable[Occurrence]) -> tuple[int, ...]:
    """The lesson indices of the documents holding `occurrences`, ascending."""
    return tuple(sorted({column[o.uri] for o in occurrences}))


COURSE_PROMPT_ID: Final = "course_prompt"
"""The course tool's reserved `lesson_id` of the course prompt."""


def lesson_id(course: CourseSnapshot, entry: DocEntry) -> str:
    """How the course tool would name a document of the course: `course_prompt` for the
    course prompt (`course-prompt.md` of an AI-Shifu course folder, `prompts/course.md`
    of an export), else its path from the course root without `.md`, a course folder's
    `lessons/` and an export's `prompts/` (a lesson's own prompt) left out."""
    path = entry.path if entry.path is not None else uri_to_path(entry.uri)
    if path is None or course.root is None:
        return entry.label
    name = relative_path(path, course.root)
    creator = course.config.layout is not None
    reference = entry.kind == "reference"
    if reference and name == (COURSE_PROMPT if creator else UNPACKED_COURSE_PROMPT):
        return COURSE_PROMPT_ID
    if creator and name.startswith(f"{LESSONS}/"):
        name = name[len(LESSONS) + 1 :]
    elif reference and name.startswith(_PROMPTS):
        name = name[len(_PROMPTS) :]
    return name[:-3] if name.lower().endswith(".md") else name


_PROMPTS: Final = UNPACKED_COURSE_PROMPT.split("/")[0] + "/"


def _silenced(course: CourseSnapshot, entry: DocEntry) -> frozenset[tuple[str, int, int]]:
    """The problems of `entry` its suppression comments silence (code and span): their
    places keep their kinds, marked silenced (`Place.silenced`), and are not counted as
    problems, as the course's figures count them."""
    if not may_hold_directives(entry.text):
        return frozenset()
    return frozenset((d.code, d.start, d.end) for d in entry_findings(course, entry).suppressed)


def _interactions_by_binding(interactions: Iterable[Interaction]) -> dict[int, Interaction]:
    return {i.binding_marker.start: i for i in interactions if i.binding_marker is not None}


def _snippet(text: str, start: int, offset: int) -> str:
    """The line starting at `start` that holds `offset`, cut to SNIPPET_LIMIT around it."""
    newline = text.find("\n", start, start + 4 * SNIPPET_LIMIT)
    end = newline if newline >= 0 else min(len(text), start + 4 * SNIPPET_LIMIT)
    ret = text.find("\r", start, end)
    if ret >= 0:
        end = ret
    line = text[start:end]
    if len(line) <= SNIPPET_LIMIT:
        return line
    cut = max(0, min(offset - start - SNIPPET_LIMIT // 4, len(line) - SNIPPET_LIMIT))
    return line[cut : cut + SNIPPET_LIMIT]


def lesson_titles(course: CourseSnapshot) -> dict[str, str]:
    """URI -> the title the map gives a lesson that `structure.json` names (an AI-Shifu
    course folder); every other document is named by its file name (`DocEntry.label`)."""
    return _folder_names(course)[0]


def _folder_names(course: CourseSnapshot) -> tuple[dict[str, str], dict[str, str]]:
    """The lessons of an AI-Shifu course folder by file name, with the title its
    `structure.json` gives them beside it (and their `hidden` and `access` flags, when
    set), grouped by chapter."""
    layout = course.config.layout
    titles: dict[str, str] = {}
    groups: dict[str, str] = {}
    if layout is None:
        return titles, groups
    for lesson in layout.lessons:
        if not lesson.found or lesson.path is None:
            continue
        uri = path_to_uri(lesson.path)
        flags = (["hidden"] if lesson.hidden else []) + (
            [lesson.access] if lesson.access not in (None, "guest") else []
        )
        name = os.path.basename(lesson.path)
        title = f"{name} · {lesson.title}" if lesson.title else name
        titles[uri] = f"{title} ({', '.join(flags)})" if flags else title
        groups[uri] = lesson.chapter
    return titles, groups


def _group(course: CourseSnapshot, entry: DocEntry) -> str:
    path = entry.path if entry.path is not None else uri_to_path(entry.uri)
    if path is None:
        return ""
    if course.root is not None:
        folder = posixpath.dirname(relative_path(path, course.root))
        return "" if folder.startswith("..") else folder
    return os.path.basename(os.path.dirname(path))


# -- the course key table ---------------------------------------------------------------


def _saving(lane: KeyLane) -> list[Place]:
    """The places of the lane's bindings that save the answer (in its `asked_in`)."""
    return [p for p in lane.asked if p.kind in SAVES_ANSWER and p.lesson in lane.asked_in]


def key_table(course_map_: CourseMap) -> list[dict[str, Any]]:
    """One row per key, in course order: where it is asked (lesson titles and lines), how
    often and in how many lessons it is read, and its problems. Plain data: the answer of
    the editors' course key command."""
    lessons = course_map_.lessons
    rows: list[dict[str, Any]] = []
    for lane in course_map_.keys:
        asked = _saving(lane)
        rows.append(
            {
                "key": lane.key,
                "group": lane.group,
                "asked": [
                    {
                        "lesson": lessons[p.lesson].title,
                        "uri": lessons[p.lesson].uri,
                        "line": p.line,
                        "column": p.column,
                        "choices": list(p.choices),
                        "input": p.input,
                    }
                    for p in asked
                ],
                "reads": len(lane.reads),
                "readLessons": lane.read_lessons,
                "problems": [p.to_json() for p in lane.problems],
            }
        )
        if lane.read_in_references:
            rows[-1]["readInReferences"] = [lessons[i].title for i in lane.read_in_references]
    return rows


def map_of_document(
    snapshot: WorkspaceSnapshot, uri: str, language: str = EN
) -> CourseMap | Refusal:
    """The map of the course the document at `uri` belongs to (a lesson, a reference or
    its `mfcourse.toml`), or a `Refusal` in `language`."""
    course = snapshot.course_for(uri)
    if course is None:
        path = uri_to_path(uri)
        for candidate in snapshot.courses.values():
            if path is not None and candidate.config_path == path:
                course = candidate
                break
    if course is None:
        return Refusal(say(language, "map.not-in-course"))
    return course_map(course)


def _cell(text: str) -> str:
    """`text` as the content of a Markdown table cell, shown as written."""
    flat = " ".join(text.split())
    escaped = "".join("\\" + ch if ch in "\\`*_[]<>|#!~&" else ch for ch in flat)
    return escaped or " "


def key_table_markdown(course_map_: CourseMap, language: str = EN) -> str:
    """The course key table as Markdown: one row per key in course order, its headings
    and cells worded in `language`."""
    lessons = course_map_.lessons
    lines = [
        say(language, "map.table.title", course=_cell(course_map_.name)),
        "",
        f"{course_map_.figures.sentence()}.",
        "",
        say(language, "map.table.header"),
        "|---|---|---|---|",
    ]
    for lane in course_map_.keys:
        asked = ", ".join(
            say(language, "map.table.line", lesson=_cell(lessons[p.lesson].title), line=p.line)
            for p in _saving(lane)
        )
        problems = ", ".join(
            p.code
            + (f" ×{p.count}" if p.count > 1 else "")
            + (
                say(language, "map.table.did-you-mean", key=_cell(p.suggestion))
                if p.suggestion
                else ""
            )
            for p in lane.problems
        )
        reads = say(
            language,
            "map.table.reads",
            reads=len(lane.reads),
            lessons=counted(language, "map.table.lessons", lane.read_lessons),
        )
        if lane.read_in_references:
            reads += counted(language, "map.table.references", len(lane.read_in_references))
        system = say(language, "map.table.host") if lane.group == SYSTEM_GROUP else ""
        lines.append(
            f"| {_cell(lane.key)}{system} | {asked or '—'} | {reads} | {problems or '—'} |"
        )
    return "\n".join(lines) + "\n"
