"""Building AI-Shifu exports for tests, in the platform's own shape (its `export_shifu`),
and finding the platform's two real demo exports (`SHARED`, `needs_shared`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from mfls.exports.ai_shifu import ExportProblem, read_export
from mfls.exports.layout import CourseFolder, unpack
from mfls.exports.packing import pack
from tests.ai_shifu_exports import shared_exports

_EXPORTS = shared_exports()
SHARED = _EXPORTS if _EXPORTS is not None and (_EXPORTS / "en_demo.json").is_file() else None
"""The folder of the real exports (`en_demo.json`, `zh_demo.json`), when it is here."""
needs_shared = pytest.mark.skipif(SHARED is None, reason="the demo course exports are not here")


def _model_fields(prompt: str) -> dict[str, Any]:
    """The model settings an outline item and the course both carry."""
    return {
        "llm": "",
        "llm_temperature": 0.3,
        "llm_system_prompt": prompt,
        "ask_enabled_status": 5101,
        "ask_llm": "",
        "ask_llm_temperature": 0.3,
        "ask_llm_system_prompt": "",
    }


def item(
    bid: str,
    title: str,
    content: str = "",
    *,
    parent: str = "",
    position: str = "01",
    hidden: int = 0,
    prompt: str = "",
    **extra: Any,
) -> dict[str, Any]:
    return {
        "outline_item_bid": bid,
        "title": title,
        "type": 401,
        "hidden": hidden,
        "parent_bid": parent,
        "position": position,
        "prerequisite_item_bids": "",
        **_model_fields(prompt),
        "content": content,
        **extra,
    }


def node(bid: str, children: Sequence[dict[str, Any]] = (), ident: int = 1) -> dict[str, Any]:
    return {
        "bid": bid,
        "id": ident,
        "type": "outline",
        "children": list(children),
        "child_count": 0,
    }


def export(
    items: Sequence[dict[str, Any]],
    structure: Sequence[dict[str, Any]],
    *,
    title: str = "A course",
    prompt: str = "",
    **extra: Any,
) -> dict[str, Any]:
    return {
        "version": "1.0",
        "exported_at": "2025-11-29T09:28:47.702051",
        "shifu": {
            "shifu_bid": "shifu0",
            "title": title,
            "keywords": "",
            "description": "",
            "avatar_res_bid": "",
            **_model_fields(prompt),
            "price": 0.0,
        },
        "outline_items": list(items),
        "structure": {
            "bid": "shifu0",
            "id": 1,
            "type": "shifu",
            "children": list(structure),
            "child_count": 0,
        },
        **extra,
    }


def dumps(value: Any) -> bytes:
    """As the platform writes it: indent 2, not ASCII-only, a final newline."""
    return (json.dumps(value, ensure_ascii=False, indent=2) + "\n").encode(
        "utf-8", errors="backslashreplace"
    )


def unpacked(data: bytes, name: str = "course.json") -> CourseFolder:
    loaded = read_export(data)
    assert not isinstance(loaded, ExportProblem), loaded
    return unpack(loaded, data, name)


def packed(files: dict[str, bytes]) -> bytes:
    out = pack(lambda path: files[path] if path in files else ExportProblem("missing"))
    assert not isinstance(out, ExportProblem), out
    return out


NASTY_TITLES = [
    "../../escape",
    "a/b",
    "back\\slash",
    "two\nlines",
    "ctrl\x01\x1b[31m",
    ".dotfile",
    "Same",
    "same",
    "SAME",
    "CON",
    "nul",
    "trailing dots...",
    "trailing space ",
    "é" * 300,
    "🎉🎉🎉",
    "",
    "   ",
    '<>:"|?*',
    "{{ key }}",
    "\u202ertl",
]


def nasty_export() -> dict[str, Any]:
    items = [item("ch", "Chapter/One", "chapter text\r\n", prompt="chapter prompt")]
    children = []
    for number, title in enumerate(NASTY_TITLES):
        bid = f"b{number}"
        items.append(
            item(
                bid,
                title,
                f"lesson {number}\r\nline {{{{k{number}}}}}\n\ufeffmid\x00",
                parent="ch",
                hidden=number % 3 == 0,
                prompt="be kind" if number % 2 else "",
                future_field={"nested": [number]},
            )
        )
        children.append(node(bid))
    items.append(item("loose", "Not in the structure", "orphan"))
    items.append(item("top", "CON", "top level"))
    structure = [node("ch", children), node("top")]
    return export(items, structure, title='Course\nwith "quotes"', prompt="course prompt", extra=1)
