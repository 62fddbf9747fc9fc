"""What AI-Shifu's learner page makes of a course's interactions, where it differs from
what the course's runtime (markdown-flow) reads: the verdicts behind the
`page-unreadable-binding` and `page-reads-otherwise` diagnostics and the fixes of the
first, as data (`features/diagnostic_wording.py` and `features/code_actions.py` word
them).

The page is modelled by `mfls.workspace.learner_page`, one reading per targeted page
version (`page_versions`: every checked one unless the course file's `page` names some).
An interaction is read as the page reads its line, which it must begin; where the model
declines a line (Markdown inline syntax it does not read), a binding is judged by its
marker alone, and nothing else is said about the line.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from functools import partial
from typing import NamedTuple

from mfls.features.facts import facts_of
from mfls.features.finding import Finding
from mfls.features.messages import EN, ZH, brief, quoted, say
from mfls.syntax.model import Interaction, Marker, Role
from mfls.text.lines import line_start
from mfls.workspace.diagnostic_registry import (
    PAGE_READS_OTHERWISE,
    PAGE_UNREADABLE_BINDING,
    PAGE_UNREADABLE_BINDING_FORM,
    PAGE_UNREADABLE_BINDING_LINE,
)
from mfls.workspace.index import CourseSnapshot, DocEntry
from mfls.workspace.learner_page import (
    REMARK_FLOW_016,
    REMARK_FLOW_100A7,
    PageElement,
    PageReading,
    binding_readable,
    binding_text,
    bound_key,
    page_key,
    page_versions,
    read_line,
)

_NAMES = {REMARK_FLOW_016: "remark-flow 0.1.6", REMARK_FLOW_100A7: "remark-flow 1.0.0-alpha.7"}
_SHOWN_CHOICES = 4


def page_name(version: str) -> str:
    return _NAMES.get(version, version)


class UnreadBinding(NamedTuple):
    """A binding the runtime saves that some targeted page version does not read.
    `readings`: per such version, the page's reading of the line (None: declined)."""

    marker: Marker
    interaction: Interaction
    readings: tuple[tuple[str, PageReading | None], ...]
    # The fix: "form" (write `binding_text`: every targeted version reads that form),
    # "rename" (no form of the key is read: a new name), or "" (the key is written as the
    # page reads it: the line is what it reads otherwise).
    fix: str


class Difference(NamedTuple):
    """An interaction some targeted page versions show otherwise than the runtime reads
    it: per group of versions showing the same, what they show."""

    interaction: Interaction
    shown: tuple[tuple[tuple[str, ...], PageElement | None], ...]


def _line_of(text: str, start: int) -> str | None:
    """The line the interaction at `start` begins (None when text precedes it)."""
    begin = line_start(text, start)
    if text[begin:start].strip(" \t"):
        return None
    end = text.find("\n", start)
    line = text[begin : len(text) if end < 0 else end]
    return line[:-1] if line.endswith("\r") else line


def _reading(line: str | None, version: str) -> PageReading | None:
    return None if line is None else read_line(line, version)


def _bound(course: CourseSnapshot, entry: DocEntry, interaction: Interaction) -> Marker | None:
    """The binding marker of `interaction` its runtime saves, but one the host refuses
    (reserved-key-binding says so)."""
    marker = interaction.binding_marker
    if marker is None or interaction.binding is None or not entry.binds(marker):
        return None
    facts = facts_of(course)
    if facts.reserved(marker.key) and not facts.legacy_profile(marker):
        return None
    return marker


def unread_bindings(course: CourseSnapshot, entry: DocEntry) -> Iterator[UnreadBinding]:
    """Every binding of `entry` its runtime saves and a targeted page version does not
    read."""
    versions = page_versions(course.config)
    if not versions or entry.kind != "lesson":
        return  # the page shows lessons only
    for interaction in entry.interactions:
        found = _unread(course, entry, interaction, versions)
        if found is not None:
            yield found


def _unread(
    course: CourseSnapshot, entry: DocEntry, interaction: Interaction, versions: Sequence[str]
) -> UnreadBinding | None:
    text = entry.text
    marker = _bound(course, entry, interaction)
    if marker is None:
        return None
    key = marker.key
    binding = text[marker.start : marker.end]
    right_after = marker.start == interaction.start + 2
    line = _line_of(text, interaction.start)
    unread: list[tuple[str, PageReading | None]] = []
    for version in versions:
        reading = _reading(line, version)
        if reading is not None:
            element = reading.interaction
            read = element is not None and element.variable == key
        else:
            read = right_after and bound_key(binding, version) == key
        if not read:
            unread.append((version, reading))
    if not unread:
        return None
    if not any(binding_readable(key, pad, versions) for pad in (False, True)):
        fix = "rename"
    elif binding != binding_text(key, versions):
        fix = "form"
    else:
        fix = ""
    return UnreadBinding(marker, interaction, tuple(unread), fix)


def unread_binding_at(
    course: CourseSnapshot, entry: DocEntry, marker: Marker
) -> UnreadBinding | None:
    """The unread binding `marker` is, or None."""
    versions = page_versions(course.config)
    if not versions or marker.role is not Role.BINDING or entry.kind != "lesson":
        return None
    interactions = entry.interactions
    at = bisect_right(interactions, marker.start, key=lambda i: i.start) - 1
    found = interactions[at].binding_marker if at >= 0 else None
    if found is None or found.start != marker.start:
        return None
    return _unread(course, entry, interactions[at], versions)


def new_key(course: CourseSnapshot, key: str) -> str:
    """The name the page's rename fix gives `key`: `page_key`, not a key of the course."""
    return page_key(key, course.keys_taken())


def differences(course: CourseSnapshot, entry: DocEntry) -> Iterator[Difference]:
    """Every interaction of `entry` that a targeted page version shows otherwise than the
    runtime reads it (but for an unread binding, `unread_bindings`'s)."""
    versions = page_versions(course.config)
    if not versions or entry.kind != "lesson":
        return  # the page shows lessons only
    text = entry.text
    for interaction in entry.interactions:
        if not interaction.choices and interaction.input is None:
            continue  # asks nothing: empty-interaction
        line = _line_of(text, interaction.start)
        if line is None:
            continue
        marker = _bound(course, entry, interaction)
        if marker is None and interaction.binding_marker is not None:
            continue  # a binding the runtime ignores or the host refuses: their codes
        if marker is None and "{{" in text[interaction.start : interaction.end]:
            continue  # a marker the runtime reads as text: what it shows is not modelled
        shown: dict[PageElement | None, list[str]] = {}
        for version in versions:
            reading = read_line(line, version)
            if reading is None:
                continue
            element = reading.interaction
            if marker is not None and (element is None or element.variable != marker.key):
                continue  # an unread binding
            if not _same(interaction, element):
                shown.setdefault(element, []).append(version)
        if shown:
            groups = tuple((tuple(v), element) for element, v in shown.items())
            yield Difference(interaction, groups)


def _same(interaction: Interaction, element: PageElement | None) -> bool:
    if element is None:
        return False
    choices = tuple((c.label, c.value) for c in interaction.choices)
    multiple = interaction.multiple and len(choices) > 0
    return (
        element.choices == choices
        and bool(element.multiple) == multiple
        and element.hint == interaction.input
    )


# -- wording ----------------------------------------------------------------------------


def _code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`"


def describe_element(element: PageElement | None, language: str) -> str:
    """What the learner gets from the page's element (None: the line as raw text)."""
    if element is None:
        return say(language, "part.page.raw")
    return _describe(element.choices, bool(element.multiple), element.hint, language)


def describe_runtime(interaction: Interaction, language: str) -> str:
    choices = tuple((c.label, c.value) for c in interaction.choices)
    return _describe(choices, interaction.multiple, interaction.input, language)


def _describe(
    choices: Sequence[tuple[str, str]], multiple: bool, hint: str | None, language: str
) -> str:
    parts = []
    if choices:
        shown = []
        for label, value in choices[:_SHOWN_CHOICES]:
            if value == label:
                shown.append(_code(label))
            else:
                shown.append(
                    say(language, "part.page.valued", label=_code(label), value=_code(value))
                )
        if len(choices) > _SHOWN_CHOICES:
            shown.append("…")
        listed = ("、" if language == ZH else ", ").join(shown)
        kind = "part.page.check-boxes" if multiple else "part.page.buttons"
        if len(choices) == 1 and not multiple:
            kind = "part.page.button"
        parts.append(say(language, kind, count=len(choices), labels=listed))
    if hint is not None:
        parts.append(say(language, "part.page.input", hint=quoted(hint) if hint else "").rstrip())
    if not parts:
        return say(language, "part.page.nothing")
    return say(language, "part.page.and").join(parts)


def _on(groups: Sequence[tuple[Sequence[str], str]], language: str) -> str:
    """ "On remark-flow 0.1.6, the learner gets …; on remark-flow 1.0.0-alpha.7, …"."""
    said = []
    for versions, what in groups:
        if language == ZH:
            names = "、".join(page_name(v) for v in versions)
        else:
            names = " and ".join(page_name(v) for v in versions)
        said.append(say(language, "part.page.on", page=names, what=what))
    text = ("; " if language == EN else "；").join(said)
    return text[:1].upper() + text[1:] if language == EN else text


def _grouped(pairs: Sequence[tuple[str, str]]) -> list[tuple[list[str], str]]:
    """(version, what it shows) as the versions showing the same, in order."""
    groups: dict[str, list[str]] = {}
    for version, what in pairs:
        groups.setdefault(what, []).append(version)
    return [(versions, what) for what, versions in groups.items()]


def shown_by_versions(
    groups: Sequence[tuple[Sequence[str], PageElement | None]], language: str
) -> str:
    pairs = [(v, describe_element(element, language)) for vs, element in groups for v in vs]
    return _on(_grouped(pairs), language)


def unread_shown(found: UnreadBinding, language: str) -> str:
    """What the learner gets where the page does not read the binding."""
    pairs = []
    for version, reading in found.readings:
        if reading is not None:
            what = describe_element(reading.interaction, language)
        elif version == REMARK_FLOW_016:
            what = say(language, "part.page.marker-buttons")
        else:
            what = say(language, "part.page.raw")
        pairs.append((version, what))
    return _on(_grouped(pairs), language)


def causes(
    interaction: Interaction,
    text: str,
    groups: Sequence[tuple[Sequence[str], PageElement | None]],
    language: str,
) -> str:
    """Why the page shows the interaction otherwise, where mfls can tell."""
    source = text[interaction.start : interaction.end]
    versions = {v for group, _ in groups for v in group}
    found = []
    if "\\" in source:
        found.append("part.page.cause.escape")
    if "｜" in source and REMARK_FLOW_100A7 in versions:
        found.append("part.page.cause.full-width")
    elements = [element for _, element in groups]
    if interaction.multiple and any(e is not None and not e.multiple for e in elements):
        unbound = interaction.binding is None
        found.append("part.page.cause.multiple-unbound" if unbound else "part.page.cause.multiple")
    if interaction.input is not None and interaction.binding is None:
        found.append("part.page.cause.input")
    return "".join(say(language, cause) for cause in found)


def page_findings(course: CourseSnapshot, entry: DocEntry, runtime: str) -> list[Finding]:
    """The page findings of `entry`: an unread binding on its key, a difference on the
    interaction; each says what the page shows as a function of the language (the page's
    descriptions are put together from the catalog's pieces)."""
    found: list[Finding] = []
    for unread in unread_bindings(course, entry):
        marker = unread.marker
        key = marker.key
        if unread.fix == "rename":
            message_id = PAGE_UNREADABLE_BINDING
            fix = {"readable": new_key(course, key), "quoted": quoted(key)}
        elif unread.fix == "form":
            message_id = PAGE_UNREADABLE_BINDING_FORM
            fix = {"binding": binding_text(key, page_versions(course.config))}
        else:
            message_id, fix = PAGE_UNREADABLE_BINDING_LINE, {}
        words = partial(_unread_words, unread, message_id, fix)
        found.append(Finding(PAGE_UNREADABLE_BINDING, marker.start, marker.end, words))
    text = entry.text
    for difference in differences(course, entry):
        interaction = difference.interaction
        words = partial(_difference_words, difference, text, runtime)
        found.append(Finding(PAGE_READS_OTHERWISE, interaction.start, interaction.end, words))
    return found


def _unread_words(
    unread: UnreadBinding, message_id: str, fix: dict[str, str], language: str
) -> str:
    shown = unread_shown(unread, language)
    return say(language, message_id, short=brief(unread.marker.key), shown=shown, **fix)


def _difference_words(difference: Difference, text: str, runtime: str, language: str) -> str:
    interaction = difference.interaction
    return say(
        language,
        PAGE_READS_OTHERWISE,
        runtime=runtime,
        shown=shown_by_versions(difference.shown, language),
        reads=describe_runtime(interaction, language),
        causes=causes(interaction, text, difference.shown, language),
    )
