"""Hover on a marker: the exact key, made visible, and what the course knows about it;
elsewhere, on the constructs `construct_hover` describes."""

from __future__ import annotations

from dataclasses import dataclass

from mfls.features import key_display
from mfls.features.at_offset import interaction_among, invalid_at, invalid_span, marker_at
from mfls.features.binding_spelling import spelling_of
from mfls.features.construct_hover import construct_hover
from mfls.features.diagnostic_wording import hidden_text, runs_on_text
from mfls.features.facts import (
    PLACE_PROVIDED,
    PLACE_REFERENCE_BINDING,
    PLACE_RESERVED,
    facts_of,
)
from mfls.features.lesson_structure import structure_of
from mfls.features.messages import EN, counted, say
from mfls.features.places import occurrence_link
from mfls.features.scan_rules import runtime_name
from mfls.syntax.model import Context, InvalidMarker, Marker, Reason, Role
from mfls.workspace.index import CourseSnapshot, DocEntry, Occurrence, WorkspaceSnapshot


@dataclass(frozen=True)
class HoverInfo:
    markdown: str
    start: int
    end: int


_WHY_INVALID = {
    Reason.EMPTY: "hover.why.empty",
    Reason.LINE_BREAK: "hover.why.line-break",
    Reason.CONTROL_CHARACTER: "hover.why.control-character",
    Reason.UNCLOSED: "hover.why.unclosed",
}


_CONTEXT_NAMES = {
    Context.CODE_SPAN: "hover.context.code-span",
    Context.MATH: "hover.context.math",
    Context.LINK_DESTINATION: "hover.context.link-destination",
    Context.LINK_TITLE: "hover.context.link-title",
    Context.LINK_LABEL: "hover.context.link-label",
    Context.LINK_DEFINITION: "hover.context.link-definition",
    Context.AUTOLINK: "hover.context.autolink",
    Context.HTML_TAG: "hover.context.html-tag",
    Context.HTML_COMMENT: "hover.context.html-comment",
    Context.HTML_BLOCK: "hover.context.html-block",
    Context.INFO_STRING: "hover.context.info-string",
}

# Why markdown-flow never substitutes a marker in a context it drops (tests/hosts).
_DROPPED_BY_MARKDOWN_FLOW = {
    Context.HTML_COMMENT: "hover.dropped.html-comment",
    Context.INFO_STRING: "hover.dropped.info-string",
}


def hover(
    snapshot: WorkspaceSnapshot, uri: str, offset: int, language: str = EN
) -> HoverInfo | None:
    """What is known of the marker at `offset`, as Markdown in `language`; places are links."""
    found = snapshot.entry(uri)
    if found is None:
        return None
    course, entry = found
    marker = marker_at(entry.marker_scan, offset)
    if marker is not None:
        text = _describe(course, entry, marker, language)
        fixed = _fixed_output_note(course, entry, marker, language)
        if fixed:
            text = f"{text}\n\n{fixed}"
        return HoverInfo(text, marker.start, marker.end)
    invalid = invalid_at(entry.marker_scan, offset)
    if invalid is not None:
        start, end = invalid_span(invalid)
        return HoverInfo(_describe_invalid(invalid, entry.text, language), start, end)
    other = construct_hover(course, entry, offset, language)
    return None if other is None else HoverInfo(*other)


# What markdown-flow does with a marker inside fixed output (tests/hosts).
FIXED_BLOCK_NOTE = say(EN, "hover.fixed-block")
FIXED_SPAN_NOTE = say(EN, "hover.fixed-span")


def _fixed_output_note(
    course: CourseSnapshot, entry: DocEntry, marker: Marker, language: str
) -> str | None:
    if not facts_of(course).read(marker):
        return None
    structure = structure_of(course, entry)
    span = None if structure is None else structure.fixed_at(marker.start)
    if span is None:
        return None
    return say(language, "hover.fixed-block" if span.alone else "hover.fixed-span")


def _describe_invalid(invalid: InvalidMarker, text: str, language: str) -> str:
    why = say(language, _WHY_INVALID[invalid.reason])
    if invalid.reason is Reason.LINE_BREAK:
        runs_on = runs_on_text(invalid, text, language)
        if runs_on is not None:
            why = say(language, "hover.why.runs-on", runs_on=runs_on)
    lines = [say(language, "hover.not-marker", why=why)]
    hides = hidden_text(invalid, language, "hover.hides")
    if hides:
        lines.append(hides)
    lines.append(say(language, "hover.plain-text"))
    return "\n\n".join(lines)


def _literal_role(course: CourseSnapshot, marker: Marker, language: str) -> str:
    context = marker.context
    where_id = _CONTEXT_NAMES[context] if context is not None else "hover.context.literal"
    where = say(language, where_id)
    host = course.host
    facts = facts_of(course)
    if facts.substituted(marker):
        if host.runtime:
            return say(language, "hover.literal.substituted", where=where, runtime=host.runtime)
        return say(language, "hover.literal.checked", where=where)
    why = None
    if context is not None and host.runtime == "markdown-flow":
        why = _DROPPED_BY_MARKDOWN_FLOW.get(context)
    name = facts.host_name
    if why is None:
        return say(language, "hover.literal.dropped", where=where, host=name)
    because = say(language, why)
    return say(language, "hover.literal.dropped-because", where=where, why=because, host=name)


def _role(course: CourseSnapshot, entry: DocEntry, marker: Marker, language: str) -> str:
    if marker.role is Role.BINDING and not entry.binds(marker):
        return say(language, "hover.binding.ignored", runtime=runtime_name(entry.target))
    if marker.role is Role.BINDING:
        # Where the learner page is targeted, `%{{...}}` is the one form it reads: not old.
        old = marker.legacy and spelling_of(course.config).converts_legacy
        legacy = say(language, "hover.legacy-form") if old else ""
        kinds = facts_of(course).binding_kinds(entry, marker)
        if PLACE_RESERVED in kinds:
            return say(language, "hover.binding.reserved", legacy=legacy)
        if PLACE_REFERENCE_BINDING in kinds:
            return say(language, "hover.binding.in-reference", legacy=legacy)
        return say(language, "hover.binding", legacy=legacy)
    if marker.literal:
        return _literal_role(course, marker, language)
    return say(language, "hover.reference")


def _place(course: CourseSnapshot, occurrence: Occurrence) -> str:
    return occurrence_link(course, occurrence)


def _describe(course: CourseSnapshot, entry: DocEntry, marker: Marker, language: str) -> str:
    key = marker.key
    parts = [key_display.fenced(key)]
    notes = key_display.notes(key, language)
    if notes:
        look = say(language, "hover.look-closely")
        parts.append(look + "\n" + "\n".join(f"- {note}" for note in notes))
    parts.append(_role(course, entry, marker, language))
    separator = say(language, "hover.list-separator")
    if marker.role is Role.BINDING and entry.binds(marker):
        interaction = interaction_among(entry.interactions, marker.start)
        if interaction is not None and (interaction.choices or interaction.input is not None):
            choices = separator.join(c.label for c in interaction.choices[:5])
            more = "…" if len(interaction.choices) > 5 else ""
            asked = say(language, "hover.asked.choices", choices=choices + more) if choices else ""
            if interaction.input is not None:
                free = say(language, "hover.asked.input")
                asked += (say(language, "hover.asked.separator") if asked else "") + free
            parts.append(say(language, "hover.asked", asked=asked))
    facts = facts_of(course)
    bindings = facts.bindings_in_lessons(key)
    in_references = () if bindings else facts.bindings_in_references(key)
    if bindings or in_references:
        shown = separator.join(_place(course, o) for o in (bindings or in_references)[:5])
        beyond = len(bindings or in_references) - 5
        message_id = "hover.bound-in-references" if in_references else "hover.bound-in"
        if beyond > 0:
            message_id += ".more"
        parts.append(say(language, message_id, places=shown, more=beyond))
    elif facts.standing(key) != PLACE_PROVIDED:  # a host key: "provided" below says so
        parts.append(say(language, "hover.not-bound"))
    references = facts.reading(key)
    if references:
        times = counted(language, "hover.times", len(references))
        documents = counted(language, "hover.documents", len({o.uri for o in references}))
        read = say(language, "hover.read", times=times, documents=documents, course=course.name)
        parts.append(read)
    else:
        parts.append(say(language, "hover.not-read", course=course.name))
    name = facts.host_name
    if facts.legacy_profile(marker):
        parts.append(say(language, "hover.legacy-profile", host=name))
    elif facts.provided(key):
        parts.append(say(language, "hover.provided", host=name))
    prefix = facts.reserved_prefix(key)
    if prefix is not None:
        parts.append(say(language, "hover.prefix", prefix=prefix, host=name))
    return "\n\n".join(parts)
