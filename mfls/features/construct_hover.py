"""Hover on what is not a marker: an interaction that binds no key, an AI-Shifu gate
value (`_sys_pay`, `_sys_login`) and AI-Shifu fixed output (`===text===`,
`!===text!===`, `!===` fences), each as the package that defines it reads it
(markdown-flow 0.4.2, ai-shifu's `learn_funcs.py`: tests/hosts)."""

from __future__ import annotations

from typing import NamedTuple

from mfls.features import gate_values
from mfls.features.at_offset import interaction_among
from mfls.features.lesson_structure import structure_of
from mfls.features.messages import say
from mfls.workspace.ai_shifu_structure import FixedSpan
from mfls.workspace.index import CourseSnapshot, DocEntry


class Found(NamedTuple):
    markdown: str
    start: int
    end: int


def construct_hover(
    course: CourseSnapshot, entry: DocEntry, offset: int, language: str
) -> Found | None:
    """The hover at `offset` (on no marker): a gate value, else an interaction that
    stores nothing, else fixed output."""
    interaction = interaction_among(entry.interactions, offset)
    if interaction is not None:
        if gate_values.gated(course):
            value = gate_values.value_at((interaction,), offset)
            if value is not None:
                text = gate_values.describe(value.value, language)
                if text is not None:
                    return Found(text, value.start, value.end)
        marker = interaction.binding_marker
        if marker is None or not entry.binds(marker):
            plain = course.host.runtime != "markdown-flow"
            text = say(language, "hover.no-variable.plain" if plain else "hover.no-variable")
            return Found(text, interaction.start, interaction.end)
    span = _fixed_at(course, entry, offset)
    if span is None:
        return None
    return Found(fixed_output_note(span, language, with_form=True), span.start, span.end)


def _fixed_at(course: CourseSnapshot, entry: DocEntry, offset: int) -> FixedSpan | None:
    structure = structure_of(course, entry)
    return None if structure is None else structure.fixed_at(offset)


def fixed_output_note(span: FixedSpan, language: str, with_form: bool = False) -> str:
    """Which fixed output `span` is (`with_form`) and whether the AI may translate it."""
    parts = [say(language, f"hover.fixed.{span.form}")] if with_form else []
    parts.append(say(language, "hover.fixed.alone" if span.alone else "hover.fixed.told"))
    if with_form:
        parts.append(say(language, "hover.fixed.markers"))
    return " ".join(parts)
