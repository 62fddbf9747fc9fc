"""Hover on a marker: the exact key, made visible, and what the course knows about it."""

from __future__ import annotations

from dataclasses import dataclass

from mfls.features import key_display
from mfls.features.at_offset import interaction_of, invalid_at, invalid_span, marker_at
from mfls.features.diagnostics import runs_on_text
from mfls.features.lesson_structure import structure_of
from mfls.features.places import occurrence_link
from mfls.syntax.model import Context, InvalidMarker, Marker, Reason, Role
from mfls.workspace.index import CourseSnapshot, DocEntry, Occurrence, WorkspaceSnapshot


@dataclass(frozen=True)
class HoverInfo:
    markdown: str
    start: int
    end: int


_WHY_INVALID = {
    Reason.EMPTY: "it names no question: nothing is left between the braces once the "
    "surrounding spaces are removed.",
    Reason.LINE_BREAK: "its question is broken across lines; a question must fit on one line.",
    Reason.CONTROL_CHARACTER: "its question contains an invisible control character.",
    Reason.UNCLOSED: "no `}}` closes it in its paragraph, so it turns the rest of the "
    "paragraph into plain text.",
}


_CONTEXT_NAMES = {
    Context.CODE_SPAN: "a code span",
    Context.MATH: "inline math",
    Context.LINK_DESTINATION: "a link destination",
    Context.LINK_TITLE: "a link title",
    Context.LINK_LABEL: "a link label",
    Context.LINK_DEFINITION: "a link reference definition",
    Context.AUTOLINK: "an autolink",
    Context.HTML_TAG: "an HTML tag",
    Context.HTML_COMMENT: "an HTML comment",
    Context.HTML_BLOCK: "a raw HTML block",
    Context.INFO_STRING: "a code block's info string",
}

# Why markdown-flow never substitutes a marker in a context it drops (tests/hosts).
_DROPPED_BY_MARKDOWN_FLOW = {
    Context.HTML_COMMENT: "markdown-flow removes comments before the AI sees the text",
    Context.INFO_STRING: "markdown-flow keeps a fenced code block, its info string "
    "included, exactly as written",
}


def hover(snapshot: WorkspaceSnapshot, uri: str, offset: int) -> HoverInfo | None:
    found = snapshot.entry(uri)
    if found is None:
        return None
    course, entry = found
    marker = marker_at(entry.marker_scan, offset)
    if marker is not None:
        text = _describe(course, entry, marker)
        fixed = _fixed_output_note(course, entry, marker)
        if fixed:
            text = f"{text}\n\n{fixed}"
        return HoverInfo(text, marker.start, marker.end)
    invalid = invalid_at(entry.marker_scan, offset)
    if invalid is not None:
        start, end = invalid_span(invalid)
        return HoverInfo(_describe_invalid(invalid, entry.text), start, end)
    return None


# What markdown-flow does with a marker inside fixed output (tests/hosts).
FIXED_BLOCK_NOTE = (
    "Inside fixed output: markdown-flow shows this block as written, without the AI, "
    "and still substitutes the marker with the answer."
)
FIXED_SPAN_NOTE = (
    "Inside fixed output: markdown-flow tells the AI to output this text as written, "
    "and still substitutes the marker with the answer."
)


def _fixed_output_note(course: CourseSnapshot, entry: DocEntry, marker: Marker) -> str | None:
    if marker.role is Role.BINDING or not course.host.substitutes(marker):
        return None
    structure = structure_of(course, entry)
    if structure is None or structure.fixed_at(marker.start) is None:
        return None
    block = next(b for b in structure.blocks if b.start <= marker.start <= b.end)
    return FIXED_BLOCK_NOTE if block.fixed else FIXED_SPAN_NOTE


def _describe_invalid(invalid: InvalidMarker, text: str) -> str:
    why = _WHY_INVALID[invalid.reason]
    if invalid.reason is Reason.LINE_BREAK:
        runs_on = runs_on_text(invalid, text)
        if runs_on is not None:
            why = f"it probably lacks its `}}}}`: it {runs_on}."
    lines = [f"**Not a memory marker**: {why}"]
    hidden = []
    if invalid.hidden_markers:
        hidden.append(f"{invalid.hidden_markers} marker(s)")
    if invalid.hidden_interactions:
        hidden.append(f"{invalid.hidden_interactions} interaction(s)")
    if hidden:
        lines.append(f"It hides {' and '.join(hidden)} written after it.")
    lines.append("The AI reads it as plain text.")
    return "\n\n".join(lines)


def _literal_role(course: CourseSnapshot, marker: Marker) -> str:
    context = marker.context
    where = _CONTEXT_NAMES[context] if context is not None else "a literal context"
    host = course.host
    if host.substitutes(marker):
        if host.runtime:
            return (
                f"**Reference** inside {where}: {host.runtime} substitutes it there too, "
                "so it is checked like any reference."
            )
        return f"**Reference** inside {where}: checked like any reference."
    why = None
    if context is not None and host.runtime == "markdown-flow":
        why = _DROPPED_BY_MARKDOWN_FLOW.get(context)
    because = f": {why}, so this is never substituted" if why else ", never substituted"
    return (
        f"**Reference** inside {where}{because} on {host.title or host.name}. "
        "It raises no course diagnostic."
    )


def _role(course: CourseSnapshot, entry: DocEntry, marker: Marker) -> str:
    if marker.role is Role.BINDING:
        legacy = " (old `%{{...}}` form)" if marker.legacy else ""
        if entry.kind == "reference":
            return (
                f"**Binding**{legacy} in a reference document: it grants no permission to "
                "save the answer."
            )
        return f"**Binding**{legacy}: this interaction saves the user's answer to this question."
    if marker.literal:
        return _literal_role(course, marker)
    return "**Reference**: the AI reads the remembered answer to this question."


def _place(course: CourseSnapshot, occurrence: Occurrence) -> str:
    return occurrence_link(course, occurrence)


def _describe(course: CourseSnapshot, entry: DocEntry, marker: Marker) -> str:
    key = marker.key
    parts = [key_display.fenced(key)]
    notes = key_display.notes(key)
    if notes:
        parts.append("Look closely:\n" + "\n".join(f"- {note}" for note in notes))
    parts.append(_role(course, entry, marker))
    if marker.role is Role.BINDING:
        interaction = interaction_of(entry.marker_scan, marker.start)
        if interaction is not None and (interaction.choices or interaction.input is not None):
            choices = ", ".join(c.label for c in interaction.choices[:5])
            more = "…" if len(interaction.choices) > 5 else ""
            asked = f"choices: {choices}{more}" if choices else ""
            if interaction.input is not None:
                asked += ("; " if asked else "") + "free input"
            parts.append(f"Asked with {asked}.")
    bindings = sorted(course.bindings.get(key, ()), key=course.position)
    if bindings:
        shown = ", ".join(_place(course, o) for o in bindings[:5])
        more = f" and {len(bindings) - 5} more" if len(bindings) > 5 else ""
        parts.append(f"Bound in {shown}{more}.")
    else:
        parts.append("Not bound anywhere in this course.")
    substitutes = course.host.substitutes
    references = [o for o in course.references.get(key, ()) if substitutes(o.marker)]
    documents = len({o.uri for o in references})
    if references:
        parts.append(f"Read {len(references)} time(s) in {documents} document(s) of {course.name}.")
    else:
        parts.append(f"Not read anywhere in {course.name}.")
    host = course.host
    if host.is_legacy_profile_binding(marker):
        parts.append(
            f"A legacy learner-profile key: {host.title or host.name} still accepts its "
            "`%{{...}}` binding."
        )
    elif host.provides(key):
        parts.append(f"Provided by {host.title or host.name} (read-only).")
    prefix = host.reserved_prefix_of(key)
    if prefix is not None:
        parts.append(f"The prefix `{prefix}` is reserved by {host.title or host.name}.")
    return "\n\n".join(parts)
