"""Expect-style snapshots: a whole rendering compared with the one stored.

`expect(actual, "hover/binding.md")` compares `actual` with the file
`snapshots/hover/binding.md` beside the calling test file; a difference fails with a
unified diff. Run the tests with `UPDATE_EXPECT=1` to write the files from what the tests
got (new ones included), then read the change in `git diff` before committing it:

    UPDATE_EXPECT=1 PYTHONPATH=$PWD python3 -m pytest -q tests/handlers

Without `UPDATE_EXPECT`, a missing snapshot fails: no test passes on a file it wrote.
The renderers turn LSP answers into text that reads as the editor shows it.
"""

from __future__ import annotations

import difflib
import inspect
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lsprotocol.types import CompletionItemKind

UPDATE = "UPDATE_EXPECT"


def updating() -> bool:
    return os.environ.get(UPDATE, "") not in ("", "0")


def expect(actual: str, name: str, *, snapshots: Path | None = None) -> None:
    """`actual` is the snapshot `name` (under `snapshots`, by default the `snapshots`
    folder beside the calling test file); `UPDATE_EXPECT=1` writes it instead."""
    if snapshots is None:
        snapshots = Path(inspect.stack()[1].filename).parent / "snapshots"
    path = snapshots / name
    if not actual.endswith("\n"):
        actual += "\n"
    stored = path.read_text(encoding="utf-8") if path.exists() else None
    if stored == actual:
        return
    if updating():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    if stored is None:
        raise AssertionError(f"no snapshot {path}; {UPDATE}=1 writes it from:\n{actual}")
    diff = difflib.unified_diff(
        stored.splitlines(), actual.splitlines(), str(path), "actual", lineterm=""
    )
    raise AssertionError(f"{path} differs ({UPDATE}=1 rewrites it):\n" + "\n".join(diff))


def span(range_: Mapping[str, Any]) -> str:
    """An LSP range as `line:character-line:character` (0-based, as sent)."""
    start, end = range_["start"], range_["end"]
    return f"{start['line']}:{start['character']}-{end['line']}:{end['character']}"


def render_hover(hover: Mapping[str, Any] | None) -> str:
    """A hover as the range it covers, then its whole markdown."""
    if hover is None:
        return "no hover"
    contents = hover["contents"]
    head = f"range {span(hover['range'])}" if "range" in hover else "no range"
    return f"{head} ({contents['kind']})\n---\n{contents['value']}"


def render_completion(result: Mapping[str, Any] | list[Any] | None) -> str:
    """A completion list as the client shows it, in its order (sort text, then label),
    one item a line: label, kind, detail, the edit's range and text (`snippet` when it
    is a snippet, `preselect` when preselected); first whether the list is incomplete."""
    if result is None:
        return "no completion"
    items = result if isinstance(result, list) else result["items"]
    incomplete = False if isinstance(result, list) else result.get("isIncomplete", False)
    lines = [f"incomplete: {str(incomplete).lower()}"]
    for item in sorted(items, key=lambda i: (i.get("sortText") or i["label"], i["label"])):
        kind = CompletionItemKind(item["kind"]).name if "kind" in item else "-"
        snippet = " snippet" if item.get("insertTextFormat") == 2 else ""
        snippet += " preselect" if item.get("preselect") else ""
        edit = item.get("textEdit")
        if edit is None:
            change = f"insert {item.get('insertText', item['label'])!r}"
        else:
            where = edit.get("range") or edit.get("insert")
            change = f"{span(where)} {edit['newText']!r}"
        detail = item.get("detail") or "-"
        lines.append(f"{item['label']} | {kind} | {detail} | {change}{snippet}")
    return "\n".join(lines)
