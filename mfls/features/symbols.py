"""Document symbols (headings, interactions, bindings) and workspace symbols (keys)."""

from __future__ import annotations

from dataclasses import dataclass, field

from mfls.features.lesson_structure import structure_of
from mfls.syntax.model import BlockKind, Interaction, ScanResult
from mfls.workspace.ai_shifu_structure import Structure
from mfls.workspace.index import WorkspaceSnapshot

NAME_LENGTH = 60


@dataclass(frozen=True)
class DocumentSymbol:
    name: str
    kind: str  # "heading" | "interaction" | "binding" | "block" (an AI-Shifu prompt block)
    start: int
    end: int
    selection_start: int
    selection_end: int
    detail: str = ""
    children: tuple[DocumentSymbol, ...] = ()


@dataclass(frozen=True)
class WorkspaceSymbol:
    name: str  # the key
    kind: str  # "binding" (bound in the course) | "reference" (only read)
    uri: str
    start: int  # the key range of its first binding, else of its first reference
    end: int
    container: str  # the course name


@dataclass
class _Node:
    level: int
    name: str
    kind: str
    span: tuple[int, int, int, int]
    detail: str = ""
    children: list[_Node] = field(default_factory=list)

    def frozen(self) -> DocumentSymbol:
        return DocumentSymbol(
            self.name,
            self.kind,
            *self.span,
            self.detail,
            tuple(child.frozen() for child in self.children),
        )


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= NAME_LENGTH else text[: NAME_LENGTH - 1] + "…"


def _interaction(node: Interaction) -> _Node:
    choices = " | ".join(c.label for c in node.choices)
    parts = [choices] if choices else []
    if node.input is not None:
        parts.append("..." + node.input)
    body = " ".join(parts)
    mode = "multiple choice" if node.multiple else "single choice" if node.choices else "input"
    name = _short(node.binding) if node.binding else _short(f"?[{body}]")
    symbol = _Node(7, name, "interaction", (node.start, node.end, node.start, node.end), mode)
    marker = node.binding_marker
    if marker is not None:
        symbol.detail = f"{mode}: {_short(body)}" if body else mode
        symbol.span = (node.start, node.end, marker.key_start, marker.key_end)
        symbol.children.append(
            _Node(
                8,
                marker.key,
                "binding",
                (marker.start, marker.end, marker.key_start, marker.key_end),
                "binding",
            )
        )
    return symbol


def outline(
    text: str, result: ScanResult, start: int = 0, end: int | None = None
) -> list[DocumentSymbol]:
    """Headings and interactions starting in `[start, end)`, headings nested by level."""
    limit = len(text) if end is None else end
    items: list[tuple[int, _Node]] = []
    for block in result.blocks:
        if block.kind is BlockKind.HEADING and start <= block.start < limit:
            title = "".join(text[s:e] for s, e in block.inline)
            selection = (
                (block.inline[0][0], block.inline[-1][1])
                if block.inline
                else (
                    block.start,
                    block.end,
                )
            )
            name = _short(title) or "(empty heading)"
            items.append(
                (
                    block.start,
                    _Node(
                        block.level,
                        name,
                        "heading",
                        (block.start, min(block.end, limit), *selection),
                    ),
                )
            )
    for interaction in result.interactions:
        if start <= interaction.start < limit:
            items.append((interaction.start, _interaction(interaction)))
    items.sort(key=lambda pair: pair[0])
    roots: list[_Node] = []
    stack: list[_Node] = []
    for _, node in items:
        while stack and stack[-1].level >= node.level:
            stack.pop()
        (stack[-1].children if stack else roots).append(node)
        if node.kind == "heading":
            stack.append(node)
    _extend(roots, limit)
    return [node.frozen() for node in roots]


def block_outline(text: str, result: ScanResult, structure: Structure) -> list[DocumentSymbol]:
    """One symbol per prompt block ("Block 2 (fixed output)"), its headings and
    interactions inside."""
    found: list[DocumentSymbol] = []
    for block in structure.blocks:
        name = f"Block {block.ordinal + 1}" + (" (fixed output)" if block.fixed else "")
        first_line = text[block.start : block.end].split("\n", 1)[0]
        found.append(
            DocumentSymbol(
                name,
                "block",
                block.start,
                block.end,
                block.start,
                block.start + len(first_line),
                _short(first_line),
                tuple(outline(text, result, block.start, block.end)),
            )
        )
    return found


def _extend(nodes: list[_Node], limit: int) -> None:
    """A heading's range runs to the next heading among its siblings (or `limit`)."""
    next_start = limit
    for node in reversed(nodes):
        if node.kind != "heading":
            continue
        end = max(next_start, node.span[1])
        node.span = (node.span[0], end, node.span[2], node.span[3])
        _extend(node.children, end)
        next_start = node.span[0]


def document_symbols(snapshot: WorkspaceSnapshot, uri: str) -> list[DocumentSymbol]:
    found = snapshot.entry(uri)
    if found is None:
        return []
    course, entry = found
    structure = structure_of(course, entry)
    # One block with no fixed output has no structure worth a level of its own.
    if structure is not None and (
        len(structure.blocks) > 1 or any(b.spans for b in structure.blocks)
    ):
        return block_outline(entry.text, entry.result, structure)
    return outline(entry.text, entry.result)


def _matches(query: str, key: str) -> bool:
    position = 0
    for char in query:
        position = key.find(char, position) + 1
        if position == 0:
            return False
    return True


def workspace_symbols(
    snapshot: WorkspaceSnapshot, query: str, limit: int = 1000
) -> list[WorkspaceSymbol]:
    """Keys of every course whose text holds `query`'s characters in order (any case)."""
    wanted = query.casefold()
    found: list[WorkspaceSymbol] = []
    for course in sorted(snapshot.courses.values(), key=lambda c: c.name):
        for key in course.all_keys():
            if wanted and not _matches(wanted, key.casefold()):
                continue
            bindings = course.bindings.get(key, ())
            kind = "binding" if bindings else "reference"
            occurrences = bindings or course.references.get(key, ())
            first = min(occurrences, key=course.position)
            found.append(
                WorkspaceSymbol(
                    key, kind, first.uri, first.marker.key_start, first.marker.key_end, course.name
                )
            )
            if len(found) >= limit:
                return found
    return found
