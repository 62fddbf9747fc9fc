"""docs/syntax.md and the conformance cases agree on which cases pin which rule.

Every `Cases:` paragraph of docs/syntax.md names case ids in backticks; each id must be a
case of this folder's JSON files. Rules 1-28 must all be there, in order, each naming at
least one case, and so must each of the lettered sections A-E.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

CASE_DIR = Path(__file__).resolve().parent
SYNTAX_DOC = CASE_DIR.parents[1] / "docs" / "syntax.md"
RULES = range(1, 29)
SECTIONS = ("A", "B", "C", "D", "E")

ANY_HEADING = re.compile(r"^#{1,3} (?:Rule (\d+)\. |([A-Z])\. )?", re.MULTILINE)
CASES_PARAGRAPH = re.compile(r"^Cases[^:\n]*:(.*)$", re.DOTALL)
TICKED = re.compile(r"`([^`]+)`")


def _case_ids() -> set[str]:
    return {
        case["id"]
        for path in sorted(CASE_DIR.glob("*.json"))
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]
    }


def _paragraphs(section: str) -> list[str]:
    """The section's paragraphs, block quote markers removed, lines joined."""
    lines = [re.sub(r"^> ?", "", line) for line in section.splitlines()]
    return [" ".join(p.split("\n")) for p in "\n".join(lines).split("\n\n")]


def _cited(section: str) -> list[str]:
    cited: list[str] = []
    for paragraph in _paragraphs(section):
        match = CASES_PARAGRAPH.match(paragraph.strip())
        if match:
            cited += TICKED.findall(match.group(1))
    return cited


def _sections() -> dict[str, list[str]]:
    """Heading label ("1".."28", "A".."E") -> the case ids its section cites."""
    text = SYNTAX_DOC.read_text(encoding="utf-8")
    heads = list(ANY_HEADING.finditer(text))
    ends = [head.start() for head in heads[1:]] + [len(text)]
    found: dict[str, list[str]] = {}
    for head, end in zip(heads, ends, strict=True):
        label = head.group(1) or head.group(2)
        if label is None or not head.group(0).startswith("### "):
            continue
        assert label not in found, f"heading {label} appears twice"
        found[label] = _cited(text[head.end() : end])
    return found


def test_rules_are_numbered_1_to_28_in_order() -> None:
    numbers = [label for label in _sections() if label.isdigit()]
    assert numbers == [str(n) for n in RULES]


def test_every_rule_and_section_cites_a_case() -> None:
    sections = _sections()
    labels = [str(n) for n in RULES] + list(SECTIONS)
    assert [label for label in labels if not sections.get(label)] == []


def test_every_cited_case_exists() -> None:
    ids = _case_ids()
    missing = {
        label: sorted(set(cited) - ids) for label, cited in _sections().items() if set(cited) - ids
    }
    assert missing == {}


def test_the_doc_cites_nothing_outside_the_repository() -> None:
    text = SYNTAX_DOC.read_text(encoding="utf-8")
    for outside in ("scanner-decisions", "/work/", "seeds/", "000_083768eb14fb1c42"):
        assert outside not in text
