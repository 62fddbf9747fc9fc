"""Write the conformance JSON files from the hand-written case modules.

Run from anywhere: `python3 tests/conformance/tools/build.py`. The JSON files are the
suite; this script only saves counting offsets by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

import document_context_cases
import extraction_cases
import interaction_cases
import normalization_cases
from casegen import CaseBook, render

OUT_DIR = Path(__file__).resolve().parent.parent
BUILDERS = {
    "normalization.json": normalization_cases.build,
    "extraction.json": extraction_cases.build,
    "interaction.json": interaction_cases.build,
    "document-context.json": document_context_cases.build,
}


def main() -> int:
    books: dict[str, CaseBook] = {name: build() for name, build in BUILDERS.items()}
    ids = [case["id"] for book in books.values() for case in book.cases]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        sys.stderr.write(f"duplicate ids across files: {duplicates}\n")
        return 1
    for name, book in books.items():
        (OUT_DIR / name).write_text(render(book), encoding="utf-8")
        sys.stderr.write(f"{name}: {len(book.cases)} cases\n")
    sys.stderr.write(f"total: {len(ids)} cases\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
