"""Coverage-guided fuzzing of the scanner and the incremental document with atheris.

    python3 tests/fuzz/fuzz_scanner.py -max_total_time=600 [-dict=tests/fuzz/mdflow.dict] [CORPUS]

Each input is decoded into a text (lone surrogates and NUL included) and a few edits.
The scan must satisfy every invariant of scan_invariants.py (beside this file), and the
edited `Document` must equal a full scan of the edited text. A failure raises, and
atheris writes the input to `crash-*` in the working directory.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports(include=["mfls.syntax"]):
    from mfls.syntax.document import Document
    from mfls.syntax.scanner import scan

from scan_invariants import check_result

MAX_EDITS = 4


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    text = fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 4096))
    result = scan(text)
    check_result(text, result)
    assert scan(text) == result, "scan is not deterministic"
    doc = Document(text)
    for _ in range(fdp.ConsumeIntInRange(0, MAX_EDITS)):
        start = fdp.ConsumeIntInRange(0, len(text))
        end = fdp.ConsumeIntInRange(start, len(text))
        new_text = fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 64))
        doc = doc.edited(start, end, new_text)
        text = text[:start] + new_text + text[end:]
    if doc.result() != scan(text):
        raise AssertionError(f"incremental differs from a full scan of {text!r}")


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
