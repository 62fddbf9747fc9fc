"""Extract the examples of a CommonMark spec text into the JSON file the check reads.

Usage: python3 tests/commonmark/extract_spec.py PATH/TO/spec.md [OUT.json]

The spec marks each example as a fenced block whose info string is `example`,
with the Markdown and the expected HTML separated by a line holding one `.`;
`→` stands for a tab. Only the Markdown, the section and the number are kept.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

_FENCE = "`" * 32
_HEADING = re.compile(r"^#{1,6} +(.*?) *$")


def extract(spec: str) -> list[dict[str, object]]:
    examples: list[dict[str, object]] = []
    section = ""
    lines = spec.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(_FENCE + " example"):
            start_line = i + 1
            i += 1
            markdown_lines: list[str] = []
            while lines[i] != ".":
                markdown_lines.append(lines[i])
                i += 1
            while lines[i] != _FENCE:
                i += 1
            markdown = "".join(part + "\n" for part in markdown_lines).replace("→", "\t")
            examples.append(
                {
                    "example": len(examples) + 1,
                    "section": section,
                    "start_line": start_line,
                    "markdown": markdown,
                }
            )
        else:
            heading = _HEADING.match(line)
            if heading:
                section = heading.group(1)
        i += 1
    return examples


def main(argv: list[str]) -> int:
    source = Path(argv[1])
    target = Path(argv[2]) if len(argv) > 2 else Path(__file__).with_name("spec-0.31.2.json")
    examples = extract(source.read_text(encoding="utf-8"))
    target.write_text(json.dumps(examples, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    sys.stderr.write(f"{len(examples)} examples written to {target}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
