"""The rules of one document's text, without its course: invalid markers, interactions
that ask nothing, legacy bindings, and where the runtime of an old target reads a marker
otherwise. Each yields `Finding`s (`features/finding.py`); `diagnostic_wording` words
them."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from typing import Final

from mfls.features.at_offset import invalid_span
from mfls.features.binding_spelling import NO_PAGE, BindingSpelling
from mfls.features.finding import DEPRECATED, Counted, Finding, Said, said
from mfls.syntax.keys import trimmed
from mfls.syntax.model import Interaction, InvalidMarker, Reason, Role, ScanResult
from mfls.workspace.catalog import bare, quoted
from mfls.workspace.config import (
    CURRENT,
    MARKDOWN_FLOW_03,
    MARKDOWN_FLOW_03_READERS,
    MARKDOWN_FLOW_034,
    MARKDOWN_FLOW_04,
)
from mfls.workspace.diagnostic_registry import (
    EMPTY_INTERACTION,
    EMPTY_INTERACTION_LEGACY,
    LEGACY_BINDING,
    MARKER_CONTROL_CHARACTER,
    MARKER_EMPTY,
    MARKER_LINE_BREAK,
    MARKER_LINE_BREAK_RUNS_ON,
    MARKER_UNCLOSED,
    RUNTIME_BINDING_IGNORED,
    RUNTIME_BINDING_IGNORED_POSITION,
    RUNTIME_KEY_DIFFERS,
)


def scan_findings(
    result: ScanResult,
    text: str | None = None,
    quiet_legacy: frozenset[str] = frozenset(),
    target: str = CURRENT,
    reserved: Callable[[str], bool] | None = None,
    spelling: BindingSpelling = NO_PAGE,
) -> list[Finding]:
    """Invalid markers, legacy bindings (but those of the keys in `quiet_legacy`) and
    interactions that ask nothing; `text`, when given, names control characters and
    tells a missing `}}` from a broken line. Under an old `target` (a released
    markdown-flow), what its runtime reads otherwise instead of the legacy hints; a
    binding of a `reserved` key keeps its reserved-key error instead (the `%` form
    would not help), and gets no legacy hint under the current syntax either (the
    `{{ key }}` form it would advise is that error too). No legacy hint where the
    learner page is targeted (`spelling`): it reads no other form. The bindings they
    advise are as `spelling` writes them."""
    found = [_invalid(marker, text) for marker in result.invalid]
    for interaction in result.interactions:
        asks = interaction.choices or interaction.input is not None
        if interaction.binding is not None and not asks:
            found.append(_asks_nothing(result, interaction, spelling))
    if target != CURRENT:
        found.extend(runtime_findings(result, text, target, reserved, spelling))
    elif spelling.converts_legacy:
        for marker in result.markers:
            if not marker.legacy or marker.key in quiet_legacy:
                continue
            if reserved is None or not reserved(marker.key):
                words = said(LEGACY_BINDING, bare=bare(marker.key))
                found.append(
                    Finding(LEGACY_BINDING, marker.start, marker.end, words, (), (DEPRECATED,))
                )
    found.sort(key=lambda d: (d.start, d.end))
    return found


_RUNTIME_NAMES: Final = {
    MARKDOWN_FLOW_04: "markdown-flow 0.4.2",
    MARKDOWN_FLOW_03: "markdown-flow 0.3.1",
    MARKDOWN_FLOW_034: "markdown-flow 0.3.4",
}


def runtime_name(target: str) -> str:
    return _RUNTIME_NAMES.get(target, target)


def runtime_findings(
    result: ScanResult,
    text: str | None,
    target: str,
    reserved: Callable[[str], bool] | None = None,
    spelling: BindingSpelling = NO_PAGE,
) -> list[Finding]:
    """Where the runtime of an old `target` reads a marker otherwise than the memory
    syntax: a `{{ key }}` binding it ignores, a `%{{key}}` binding it does not see (0.3:
    not right after `?[`), a key it never substitutes (0.3: a key holding `}`)."""
    runtime = runtime_name(target)
    reads_03 = target in MARKDOWN_FLOW_03_READERS
    found: list[Finding] = []
    for marker in result.markers:
        words: Said | None = None
        if marker.role is Role.BINDING and not marker.legacy:
            if reserved is not None and reserved(marker.key):
                continue
            binding = spelling.binding(bare(marker.key), True)
            words = said(
                RUNTIME_BINDING_IGNORED,
                runtime=runtime,
                binding=binding,
                quoted=quoted(marker.key),
            )
        elif (
            marker.legacy
            and reads_03
            and text is not None
            and text[max(0, marker.start - 2) : marker.start] != "?["
        ):
            words = said(
                RUNTIME_BINDING_IGNORED_POSITION, runtime=runtime, quoted=quoted(marker.key)
            )
        if words is not None:
            found.append(Finding(RUNTIME_BINDING_IGNORED, marker.start, marker.end, words))
        if reads_03 and "}" in marker.key:
            words = said(RUNTIME_KEY_DIFFERS, runtime=runtime, quoted=quoted(marker.key))
            found.append(Finding(RUNTIME_KEY_DIFFERS, marker.start, marker.end, words))
    return found


def _invalid(marker: InvalidMarker, text: str | None) -> Finding:
    start, end = invalid_span(marker)
    if marker.reason is Reason.EMPTY:
        return Finding(MARKER_EMPTY, start, end, Said(MARKER_EMPTY))
    if marker.reason is Reason.LINE_BREAK:
        ran_on = runs_on(marker, text) if text is not None else None
        if ran_on is not None:
            return Finding(
                MARKER_LINE_BREAK, start, end, said(MARKER_LINE_BREAK_RUNS_ON, runs_on=ran_on)
            )
        return Finding(MARKER_LINE_BREAK, start, end, Said(MARKER_LINE_BREAK))
    if marker.reason is Reason.CONTROL_CHARACTER:
        named = _control_character(text[start:end]) if text is not None else None
        which: object = said("part.which-character", code=named) if named else ""
        words = said(MARKER_CONTROL_CHARACTER, which=which)
        return Finding(MARKER_CONTROL_CHARACTER, start, end, words)
    hides: object = hidden(marker, "part.hides") or ""
    return Finding(MARKER_UNCLOSED, start, end, said(MARKER_UNCLOSED, hides=hides))


def hidden(marker: InvalidMarker, message_id: str) -> Said | None:
    """What an unclosed marker hides, as message `message_id.one` or `.both` (None for
    nothing)."""
    markers = interactions = None
    if marker.hidden_markers:
        markers = Counted("part.count.markers", marker.hidden_markers)
    if marker.hidden_interactions:
        interactions = Counted("part.count.interactions", marker.hidden_interactions)
    if markers and interactions:
        return said(f"{message_id}.both", markers=markers, interactions=interactions)
    if markers or interactions:
        return said(f"{message_id}.one", what=markers or interactions)
    return None


_LINE_BREAKS = ("\r\n", "\n", "\r", "\x85", "\u2028", "\u2029")


def runs_on(marker: InvalidMarker, text: str) -> Said | None:
    """How a line-broken marker runs past its question, when that is what it does (a
    missing `}}`), else None (a question wrapped over two lines: join them).

    A missing `}}` is read when the key (the trimmed body) holds `{{` or `?[` (it ran
    into another marker or an interaction), or spans three lines or more."""
    closing = marker.closing
    if closing is None:
        return None
    key = trimmed(text[marker.opening[1] : closing[0]])
    if "{{" in key:
        return Said("part.runs-on.marker")
    if "?[" in key:
        return Said("part.runs-on.interaction")
    lines = key.replace("\r\n", "\n")
    for brk in _LINE_BREAKS[2:]:
        lines = lines.replace(brk, "\n")
    count = lines.count("\n") + 1
    return said("part.runs-on.lines", count=count) if count >= 3 else None


def _asks_nothing(
    result: ScanResult, interaction: Interaction, spelling: BindingSpelling
) -> Finding:
    at = bisect_left(result.markers, interaction.start, key=lambda m: m.start)
    marker = result.markers[at] if at < len(result.markers) else None
    key = interaction.binding or ""
    legacy = marker is not None and marker.legacy
    message_id = EMPTY_INTERACTION_LEGACY if legacy else EMPTY_INTERACTION
    binding = spelling.binding(key, True)
    words = said(message_id, key=key, quoted=quoted(key), binding=binding)
    return Finding(EMPTY_INTERACTION, interaction.start, interaction.end, words)


def _control_character(body: str) -> str | None:
    for char in body[2:]:
        code = ord(char)
        if (code < 0x20 and char not in "\n\r") or (0x7F <= code <= 0x9F and code != 0x85):
            return f"U+{code:04X}"
    return None
