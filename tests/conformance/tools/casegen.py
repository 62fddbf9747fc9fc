"""Turn hand-written expectations with substring anchors into conformance cases.

Expectations name each reported span by its exact source text (the anchor) and,
when that text occurs more than once in the input, by which occurrence it is.
The offsets are then computed here, in code points, so that nobody has to count
characters by hand. Keys, roles, reasons and choices are always written by hand.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

Choice = str | tuple[str, str]

ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Mn", "Me", "Co", "Cs", "Cn"})
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class CaseError(ValueError):
    """A hand-written expectation that cannot be turned into offsets."""


@dataclass(frozen=True)
class M:
    """A valid marker whose source text is `anchor`."""

    anchor: str
    key: str
    role: str = "reference"
    legacy: bool = False
    literal: bool = False
    nth: int | None = None
    context: str | None = None


@dataclass(frozen=True)
class I:  # noqa: E742
    """An invalid marker whose source span is `anchor`."""

    anchor: str
    reason: str
    nth: int | None = None


@dataclass(frozen=True)
class X:
    """An interaction whose source text is `anchor`.

    A choice written as a plain string has the same label and value.
    """

    anchor: str
    choices: tuple[Choice, ...] = ()
    binding: str | None = None
    input: str | None = None
    multiple: bool = False
    nth: int | None = None


@dataclass
class CaseBook:
    """The cases of one category, in the order they were written."""

    category: str
    cases: list[dict[str, Any]] = field(default_factory=list)

    def norm(
        self,
        id_: str,
        description: str,
        body: str,
        *,
        key: str | None = None,
        reason: str | None = None,
    ) -> None:
        if (key is None) == (reason is None):
            raise CaseError(f"{id_}: give exactly one of key and reason")
        expect = {"key": key} if key is not None else {"reason": reason}
        self._add(
            {
                "id": id_,
                "category": self.category,
                "description": description,
                "body": body,
                "expect": expect,
            }
        )

    def doc(self, id_: str, description: str, input_: str, *items: M | I | X) -> None:
        markers = [_marker(id_, input_, m) for m in items if isinstance(m, M)]
        invalid = [_invalid(id_, input_, i) for i in items if isinstance(i, I)]
        interactions = [_interaction(id_, input_, x) for x in items if isinstance(x, X)]
        for name, spans in (
            ("markers", markers),
            ("invalid", invalid),
            ("interactions", interactions),
        ):
            spans.sort(key=lambda s: s["start"])
            starts = [s["start"] for s in spans]
            if len(set(starts)) != len(starts):
                raise CaseError(f"{id_}: two {name} share a start")
        self._add(
            {
                "id": id_,
                "category": self.category,
                "description": description,
                "input": input_,
                "expect": {"markers": markers, "invalid": invalid, "interactions": interactions},
            }
        )

    def _add(self, case: dict[str, Any]) -> None:
        if not ID_PATTERN.match(case["id"]):
            raise CaseError(f"{case['id']}: id is not kebab-case")
        if any(c["id"] == case["id"] for c in self.cases):
            raise CaseError(f"{case['id']}: duplicate id")
        self.cases.append(case)


def _locate(id_: str, text: str, anchor: str, nth: int | None) -> tuple[int, int]:
    hits = [i for i in range(len(text)) if text.startswith(anchor, i)]
    if not hits:
        raise CaseError(f"{id_}: anchor {anchor!r} not in input")
    if nth is None:
        if len(hits) > 1:
            raise CaseError(f"{id_}: anchor {anchor!r} occurs {len(hits)} times; give nth")
        nth = 1
    if not 1 <= nth <= len(hits):
        raise CaseError(f"{id_}: anchor {anchor!r} has no occurrence {nth}")
    start = hits[nth - 1]
    return start, start + len(anchor)


def _marker(id_: str, text: str, m: M) -> dict[str, Any]:
    start, end = _locate(id_, text, m.anchor, m.nth)
    return {
        "start": start,
        "end": end,
        "key": m.key,
        "role": m.role,
        "legacy": m.legacy,
        "literal": m.literal,
        **({"context": m.context} if m.context is not None else {}),
    }


def _invalid(id_: str, text: str, i: I) -> dict[str, Any]:
    start, end = _locate(id_, text, i.anchor, i.nth)
    return {"start": start, "end": end, "reason": i.reason}


def _interaction(id_: str, text: str, x: X) -> dict[str, Any]:
    start, end = _locate(id_, text, x.anchor, x.nth)
    choices = [
        {"label": c, "value": c} if isinstance(c, str) else {"label": c[0], "value": c[1]}
        for c in x.choices
    ]
    return {
        "start": start,
        "end": end,
        "binding": x.binding,
        "multiple": x.multiple,
        "choices": choices,
        "input": x.input,
    }


def _escape_invisible(json_text: str) -> str:
    out: list[str] = []
    for ch in json_text:
        if ch != " " and unicodedata.category(ch) in ESCAPED_CATEGORIES:
            code = ord(ch)
            if code > 0xFFFF:
                code -= 0x10000
                out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
            else:
                out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def _dump(value: Any) -> str:
    return _escape_invisible(json.dumps(value, ensure_ascii=False))


def render(book: CaseBook) -> str:
    """The category's JSON file: one field per line, one reported item per line."""
    lines = ["{", '  "version": 1,', f'  "category": {_dump(book.category)},', '  "cases": [']
    for n, case in enumerate(book.cases):
        lines.append("    {")
        fields = [k for k in case if k != "expect"]
        for k in fields:
            lines.append(f"      {_dump(k)}: {_dump(case[k])},")
        expect = case["expect"]
        if "body" in case:
            lines.append(f'      "expect": {_dump(expect)}')
        else:
            lines.append('      "expect": {')
            names = ["markers", "invalid", "interactions"]
            for j, name in enumerate(names):
                comma = "," if j < len(names) - 1 else ""
                items = expect[name]
                if not items:
                    lines.append(f'        "{name}": []{comma}')
                    continue
                lines.append(f'        "{name}": [')
                for k, item in enumerate(items):
                    sep = "," if k < len(items) - 1 else ""
                    lines.append(f"          {_dump(item)}{sep}")
                lines.append(f"        ]{comma}")
            lines.append("      }")
        lines.append("    }" + ("," if n < len(book.cases) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    if json.loads(text)["cases"] != book.cases:
        raise CaseError(f"{book.category}: rendering does not round-trip")
    return text
