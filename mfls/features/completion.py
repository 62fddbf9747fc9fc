"""Completion of memory keys inside a marker being typed."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial

from mfls.features import key_display
from mfls.features.at_offset import marker_at
from mfls.syntax.keys import OPENING_SEQUENCE
from mfls.syntax.model import BlockKind, ScanResult
from mfls.workspace.index import CourseSnapshot, WorkspaceSnapshot
from mfls.workspace.overlay_mapping import GONE, Layered

_OPENER = len(OPENING_SEQUENCE)


@dataclass(frozen=True, slots=True)
class CompletionItem:
    key: str  # the label
    new_text: str  # `{{ key }}`, inserted over the completion's edit range
    filter_text: str
    sort_text: str
    detail: str
    documentation: str  # markdown
    kind: str  # "bound" | "host" | "referenced"


@dataclass(frozen=True)
class Completion:
    start: int  # the edit range every item replaces
    end: int
    items: list[CompletionItem]
    is_incomplete: bool = False


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
    snapshot: WorkspaceSnapshot, uri: str, offset: int, limit: int | None = None
) -> Completion | None:
    """Keys to insert at `offset` if it lies in a marker's body, else None.

    With `limit`, at most that many items are returned, filtered by what was typed, and
    the list is marked incomplete so the editor asks again as typing goes on.
    """
    found = snapshot.entry(uri)
    if found is None:
        return None
    course, entry = found
    text = entry.text
    span = edit_range(text, entry.result_near(offset), offset)
    if span is None:
        return None
    table = _table(course)
    local: dict[int, str] = {}
    for key, ordinal in entry.keys.first_binding.items():
        position = table.positions.get(key)
        if position is not None:
            local[position] = f"0{ordinal:07d}"
    if limit is None or len(table.values) <= limit:
        items = [_with_sort_text(item, local.get(i)) for i, item in enumerate(table.values)]
        return Completion(span[0], span[1], items, False)
    typed = text[span[0] + _OPENER : offset].strip().casefold()
    picked = _best(table, local, _matcher(typed), limit)
    if len(picked) <= limit:
        picked.sort()
    items = [_with_sort_text(table.values[i], local.get(i)) for i in picked[:limit]]
    return Completion(span[0], span[1], items, True)


def _best(
    table: _Table, local: dict[int, str], matches: Callable[[str], object] | None, limit: int
) -> list[int]:
    """Positions of the items that `matches` their casefolded key, by sort text, stopping
    at `limit` + 1. Items bound in the current document (`local`, whose sort texts start
    with "0") come before every other item (whose sort texts start with "1" to "3")."""
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


def _with_sort_text(item: CompletionItem, sort_text: str | None) -> CompletionItem:
    if sort_text is None:
        return item
    return CompletionItem(
        item.key,
        item.new_text,
        item.filter_text,
        sort_text,
        item.detail,
        item.documentation,
        item.kind,
    )


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
            if body_start <= offset <= invalid.end and not _broken(text[body_start:offset]):
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


def describe(course: CourseSnapshot, key: str) -> tuple[str, str]:
    """(detail, kind) of a key: where it is bound and how often it is read."""
    bindings = course.bindings.get(key, ())
    substitutes = course.host.substitutes
    uses = sum(1 for o in course.references.get(key, ()) if substitutes(o.marker))
    used = f"read {uses}×" if uses != 1 else "read once"
    if bindings:
        first = min(bindings, key=course.position)
        where = course.docs[first.uri].label
        documents = {o.uri for o in bindings}
        more = f" and {len(documents) - 1} more" if len(documents) > 1 else ""
        return f"bound in {where}{more} · {used}", "bound"
    if course.host.provides(key):
        return f"provided by {course.host.title or course.host.name} · {used}", "host"
    return f"not bound in this course · {used}", "referenced"


def _item(course: CourseSnapshot, key: str) -> CompletionItem | None:
    bindings = course.bindings.get(key, ())
    offered = (
        bindings
        or course.host.provides(key)
        or any(course.host.substitutes(o.marker) for o in course.references.get(key, ()))
    )
    if not offered:
        return None
    detail, kind = describe(course, key)
    if bindings:
        first = course.docs[bindings[0].uri]
        sort_text = f"1{first.order:07d}{first.keys.first_binding[key]:07d}"
    else:
        sort_text = ("2" if kind == "host" else "3") + key
    notes = key_display.notes(key)
    documentation = key_display.fenced(key) + (
        "\n\n" + "\n".join(f"- {n}" for n in notes) if notes else ""
    )
    return CompletionItem(
        key, f"{{{{ {key} }}}}", f"{{{{ {key}", sort_text, detail, documentation, kind
    )


def _table(course: CourseSnapshot) -> _Table:
    def build(previous: _Table | None, changed: frozenset[str] | None) -> _Table:
        if previous is None or changed is None:
            keys = set(course.bindings) | set(course.references) | set(course.host.provided_keys)
            values = [item for item in map(partial(_item, course), sorted(keys)) if item]
            return _Table(values, Layered({item.key: i for i, item in enumerate(values)}))
        if not changed:
            return previous
        return _updated(previous, {key: _item(course, key) for key in changed})

    return course.cache.get("completion", build)


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
