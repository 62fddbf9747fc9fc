"""Completion of memory keys inside a marker being typed.

What an item writes (`Completion.new_text`) replaces only the key typed so far: the edit
range starts after `{{` and its padding, and only the key and the padding and `}}` the
marker still lacks are written, so no client doubles the braces. The typed part of the
key is then the filter word everywhere: VS Code filters on the label; Neovim 0.7's
`vim.lsp.omnifunc` starts the completed word at the edit range (it reads the range only
for items without `filterText`, so there is none) and keeps the words starting with
what was typed; Neovim 0.11 filters no item with an edit range, so the server filters
(`complete` with a limit), and it inserts a plain text only up to its first space, so
clients that take snippets get the text as one (`snippet_text`).

Right after `?[%{{` in a course that targets AI-Shifu's learner page
(`features/binding_spelling.py`), only keys the page reads are offered, and where it reads
only unpadded bindings (remark-flow 0.1.6 targeted) an item writes the key tight,
`%{{key}}`: the range starts right after `{{` (padding typed there is replaced) and ends
at the `}}`.

Ranking (`CompletionItem.sort_text`, and `doubt` for the items that are not real keys):
keys bound in this lesson, then keys bound in other lessons in course order, then keys
the host provides, then, labelled, keys that are doubtful: only read (never asked in a
lesson; a near miss of another key says so), bound only in a reference document, or
bound under a prefix the host reserves.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial

from mfls.features import gate_values, key_display
from mfls.features.at_offset import marker_at
from mfls.features.binding_spelling import spelling_of
from mfls.features.facts import PLACE_PROVIDED, PLACE_REFERENCE_BINDING, PLACE_RESERVED, facts_of
from mfls.syntax.keys import OPENING_SEQUENCE, WHITESPACE_CHARS
from mfls.syntax.model import BlockKind, ScanResult
from mfls.workspace.catalog import EN, LANGUAGES, counted, say
from mfls.workspace.index import CourseSnapshot, DocEntry, Memo, WorkspaceSnapshot
from mfls.workspace.overlay_mapping import GONE, Layered

_OPENER = len(OPENING_SEQUENCE)

# Sort text classes, first character.
LOCAL, LESSON, HOST, DOUBTFUL = "0", "1", "2", "3"


@dataclass(frozen=True, slots=True)
class CompletionItem:
    key: str  # the label
    sort_text: str
    detail: str
    documentation: str  # markdown
    kind: str  # "bound" | "host" | "doubtful"
    doubt: str = ""  # why a doubtful key is doubtful, in a few words ("" for a real key)


@dataclass(frozen=True)
class Completion:
    start: int  # the edit range every item replaces: the key typed so far
    end: int
    items: list[CompletionItem]
    is_incomplete: bool = False
    before: str = ""  # written before each key: the padding after `{{` when none is typed
    after: str = " }}"  # written after each key: padding and `}}` the marker still lacks
    closes_after: bool = False  # the text right after the edit range starts with `}`

    def new_text(self, key: str) -> str:
        """What accepting `key` writes over [start, end)."""
        after = self.after
        closes = after.startswith("}") if after else self.closes_after
        if key.endswith("}") and closes:
            after = " " + after
        return self.before + key + after

    def snippet_text(self, key: str) -> str:
        """`new_text(key)` as an LSP snippet (no tab stop: `$`, `}` and `\\` escaped)."""
        return _SNIPPET_SPECIAL.sub(r"\\\1", self.new_text(key))


_SNIPPET_SPECIAL = re.compile(r"([\\$}])")


@dataclass(frozen=True, slots=True)
class _Edit:
    """Where a key's completion writes, and the padding and closing it adds."""

    start: int
    end: int
    before: str
    after: str
    closes_after: bool


@dataclass(frozen=True)
class _Table:
    values: list[CompletionItem]  # never changed once built: copied, then edited
    positions: Layered[str, int]  # key -> index in `values`

    @cached_property
    def folded(self) -> list[str]:
        """The casefolded keys, by position."""
        return [item.key.casefold() for item in self.values]

    @cached_property
    def ranked(self) -> list[int]:
        """Positions in `values`, ordered by sort text."""
        values = self.values
        return sorted(range(len(values)), key=lambda i: values[i].sort_text)


def complete(
    snapshot: WorkspaceSnapshot,
    uri: str,
    offset: int,
    limit: int | None = None,
    language: str = EN,
) -> Completion | None:
    """Keys to insert at `offset` if it lies in a marker's body, else None; their details
    and doubts in `language`.

    With `limit` (the editors' requests), the items are filtered by what was typed of
    the key (a subsequence, case folded: Neovim 0.11 filters no item that has an edit
    range), at most `limit` are returned, and a filtered or cut list is marked
    incomplete so the editor asks again as typing goes on.
    """
    found = snapshot.entry(uri)
    if found is None:
        return None
    course, entry = found
    text = entry.text
    span = edit_range(text, entry.result_near(offset), offset)
    if span is None:
        return _gate_values(course, entry, offset, language)
    spelling = spelling_of(course.config)
    binding = page_binding(text, span[0])
    edit = key_edit(text, span, offset, tight=binding and not spelling.pads_bindings)
    # Where the learner page reads a binding, a key it cannot read is not offered.
    offered = spelling.writable if binding and spelling.for_page else None
    table = _table(course, language)
    local: dict[int, str] = {}
    if entry.kind == "lesson":
        for key, ordinal in entry.keys.first_binding.items():
            position = table.positions.get(key)
            if position is not None and table.values[position].kind == "bound":
                local[position] = f"{LOCAL}{ordinal:07d}"
    typed = text[edit.start : offset].strip(WHITESPACE_CHARS).casefold()
    own = _own_key(course, uri, edit, text[edit.start : edit.end])
    if limit is None or (len(table.values) <= limit and not typed):
        items = [
            _ranked(course, item, local.get(i), language)
            for i, item in enumerate(table.values)
            if item.key != own and (offered is None or offered(item.key))
        ]
        return _completion(edit, items, False)
    skipped = None if own is None else table.positions.get(own)
    picked = [
        i
        for i in _best(table, local, _matcher(typed), limit + 1)
        if i != skipped and (offered is None or offered(table.values[i].key))
    ]
    if len(picked) <= limit:
        picked.sort()
    items = [_ranked(course, table.values[i], local.get(i), language) for i in picked[:limit]]
    return _completion(edit, items, True)


def _own_key(course: CourseSnapshot, uri: str, edit: _Edit, typed: str) -> str | None:
    """The key of the marker being typed when that marker is its only use: it is not
    offered to itself."""
    key = typed.strip(WHITESPACE_CHARS)
    found = course.occurrences(key) if key else ()
    if len(found) != 1:
        return None
    only = found[0]
    inside = only.marker.start <= edit.start and edit.end <= only.marker.end
    return key if only.uri == uri and inside else None


def _gate_values(
    course: CourseSnapshot, entry: DocEntry, offset: int, language: str
) -> Completion | None:
    """AI-Shifu's gate values (`features/gate_values.py`), after `//` in an option."""
    span = gate_values.completion_span(entry, offset) if gate_values.gated(course) else None
    if span is None:
        return None
    gate = say(language, "completion.gate")
    items = [
        CompletionItem(
            value, f"{HOST}{value}", gate, gate_values.describe(value, language) or "", "host"
        )
        for value in gate_values.GATES
    ]
    return Completion(span[0], span[1], items, before="", after="")


def _completion(edit: _Edit, items: list[CompletionItem], incomplete: bool) -> Completion:
    return Completion(
        edit.start, edit.end, items, incomplete, edit.before, edit.after, edit.closes_after
    )


def page_binding(text: str, start: int) -> bool:
    """Whether the marker whose `{{` (or `%{{`) is at `start` is a `%{{` right after an
    unescaped `?[`: where the learner page reads a binding."""
    percent = start if text.startswith("%", start) else start - 1
    return (
        percent >= 2
        and text[percent] == "%"
        and text[percent - 2 : percent] == "?["
        and text[percent - 3 : percent - 2] != "\\"
    )


def key_edit(text: str, span: tuple[int, int], offset: int, *, tight: bool = False) -> _Edit:
    """The part of the marker `span` (from its `{{`, see `edit_range`) a key replaces:
    from the end of the padding typed after `{{` to the cursor, or to the end of the
    key already there. The padding written mirrors what was typed: `{{` alone gets
    `{{ key }}`, `{{Wh` gets `{{What...}}`. `tight`: no padding at all, from right after
    `{{` to the cursor (to the `}}` of a closed marker)."""
    start, end = span
    body = start + text.startswith("%", start) + _OPENER
    if tight:
        if text.startswith("}}", end - 2) and end - 2 >= offset:
            return _Edit(body, end - 2, "", "", True)
        return _Edit(body, offset, "", "}}", False)
    typed = text[body:offset]
    lead = len(typed) - len(typed.lstrip(WHITESPACE_CHARS))
    key_start = body + lead
    closed = text.startswith("}}", end - 2) and end - 2 >= offset
    if not closed:
        padded = lead > 0 or key_start == offset
        before = " " if lead == 0 and key_start == offset else ""
        return _Edit(key_start, offset, before, " }}" if padded else "}}", False)
    closing = end - 2
    inner = text[key_start:closing]
    key_end = max(offset, key_start + len(inner.rstrip(WHITESPACE_CHARS)))
    trail = key_end < closing
    empty = key_start == offset == key_end
    before = " " if lead == 0 and empty else ""
    padded = lead > 0 or empty
    after = "" if trail else (" " if padded else "")
    return _Edit(key_start, key_end, before, after, text.startswith("}", key_end))


def _best(
    table: _Table, local: dict[int, str], matches: Callable[[str], object] | None, limit: int
) -> list[int]:
    """Positions of the items that `matches` their casefolded key, by sort text, stopping
    at `limit` + 1. Items bound in the current lesson (`local`, whose sort texts start
    with LOCAL) come before every other item (whose sort texts start with a later class)."""
    folded = table.folded
    own = sorted((text, i) for i, text in local.items() if matches is None or matches(folded[i]))
    picked = [i for _, i in own]
    if len(picked) > limit:
        return picked
    for i in table.ranked:
        if i in local or (matches is not None and not matches(folded[i])):
            continue
        picked.append(i)
        if len(picked) > limit:
            break
    return picked


def _matcher(typed: str) -> Callable[[str], object] | None:
    """A test of whether `typed` is a subsequence of a casefolded key (None: no filter)."""
    if not typed:
        return None
    return re.compile(".*?".join(map(re.escape, typed)), re.DOTALL).search


def _ranked(
    course: CourseSnapshot, item: CompletionItem, local: str | None, language: str
) -> CompletionItem:
    """`item` with its sort text in this lesson, and a read-only key's near miss named
    (it depends on the other keys of the course, so it is found when asked)."""
    if local is not None:
        item = dataclasses.replace(item, sort_text=local)
    if item.doubt and item.doubt == say(language, "completion.doubt.never-asked"):
        near = facts_of(course).near(item.key)
        if near is not None:
            doubt = say(language, "completion.doubt.typo-of", key=near.key)
            item = dataclasses.replace(item, doubt=doubt, detail=f"{doubt} · {item.detail}")
    return item


def edit_range(text: str, result: ScanResult, offset: int) -> tuple[int, int] | None:
    """The span a completion replaces: the marker holding `offset` (with its `}}`), or,
    for an unclosed marker being typed, from its `{{` to the cursor."""
    if _in_code_block(result, offset):
        return None
    marker = marker_at(result, offset)
    if marker is not None:
        body_start = marker.opening[1]
        if body_start <= offset <= marker.closing[0]:
            # From the `{{`: a legacy binding keeps its `%`.
            return body_start - _OPENER, marker.end
    index = bisect_right(result.invalid, offset, key=lambda i: i.start) - 1
    if index >= 0:
        invalid = result.invalid[index]
        body_start = invalid.opening[1]
        closing = invalid.closing
        if closing is None:
            typing = body_start <= offset <= invalid.end or _spaces(text, invalid.end, offset)
            if typing and not _broken(text[body_start:offset]):
                return invalid.start, offset
        elif body_start <= offset <= closing[0]:
            return invalid.start, invalid.end
    return _typed_in_literal(text, result, offset)


def _typed_in_literal(text: str, result: ScanResult, offset: int) -> tuple[int, int] | None:
    """For a marker being typed inside a literal context (which reports no unclosed
    marker): from its `{{` to the cursor."""
    span = _literal_around(result, offset)
    if span is None:
        return None
    opener = text.rfind(OPENING_SEQUENCE, span[0], offset)
    if opener < 0:
        return None
    typed = text[opener + _OPENER : offset]
    if "}}" in typed or _broken(typed):
        return None
    return opener, offset


def _literal_around(result: ScanResult, offset: int) -> tuple[int, int] | None:
    """The span of the literal context (inline, or a raw HTML block's line) holding
    `offset`, its end included."""
    index = bisect_right(result.literals, offset - 1, key=lambda lit: lit.start) - 1
    if index >= 0:
        literal = result.literals[index]
        if literal.start < offset <= literal.end:
            return literal.start, literal.end
    index = bisect_right(result.blocks, offset, key=lambda b: b.start) - 1
    if index >= 0:
        block = result.blocks[index]
        if block.is_raw_html and offset <= block.end:
            for start, end in block.inline:
                if start <= offset <= end:
                    return start, end
    return None


def _spaces(text: str, start: int, end: int) -> bool:
    """True when [start, end) is spaces or tabs only: padding a paragraph's end drops."""
    return start <= end and not text[start:end].strip(" \t")


def _broken(typed: str) -> bool:
    """True when a line break follows typed key text: the cursor has left the marker."""
    stripped = typed.lstrip()
    return any(c in stripped for c in "\n\r\x85\u2028\u2029")


def _in_code_block(result: ScanResult, offset: int) -> bool:
    index = bisect_right(result.blocks, offset, key=lambda b: b.start) - 1
    if index >= 0:
        block = result.blocks[index]
        if offset <= block.end:
            if block.kind is BlockKind.INDENTED_CODE:
                return True
            if block.kind is BlockKind.FENCED_CODE:
                return not any(start <= offset <= end for start, end in block.inline)
    return False


def describe(course: CourseSnapshot, key: str, language: str = EN) -> tuple[str, str]:
    """(detail, kind) of a key: where it is bound and how often it is read."""
    detail, kind, _ = _describe(course, key, language)
    return detail, kind


def _describe(course: CourseSnapshot, key: str, language: str) -> tuple[str, str, str]:
    """(detail, kind, doubt) of a key: its standing in the facts, worded in `language`."""
    facts = facts_of(course)
    used = counted(language, "completion.read", len(facts.reading(key)))
    standing = facts.standing(key)
    if standing == PLACE_PROVIDED:
        return say(language, "completion.provided", host=facts.host_name, read=used), "host", ""
    bindings = facts.bindings_in_lessons(key) or facts.bindings_in_references(key)
    if not bindings:
        detail = say(language, "completion.not-bound", read=used)
        return detail, "doubtful", say(language, "completion.doubt.never-asked")
    first = min(bindings, key=course.position)
    where = course.docs[first.uri].label
    more = len({o.uri for o in bindings}) - 1
    if standing == PLACE_REFERENCE_BINDING:
        message_id = "completion.bound-in-reference" + (".more" if more else "")
        detail = say(language, message_id, where=where, more=more, read=used)
        return detail, "doubtful", say(language, "completion.doubt.reference-only")
    bound = say(language, "completion.bound-in" + (".more" if more else ""), where=where, more=more)
    if standing == PLACE_RESERVED:
        prefix = facts.reserved_prefix(key)
        doubt = say(language, "completion.doubt.reserved-prefix", prefix=prefix)
        reserved = say(language, "completion.reserved", prefix=prefix, host=facts.host_name)
        return f"{reserved} · {bound} · {used}", "doubtful", doubt
    return f"{bound} · {used}", "bound", ""


def _item(course: CourseSnapshot, language: str, key: str) -> CompletionItem | None:
    bindings = course.bindings.get(key, ())
    facts = facts_of(course)
    offered = (
        bindings
        or facts.provided(key)
        or any(facts.substituted(o.marker) for o in course.references.get(key, ()))
    )
    if not offered:
        return None
    detail, kind, doubt = _describe(course, key, language)
    first = facts.first_asking(key) if kind == "bound" else None
    if first is not None:
        entry = course.docs[first.uri]
        sort_text = f"{LESSON}{entry.order:07d}{entry.keys.first_binding[key]:07d}"
    else:
        sort_text = (HOST if kind == "host" else DOUBTFUL) + key
    notes = key_display.notes(key, language)
    documentation = key_display.fenced(key) + (
        "\n\n" + "\n".join(f"- {n}" for n in notes) if notes else ""
    )
    return CompletionItem(key, sort_text, detail, documentation, kind, doubt)


def _table(course: CourseSnapshot, language: str = EN) -> _Table:
    def build(previous: _Table | None, changed: frozenset[str] | None) -> _Table:
        if previous is None or changed is None:
            keys = set(course.bindings) | set(course.references) | set(course.host.provided_keys)
            values = [item for item in map(partial(_item, course, language), sorted(keys)) if item]
            return _Table(values, Layered({item.key: i for i, item in enumerate(values)}))
        if not changed:
            return previous
        return _updated(previous, {key: _item(course, language, key) for key in changed})

    return course.cache.get(_COMPLETION_TABLES.get(language, _COMPLETION_TABLES[EN]), build)


_COMPLETION_TABLES = {language: Memo(f"completion table {language}") for language in LANGUAGES}


def _updated(previous: _Table, fresh: dict[str, CompletionItem | None]) -> _Table:
    """`previous` with the items of `fresh` replaced, added or (None) removed. A removed
    item's slot takes the last item, so every other position stays."""
    values = previous.values.copy()
    positions = previous.positions
    for key, item in fresh.items():
        at = positions.get(key)
        if item is not None and at is not None:
            values[at] = item
        elif item is not None:
            positions = positions.updated({key: len(values)})
            values.append(item)
        elif at is not None:
            last = values.pop()
            if last.key == key:
                positions = positions.updated({key: GONE})
            else:
                values[at] = last
                positions = positions.updated({key: GONE, last.key: at})
    return _Table(values, positions)
