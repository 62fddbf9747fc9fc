"""The cached markers-only scan of `Document` matches a fresh scan after any run of edits."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from mfls.syntax.document import Document
from mfls.syntax.model import ScanResult
from mfls.syntax.scanner import scan

PIECES = [
    "{{ a }}",
    "{{ b key }}",
    "?[{{ c }} Yes | No]",
    "?[%{{ d }} x//1 | ...other]",
    "{{ broken",
    "}}",
    "```\n",
    "`",
    "\n",
    "\n\n",
    "# T\n",
    "text ",
    "<div>\n",
    "    code\n",
    "> ",
    "- ",
]


def markers_only_of(text: str) -> ScanResult:
    r = scan(text)
    return ScanResult(r.markers, r.invalid, r.interactions)


def long_text(rng: random.Random, parts: int) -> str:
    return "".join(rng.choice(PIECES) for _ in range(parts))


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_markers_only_equals_scan_after_random_edits(seed: int) -> None:
    rng = random.Random(seed)
    text = long_text(rng, rng.randint(0, 600))
    doc = Document(text)
    assert doc.markers_only() == markers_only_of(text)
    for _ in range(12):
        start = rng.randint(0, len(text))
        end = rng.randint(start, min(len(text), start + 30))
        new = long_text(rng, rng.randint(0, 3))
        doc = doc.edited(start, end, new)
        text = text[:start] + new + text[end:]
        if rng.random() < 0.3:
            doc.result()
        assert doc.markers_only() == markers_only_of(text)


def test_markers_only_after_alternating_between_old_and_new_documents() -> None:
    text = "".join(f"## S{n}\n\n{{{{ k{n} }}}} ?[{{{{ q{n} }}}} A | B]\n\n" for n in range(400))
    old = Document(text)
    assert old.markers_only() == markers_only_of(text)
    new = old.edited(10, 10, "{{ z }}\n\n")
    changed = text[:10] + "{{ z }}\n\n" + text[10:]
    for _ in range(2):
        assert new.markers_only() == markers_only_of(changed)
        assert old.markers_only() == markers_only_of(text)
    assert new.result() == scan(changed)


def test_markers_only_leaves_out_blocks_and_literals() -> None:
    doc = Document("# Title\n\n`{{ x }}` and {{ y }}\n")
    assert doc.markers_only().blocks == () and doc.markers_only().literals == ()
    assert [(m.key, m.literal) for m in doc.markers_only().markers] == [("x", True), ("y", False)]
