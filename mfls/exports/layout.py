"""An AI-Shifu export as the files of a course folder (pure: relative paths and bytes).

The folder holds:

- `mfcourse.toml`: `host = "ai-shifu"`, `lessons` listing every lesson file in the
  export's structure order (a hidden item's line says `# hidden`; items no structure
  node names come last, marked `# not in the structure`), `references` for the prompts;
- one file per outline item, named `NN-<title>.md` (`NN` its place among its siblings,
  from 01); an item with children is a folder `NN-<title>/`, and its own content, when
  it has any, is `NN-<title>/00-<title>.md`. Titles become names by
  `mfls.exports.names.safe_stem`;
- the prompts (`llm_system_prompt`) that are not empty: the course's in
  `prompts/course.md`, an item's at its file's path under `prompts/`;
- `MANIFEST` (`.mfls/ai-shifu-export.json`): the export itself, every field in its
  order, where each text held by a file is replaced by `{"mfls_file": "<path>"}`, and the
  JSON layout of the export file (`json_format`), so `packing.pack` writes it back as it
  came.

A file holds its text exactly: UTF-8 (a lone surrogate as its surrogate bytes), line
ends and byte order mark as they are in the export.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from mfls.exports.ai_shifu import Export, Node
from mfls.exports.json_text import iter_json
from mfls.exports.names import UniqueNames, safe_stem
from mfls.workspace.config import COURSE_FILE

MANIFEST: Final = ".mfls/ai-shifu-export.json"
MANIFEST_KIND: Final = "mfls ai-shifu export"
MANIFEST_VERSION: Final = 1
FILE_KEY: Final = "mfls_file"
PROMPTS: Final = "prompts"
COURSE_PROMPT: Final = f"{PROMPTS}/course.md"
SUFFIX: Final = ".md"
PROMPT_FIELD: Final = "llm_system_prompt"
CONTENT_FIELD: Final = "content"


@dataclass(frozen=True, slots=True)
class Placed:
    """A file of the folder holding one text of the export: the item's index in
    `outline_items` (None for the course prompt), the field, and the item's title."""

    path: str
    item: int | None
    field: str
    title: str
    bid: str
    lesson: bool


@dataclass(frozen=True, slots=True)
class CourseFolder:
    """The folder's files (relative POSIX path -> bytes) and which text each one holds,
    lessons first in course order."""

    files: dict[str, bytes]
    placed: tuple[Placed, ...]


def encode_text(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogatepass")


def decode_text(data: bytes) -> str | None:
    """The text of a file written by `encode_text`; None when it is not UTF-8."""
    try:
        return data.decode("utf-8", errors="surrogatepass")
    except UnicodeDecodeError:
        return None


@dataclass
class _Plan:
    export: Export
    lessons: list[tuple[str, str]] = field(default_factory=list)  # path, comment
    placed: list[Placed] = field(default_factory=list)


def _width(count: int) -> int:
    return max(2, len(str(count)))


_Level = tuple[str, Iterator[tuple[int, Node]], UniqueNames, int]
"""A folder being filled: its path, its nodes still to place (numbered), its names."""


def _place_outline(plan: _Plan, nodes: Sequence[Node]) -> None:
    """Every node of the outline in structure order, each folder's names distinct (an
    explicit stack: chapters may nest as deep as the export goes)."""
    stack: list[_Level] = [("", enumerate(nodes, start=1), UniqueNames(), _width(len(nodes)))]
    while stack:
        folder, numbered, names, width = stack[-1]
        entry = next(numbered, None)
        if entry is None:
            stack.pop()
            continue
        number, node = entry
        item = plan.export.items[node.item]
        stem = f"{number:0{width}d}-{safe_stem(item['title'])}"
        if not node.children:
            _place_item(plan, node.item, folder + names.take(stem, SUFFIX))
            continue
        directory = folder + names.take(stem) + "/"
        inner = _width(len(node.children))
        if item[CONTENT_FIELD]:
            _place_item(plan, node.item, directory + f"{0:0{inner}d}-{stem[width + 1 :]}")
        stack.append((directory, enumerate(node.children, start=1), UniqueNames(), inner))


def _place_item(plan: _Plan, index: int, path: str, comment: str = "") -> None:
    item = plan.export.items[index]
    if not path.endswith(SUFFIX):
        path += SUFFIX
    if item.get("hidden"):
        comment = "hidden" + (f"; {comment}" if comment else "")
    plan.lessons.append((path, comment))
    title, bid = item["title"], item["outline_item_bid"]
    plan.placed.append(Placed(path, index, CONTENT_FIELD, title, bid, True))
    if item.get(PROMPT_FIELD):
        plan.placed.append(Placed(f"{PROMPTS}/{path}", index, PROMPT_FIELD, title, bid, False))


def _toml_string(text: str) -> str:
    text = "".join("\ufffd" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _comment(text: str) -> str:
    return "".join(ch if ch.isprintable() else " " for ch in text)


def _course_file(export: Export, lessons: Sequence[tuple[str, str]], source: str) -> str:
    lines = [
        f"# An AI-Shifu course, unpacked by `mfls unpack` from {_comment(source)}.",
        "# Edit the lesson files, then write the export back with `mfls pack`.",
        "# Lessons run in this order (the export's structure). Files added here are",
        "# not packed: new outline items are made on the platform.",
        f"name = {_toml_string(export.shifu['title'])}",
        'host = "ai-shifu"',
        "lessons = [",
    ]
    for path, comment in lessons:
        lines.append(f"  {_toml_string(path)}," + (f"  # {comment}" if comment else ""))
    lines += ["]", f"references = [{_toml_string(PROMPTS + '/**/*' + SUFFIX)}]", ""]
    return "\n".join(lines)


JSON_FORMATS: Final = tuple(
    {"indent": indent, "ensure_ascii": ascii_only, "final_newline": newline}
    for indent in (2, 4, None, "\t")
    for ascii_only in (False, True)
    for newline in (True, False)
)
DEFAULT_FORMAT: Final = JSON_FORMATS[0]


def _chunks(value: Any, layout: dict[str, Any]) -> Iterator[bytes]:
    """`dump_json`'s bytes in pieces."""
    for text in iter_json(value, layout["indent"], bool(layout["ensure_ascii"])):
        # A lone surrogate can only stand in a string: written as its JSON escape.
        yield text.encode("utf-8", errors="backslashreplace")
    if layout["final_newline"]:
        yield b"\n"


def dump_json(value: Any, layout: dict[str, Any]) -> bytes:
    """`value` as `json.dumps` writes it with `layout`, at any depth."""
    return b"".join(_chunks(value, layout))


def _writes(value: Any, layout: dict[str, Any], source: bytes) -> bool:
    """Whether `dump_json(value, layout) == source`, stopping at the first difference."""
    at = 0
    for chunk in _chunks(value, layout):
        end = at + len(chunk)
        if source[at:end] != chunk:
            return False
        at = end
    return at == len(source)


def json_format(value: Any, source: bytes) -> dict[str, Any]:
    """The layout of `json.dumps` that writes `value` as `source` byte for byte (the
    platform's is indent 2, not ASCII-only, a final newline), or the platform's."""
    for layout in JSON_FORMATS:
        if _writes(value, layout, source):
            return dict(layout)
    return dict(DEFAULT_FORMAT)


def unpack(export: Export, source: bytes, source_name: str) -> CourseFolder:
    """The course folder of `export` (read from the bytes `source`, a file called
    `source_name`)."""
    plan = _Plan(export)
    _place_outline(plan, export.outline)
    if export.unlisted:
        width = _width(len(export.outline) + len(export.unlisted))
        names = UniqueNames()
        for number, index in enumerate(export.unlisted, start=len(export.outline) + 1):
            stem = f"{number:0{width}d}-{safe_stem(export.items[index]['title'])}"
            _place_item(plan, index, names.take(stem, SUFFIX), "not in the structure")
    placed = plan.placed
    if export.shifu.get(PROMPT_FIELD):
        title = export.shifu["title"]
        bid = export.shifu.get("shifu_bid")
        placed.append(
            Placed(
                COURSE_PROMPT, None, PROMPT_FIELD, title, bid if isinstance(bid, str) else "", False
            )
        )
    # The manifest's export: a copy of each table that gets a file's reference, the
    # rest shared with `export.data` (neither is changed later).
    stored = dict(export.data)
    shifu = stored["shifu"] = dict(export.shifu)
    items = stored["outline_items"] = list(export.items)
    copied: set[int] = set()
    files: dict[str, bytes] = {}
    for place in placed:
        if place.item is None:
            table = shifu
        else:
            if place.item not in copied:
                items[place.item] = dict(items[place.item])
                copied.add(place.item)
            table = items[place.item]
        files[place.path] = encode_text(table[place.field])
        table[place.field] = {FILE_KEY: place.path}
    manifest = {
        "manifest": MANIFEST_KIND,
        "manifest_version": MANIFEST_VERSION,
        "export_file": source_name,
        "json_format": json_format(export.data, source),
        "export": stored,
    }
    files[COURSE_FILE] = _course_file(export, plan.lessons, source_name).encode("utf-8")
    files[MANIFEST] = dump_json(manifest, {**DEFAULT_FORMAT, "ensure_ascii": False})
    return CourseFolder(files, tuple(placed))
