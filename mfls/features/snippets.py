"""Interaction snippets offered right after `?[`: single choice, multiple choice, input.

The binding written first is the form the course target's runtime saves: `{{ key }}`
for the current syntax, `%{{key}}` for a released markdown-flow line (which reads only
that, and under 0.3 only right after `?[`, where the snippet puts it); in a course that
targets AI-Shifu's learner page, the form its page versions read
(`features/binding_spelling.py`). Syntax: docs/syntax.md, rules 12-15.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from mfls.features.binding_spelling import BindingSpelling, spelling_of
from mfls.syntax.model import BlockKind, ScanResult
from mfls.text.lines import line_start
from mfls.workspace.config import CURRENT
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.learner_page import multiple_choice_shown


@dataclass(frozen=True, slots=True)
class Snippet:
    label: str
    snippet: str  # LSP snippet syntax: tab stops $1, $2, ..., final $0
    plain: str  # the same text for a client without snippets
    detail: str  # the whole interaction as inserted (plain)
    sort_text: str


@dataclass(frozen=True)
class Snippets:
    start: int  # what the chosen item replaces: the word typed after `?[` (and an
    end: int  # auto-closed `]` right after the cursor)
    items: tuple[Snippet, ...]


# `?[` (its `?` not escaped) and the letters typed since, up to the cursor.
_AFTER_OPENER = re.compile(r"(?<!\\)\?\[(?P<typed>[^\W\d_]*)\Z")
_PLACEHOLDER = re.compile(r"\$\{\d+:([^}]*)\}|\$\d+")

# (label, what follows the binding, with tab stops from $2)
_SHAPES = (
    ("single choice", " ${2:Yes} | ${3:No}]$0"),
    ("multiple choice", " ${2:A} || ${3:B} || ${4:C}]$0"),
    ("input", " ...${2:hint}]$0"),
)

# Where a targeted learner page has no multiple choice (remark-flow 1.0.0-alpha.7 shows
# `A || B` as single-choice buttons), none is offered.
_SHAPES_NOT_MULTIPLE = tuple(shape for shape in _SHAPES if shape[0] != "multiple choice")

_PLACEHOLDER_KEY = "question"


def binding_snippet(target: str, spelling: BindingSpelling) -> str:
    """The binding the runtime of `target` saves (and the learner page, if targeted,
    reads), its key as tab stop 1."""
    if spelling.for_page:
        written = spelling.binding(_PLACEHOLDER_KEY, True)
        return written.replace(_PLACEHOLDER_KEY, "${1:" + _PLACEHOLDER_KEY + "}", 1)
    if target == CURRENT:
        return "{{ ${1:question} }}"
    return "%{{${1:question}}}"


def plain_text(snippet: str) -> str:
    """A snippet with its tab stops replaced by their placeholders."""
    return _PLACEHOLDER.sub(lambda m: m.group(1) or "", snippet)


def interaction_snippets(snapshot: WorkspaceSnapshot, uri: str, offset: int) -> Snippets | None:
    """The snippets at `offset`, when it follows `?[` (and letters typed since) outside
    code, a code span or another literal context; else None."""
    found = snapshot.entry(uri)
    if found is None:
        return None
    course, entry = found
    text = entry.text
    match = _AFTER_OPENER.search(text, line_start(text, offset), offset)
    if match is None:
        return None
    start = offset - len(match["typed"])
    opener = start - 2
    result = entry.result_near(opener)
    if _in_code_or_literal(result, opener):
        return None
    end = offset + 1 if text[offset : offset + 1] == "]" else offset
    spelling = spelling_of(course.config)
    binding = binding_snippet(entry.target, spelling)
    shapes = _SHAPES if multiple_choice_shown(spelling.versions) else _SHAPES_NOT_MULTIPLE
    items = []
    for order, (label, rest) in enumerate(shapes):
        snippet = binding + rest
        plain = plain_text(snippet)
        items.append(Snippet(label, snippet, plain, "?[" + plain, f"{order}"))
    return Snippets(start, end, tuple(items))


_NO_INTERACTION = (
    BlockKind.INDENTED_CODE,
    BlockKind.FENCED_CODE,
    BlockKind.LINK_REFERENCE_DEFINITION,
)


def _in_code_or_literal(result: ScanResult, offset: int) -> bool:
    index = bisect_right(result.literals, offset, key=lambda lit: lit.start) - 1
    if index >= 0 and result.literals[index].start <= offset < result.literals[index].end:
        return True
    index = bisect_right(result.blocks, offset, key=lambda b: b.start) - 1
    if index < 0:
        return False
    block = result.blocks[index]
    if offset > block.end:
        return False
    return block.kind in _NO_INTERACTION or block.is_raw_html
