"""How deep JSON text nests, found without reading it, and `loads_within`: `json.loads`
for text nested no deeper than a bound.

`json.loads` recurses once per level of nesting in C. CPython stops it with
`RecursionError` near 1,000 levels, but in the playground (Pyodide, whose WebAssembly
stack is far smaller than a native one) text nested a few thousand levels deep overflows
the stack and kills the interpreter for good. So untrusted JSON is measured first, by a
scan that never recurses: its strings taken out, what is left is counted bracket by
bracket.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Any, Final

COURSE_FILE_NESTING: Final = 100
"""How deep the small JSON files of a course folder may nest (`structure.json`,
`.shifu-sync.json`, the rename journal under `.mfls/`): they nest a few levels, and the
bound keeps every reader of them (`json_spans` recurses in Python too) within the stack."""

# A string, or one left open: to the end of the text in one match (a pattern that needs the
# closing quote would fail on an open string and retry from every later quote: quadratic).
_STRING: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.S)
_NOT_BRACKET: Final = re.compile(r'[^\[\]{}"]+')
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}


class TooDeep(ValueError):
    """JSON text nested deeper than the reader's bound: `depth` levels, `most` allowed."""

    def __init__(self, depth: int, most: int) -> None:
        super().__init__(
            f"objects and lists nest {depth} levels deep; mfls reads JSON nested up to "
            f"{most} levels"
        )
        self.depth = depth
        self.most = most


def json_nesting(text: str) -> int:
    """How many objects and lists enclose the deepest value of the JSON `text` (0 for a
    scalar, 1 for `[1]` or `{}`), as `json.loads` would nest them. Text that is not JSON
    gets a count too: what a reader would have nested before it found the fault. A string
    left open holds the rest of the text."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets), initial=0))


def loads_within(text: str, most: int, **options: Any) -> Any:
    """`json.loads(text, **options)`, or `TooDeep` (a `ValueError`) before any reading
    when `text` nests deeper than `most` levels."""
    import json  # here: a caller that never reads JSON loads no `json`

    depth = json_nesting(text)
    if depth > most:
        raise TooDeep(depth, most)
    return json.loads(text, **options)
