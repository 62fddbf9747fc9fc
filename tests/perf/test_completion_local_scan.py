"""Completion reads only the blocks around the cursor; that must equal reading them all."""

import random

from mfls.features.completion import edit_range
from mfls.syntax.document import Document
from mfls.syntax.scanner import scan

PIECES = [
    "{{ a }}", "{{", "}}", " text ", "\n", "\n\n", "```\n", "    code\n", "> ", "- ",
    "?[{{ q }} A|B]", "<pre>\n", "</pre>\n", "`", "{{ b", "\r\n", "%{{ c }}",
]  # fmt: skip


def test_edit_range_from_the_local_scan_equals_the_full_scan() -> None:
    rng = random.Random(3)
    for _ in range(200):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 30)))
        doc = Document(text)
        for _ in range(3):
            a = rng.randint(0, len(text))
            b = rng.randint(a, len(text))
            new = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 3)))
            doc = doc.edited(a, b, new)
            text = text[:a] + new + text[b:]
        full = scan(text)
        for offset in range(len(text) + 1):
            local = doc.scan_between(max(0, offset - 1), offset + 1)
            assert edit_range(text, local, offset) == edit_range(text, full, offset), (
                text,
                offset,
            )
