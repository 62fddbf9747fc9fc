"""An AI-Shifu course export: reading it, and the rules it must keep.

The platform exports a course as one JSON object (`export_shifu` in its
`src/api/flaskr/service/shifu/shifu_import_export_funcs.py`):
`{version, exported_at, shifu{...}, outline_items[...], structure{...}}`. Its import
needs `shifu` (with a `title`) and `outline_items` (each with an `outline_item_bid`);
mfls also needs what it reads: a known `version`, every item's `title` and `content` as
text, and a `structure` tree whose `outline` nodes name items of the export, each once.
Everything else (unknown fields too) is kept as it came, in its order.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final

from mfls.exports.json_text import nesting
from mfls.text.json_nesting import TooDeep, loads_within

KNOWN_VERSIONS: Final = ("1.0",)
"""The export versions mfls reads (the platform writes "1.0")."""

OUTLINE: Final = "outline"
"""The structure node type of an outline item (a chapter or a lesson)."""


@dataclass(frozen=True, slots=True)
class ExportProblem:
    """Why a file is not a usable AI-Shifu export: one sentence for the user."""

    message: str


@dataclass(frozen=True, slots=True)
class Node:
    """One outline item in structure order: its index in `outline_items`, its children."""

    item: int
    children: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Export:
    """A valid export: the parsed JSON as it came (`data`), and its outline as a tree.

    `outline` lists the items in structure order; `unlisted` the items of
    `outline_items` that no structure node names, in their order there.
    """

    data: dict[str, Any]
    outline: tuple[Node, ...]
    unlisted: tuple[int, ...]

    @property
    def items(self) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = self.data["outline_items"]
        return items

    @property
    def shifu(self) -> dict[str, Any]:
        shifu: dict[str, Any] = self.data["shifu"]
        return shifu

    def walk(self) -> Iterator[tuple[int, Node]]:
        """Every outline node in structure order, with its depth (0 at the top)."""
        pending = [(0, node) for node in reversed(self.outline)]
        while pending:
            depth, node = pending.pop()
            yield depth, node
            pending.extend((depth + 1, child) for child in reversed(node.children))


MAX_NESTING: Final = 800
"""How deep objects and lists may nest in an export. Every step of mfls walks an export
without recursion; the limit leaves room for `json.loads` (which recurses, within
Python's limit of 1,000 frames, and within the far smaller stack of the playground's
Pyodide) to read the folder's manifest, which holds the export one level deeper. Text
nested deeper is refused before `json.loads` sees it (`loads_within`)."""


class _NotJsonNumber(ValueError):
    """A number too large for a float: read, it is infinity, which JSON cannot write."""


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _NotJsonNumber(text)
    return value


def _too_deep(depth: int, most: int) -> ExportProblem:
    return ExportProblem(
        f"nested too deep to read: objects and lists nest {depth} levels deep; mfls reads "
        f"exports nested up to {most} levels"
    )


def parse_json(data: bytes, most: int = MAX_NESTING) -> Any | ExportProblem:
    """The JSON value of `data` (UTF-8, a BOM allowed), or why it is not JSON. Text
    nested more than `most` levels is refused before it is read. A number too large for
    a float (`1e400`) is refused: written back it would be `Infinity`."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return ExportProblem(f"not UTF-8 text (byte {error.start})")
    try:
        return loads_within(text, most, parse_constant=_reject_constant, parse_float=_finite)
    except TooDeep as error:
        return _too_deep(error.depth, MAX_NESTING)
    except _NotJsonNumber as error:
        return ExportProblem(
            f"the number {_shortened(str(error))} is too large: it would be read as "
            "infinity, which JSON cannot write back"
        )
    except ValueError as error:
        return ExportProblem(f"not JSON ({error})")


def _shortened(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def looks_like_export(value: Any) -> bool:
    """Whether a JSON value is meant as an AI-Shifu export (valid or not)."""
    return isinstance(value, dict) and "outline_items" in value and "shifu" in value


def read_export(data: bytes) -> Export | ExportProblem:
    """The export in `data`, or the first rule it breaks."""
    value = parse_json(data)
    if isinstance(value, ExportProblem):
        return value
    return validate(value)


def validate(value: Any) -> Export | ExportProblem:
    """`value` (parsed JSON) as an `Export`, or the first rule it breaks."""
    if not isinstance(value, dict):
        return ExportProblem("not an AI-Shifu export: the JSON is not an object")
    depth = nesting(value)
    if depth > MAX_NESTING:
        return _too_deep(depth, MAX_NESTING)
    missing = [k for k in ("version", "shifu", "outline_items", "structure") if k not in value]
    if missing:
        return ExportProblem(f"not an AI-Shifu export: no {', '.join(map(repr, missing))} field")
    version = value["version"]
    if version not in KNOWN_VERSIONS:
        known = ", ".join(map(repr, KNOWN_VERSIONS))
        return ExportProblem(f"unknown export version {version!r} (mfls reads {known})")
    shifu = value["shifu"]
    if not isinstance(shifu, dict):
        return ExportProblem("`shifu` is not an object")
    if not isinstance(shifu.get("title"), str):
        return ExportProblem("`shifu.title` is missing or not text")
    if not _optional_text(shifu, "llm_system_prompt"):
        return ExportProblem("`shifu.llm_system_prompt` is not text")
    items = value["outline_items"]
    if not isinstance(items, list):
        return ExportProblem("`outline_items` is not a list")
    by_bid: dict[str, int] = {}
    for index, item in enumerate(items):
        where = f"outline_items[{index}]"
        if not isinstance(item, dict):
            return ExportProblem(f"{where} is not an object")
        bid = item.get("outline_item_bid")
        if not isinstance(bid, str) or not bid:
            return ExportProblem(f"{where}: `outline_item_bid` is missing or not text")
        if bid in by_bid:
            return ExportProblem(f"{where}: outline item {bid!r} appears twice")
        by_bid[bid] = index
        for name in ("title", "content"):
            if name not in item:
                return ExportProblem(f"{where} ({bid}): no `{name}` field")
            if not isinstance(item[name], str):
                return ExportProblem(f"{where} ({bid}): `{name}` is not text")
        if not _optional_text(item, "llm_system_prompt"):
            return ExportProblem(f"{where} ({bid}): `llm_system_prompt` is not text")
    structure = value["structure"]
    if not isinstance(structure, dict):
        return ExportProblem("`structure` is not an object")
    seen: set[str] = set()
    outline = _nodes(structure, "structure", by_bid, seen)
    if isinstance(outline, ExportProblem):
        return outline
    unlisted = tuple(i for bid, i in by_bid.items() if bid not in seen)
    return Export(value, outline, unlisted)


def _optional_text(table: dict[str, Any], name: str) -> bool:
    return table.get(name) is None or isinstance(table[name], str)


def _children(node: dict[str, Any], where: str) -> list[Any] | ExportProblem:
    children = node.get("children", [])
    if children is None:
        return []
    if not isinstance(children, list):
        return ExportProblem(f"{where}.children is not a list")
    return children


@dataclass(slots=True)
class _Visit:
    """A structure node being walked: its children, the next one, the outline found."""

    node: dict[str, Any]
    where: str
    children: list[Any]
    next: int = 0
    found: list[Node] = field(default_factory=list)


def _nodes(
    top: dict[str, Any], where: str, by_bid: dict[str, int], seen: set[str]
) -> tuple[Node, ...] | ExportProblem:
    """The outline nodes below `top`, walked depth first with an explicit stack (a
    node's subtree before the node itself); other node types (blocks) are passed
    through, their outline nodes lifted to their parent's level."""
    children = _children(top, where)
    if isinstance(children, ExportProblem):
        return children
    stack = [_Visit(top, where, children)]
    while True:
        visit = stack[-1]
        if visit.next < len(visit.children):
            place = f"{visit.where}.children[{visit.next}]"
            child = visit.children[visit.next]
            visit.next += 1
            if not isinstance(child, dict):
                return ExportProblem(f"{place} is not an object")
            below = _children(child, place)
            if isinstance(below, ExportProblem):
                return below
            stack.append(_Visit(child, place, below))
            continue
        stack.pop()
        if not stack:
            return tuple(visit.found)
        parent = stack[-1]
        node, place = visit.node, visit.where
        if node.get("type") != OUTLINE:
            parent.found.extend(visit.found)
            continue
        bid = node.get("bid")
        if not isinstance(bid, str) or bid not in by_bid:
            return ExportProblem(f"{place} names outline item {bid!r}, which the export lacks")
        if bid in seen:
            return ExportProblem(f"{place} names outline item {bid!r} a second time")
        seen.add(bid)
        parent.found.append(Node(by_bid[bid], tuple(visit.found)))
