"""Inlay hints: after a read of a key, where the course first asks it (the lesson as the
course map names it) and, for a choice, its options; after a binding, how many lessons
read the answer. What a key is comes from the facts (`features/facts.py`); the counts
are the code lenses' (`code_lens.reads_of`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

from mfls.features.at_offset import interaction_among
from mfls.features.code_lens import reads_of
from mfls.features.course_map import lesson_titles
from mfls.features.facts import (
    PLACE_PROVIDED,
    PLACE_READ,
    PLACE_READ_BEFORE_ASKED,
    PLACE_REFERENCE_BINDING,
    SAVES_ANSWER,
    facts_of,
)
from mfls.features.messages import EN, bare, counted, say
from mfls.features.navigation import Location
from mfls.syntax.model import Interaction
from mfls.workspace.index import CourseSnapshot, WorkspaceSnapshot

READ_HINT: Final = "read"
"""A hint after a read: where the key is asked, or that the host provides it."""
BINDING_HINT: Final = "binding"
"""A hint after an interaction that saves the answer: how many lessons read it."""

CHOICES_SHOWN: Final = 5
"""Choices named in a hint (as many as a hover names); more end in `…`."""
CHOICE_LIMIT: Final = 20
"""Characters of a choice's label kept in a hint."""
TITLE_LIMIT: Final = 40
"""Characters of a lesson's title kept in a hint."""

_ASKED_SOMEWHERE: Final = frozenset({PLACE_READ, PLACE_READ_BEFORE_ASKED})


@dataclass(frozen=True)
class Hint:
    offset: int  # where it stands: right after the marker (a binding: its interaction)
    label: str
    kind: str  # READ_HINT | BINDING_HINT
    key: str
    target: Location | None = None  # where the label leads: the first binding of the key
    tooltip: str | None = None  # a read's label uncut: the whole title, every choice


def inlay_hints(
    snapshot: WorkspaceSnapshot,
    uri: str,
    start: int = 0,
    end: int | None = None,
    language: str = EN,
) -> list[Hint]:
    """The hints of `uri` standing in `start`..`end` (offsets; None: the end), in text
    order."""
    found = snapshot.entry(uri)
    if found is None:
        return []
    course, entry = found
    facts = facts_of(course)
    interactions = entry.interactions
    titles = lesson_titles(course)
    said: dict[tuple[str, str], Hint | None] = {}  # a key's hint is the same at each place
    hints: list[Hint] = []
    for marker, kinds in facts.verdicts(entry):
        # A binding in a reference document saves nothing, whatever else it is.
        kind = PLACE_REFERENCE_BINDING if PLACE_REFERENCE_BINDING in kinds else kinds[0]
        if kind in SAVES_ANSWER:
            interaction = interaction_among(interactions, marker.start)
            at = marker.end if interaction is None else interaction.end
        else:
            at = marker.end
        if at < start or (end is not None and at > end):
            continue
        if (marker.key, kind) not in said:
            said[(marker.key, kind)] = _hint(course, titles, marker.key, kind, language)
        model = said[(marker.key, kind)]
        if model is not None:
            hints.append(replace(model, offset=at))
    return hints


def _hint(
    course: CourseSnapshot, titles: dict[str, str], key: str, kind: str, language: str
) -> Hint | None:
    """The hint of a place of `key` of this kind, its offset left 0."""
    facts = facts_of(course)
    if kind in SAVES_ANSWER:
        reads = reads_of(course, key)
        if not reads.places:
            return Hint(0, say(language, "inlay.unread"), BINDING_HINT, key)
        lessons = "lens.lessons" if reads.all_lessons else "lens.documents"
        where = counted(language, lessons, reads.documents)
        return Hint(0, say(language, "inlay.read", where=where), BINDING_HINT, key)
    if kind == PLACE_PROVIDED:
        return Hint(0, say(language, "inlay.provided", host=facts.host_name), READ_HINT, key)
    if kind not in _ASKED_SOMEWHERE:
        return None  # unbound, a near miss: its diagnostic says so
    first = facts.first_asking(key)
    if first is None:
        return None
    entry = course.docs[first.uri]
    title = titles.get(first.uri) or entry.label
    target = Location(first.uri, first.marker.key_start, first.marker.key_end)
    interaction = interaction_among(entry.interactions, first.marker.start)
    label = _asked_in(bare(title, TITLE_LIMIT), interaction, language, cut=True)
    tooltip = _asked_in(title, interaction, language, cut=False)
    return Hint(0, label, READ_HINT, key, target, tooltip)


def _asked_in(lesson: str, interaction: Interaction | None, language: str, cut: bool) -> str:
    asked = None if interaction is None else _asked(interaction, language, cut)
    if asked:
        return say(language, "inlay.asked-in.with", lesson=lesson, asked=asked)
    return say(language, "inlay.asked-in", lesson=lesson)


def _asked(interaction: Interaction, language: str, cut: bool) -> str:
    """The choices (`cut`: a few, each cut short) and the free input of an interaction,
    in the hover's words."""
    separator = say(language, "hover.list-separator")
    choices = [c.label for c in interaction.choices]
    if cut:
        choices = [bare(label, CHOICE_LIMIT) for label in choices[:CHOICES_SHOWN]]
    asked = separator.join(choices)
    if len(interaction.choices) > len(choices):
        asked += "…"
    if interaction.input is not None:
        free = say(language, "hover.asked.input")
        asked += (say(language, "hover.asked.separator") if asked else "") + free
    return asked
