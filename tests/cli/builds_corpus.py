"""Run by tests/cli/test_cli_builds.py under each build: everything the compiled
modules compute for a corpus of texts, as one JSON document on standard output.

The corpus: every conformance input, every CommonMark example, the example course, and
generated lessons (dense prose with markers, interactions, containers and CR/LF mixes).
For each text: the full scan, the markers-only scan, a document edited at three places
(compared with a fresh scan of the edited text by the test), line/character positions
in every encoding, offsets back from them, and the 1-based places of every marker.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mfls.syntax.document import Document
from mfls.syntax.grouping import group_by_key
from mfls.syntax.scanner import scan, scan_markers
from mfls.text.line_index import Encoding, LineIndex
from mfls.text.places import places

ROOT = Path(__file__).resolve().parents[2]


def corpus() -> list[str]:
    texts: list[str] = []
    for path in sorted((ROOT / "tests" / "conformance").glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            if "input" in case:
                texts.append(case["input"])
    spec = json.loads((ROOT / "tests" / "commonmark" / "spec-0.31.2.json").read_text("utf-8"))
    texts += [example["markdown"] for example in spec]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").rglob("*.md"))]
    texts += [generated(n) for n in range(40)]
    return texts


def generated(n: int) -> str:
    ending = ("\n", "\r\n", "\r")[n % 3]
    lines = [
        f"# Lesson {n}",
        "",
        f"?[{{{{ goal {n} }}}} A | B | ...Other]",
        "",
        f"> Quote {{{{ goal {n - 1} }}}} and `{{{{ code }}}}` and $x{{{{m}}}}$",
        f"- item {{{{ level {n % 7} }}}}",
        "  - nested %{{ legacy }} {{ unclosed",
        "",
        "```py {{ info }}",
        "{{ fenced }}",
        "```",
        "<pre>",
        "\\{{ raw }}",
        "</pre>",
        f"Text ?[%{{{{ pick {n} }}}} X//x | Y//y] [link]({{{{ dest }}}}) {{{{ café\u0301 }}}}",
        "---",
        "=== fixed {{ out }} ===",
    ]
    return ending.join(lines * (1 + n % 4))


def reading(text: str) -> dict[str, object]:
    full = scan(text)
    index = LineIndex(text)
    offsets = sorted({m.start for m in full.markers} | {m.end for m in full.markers} | {0})
    offsets.append(len(text))
    positions = {
        encoding.value: [index.position(o, encoding) for o in offsets] for encoding in Encoding
    }
    back = {
        encoding.value: [index.offset(line, ch, encoding) for line, ch in positions[encoding.value]]
        for encoding in Encoding
    }
    third = len(text) // 3
    edited = Document(text).edited(third, third, "{{ new }}\n\n").edited(0, min(3, len(text)), "")
    grouped = group_by_key(full.markers)
    return {
        "scan": full.to_json(),
        "markers": scan_markers(text).to_json(),
        "edited": [edited.text, edited.result().to_json()],
        "positions": positions,
        "back": back,
        "places": sorted(places(text, offsets).items()),
        "grouped": [
            sorted((k, [m.start for m in v]) for k, v in grouped.bindings.items()),
            sorted((k, [m.start for m in v]) for k, v in grouped.references.items()),
            sorted(grouped.first_binding.items()),
        ],
    }


def main() -> int:
    json.dump([reading(text) for text in corpus()], sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
