"""JSON values of any nesting, handled without recursion.

`json.dumps` recurses once per level of nesting (the C encoder and the pure Python one
with `indent` alike), so a deeply nested export would end in `RecursionError`. Here an
explicit stack writes the very text `json.dumps(value, indent=..., ensure_ascii=...)`
writes (default separators, keys in their order), in chunks, so a caller can also stop
at the first chunk that differs from a file (`layout.json_format`). `nesting` measures
how deep a value goes, the same way.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any, Final

_END: Final[Any] = object()
"""What `next` gives for an iterator at its end."""


def _number(value: float) -> str:
    if not math.isfinite(value):
        raise ValueError(f"{value!r} is not a JSON number")
    return float.__repr__(value)


def _open(value: Any) -> tuple[str, Iterator[Any] | None, bool]:
    """The text opening a container, an iterator over its entries (None when it is
    empty: the text closes it too), and whether it is an object."""
    if isinstance(value, dict):
        return ("{", iter(value.items()), True) if value else ("{}", None, True)
    if isinstance(value, (list, tuple)):
        return ("[", iter(value), False) if value else ("[]", None, False)
    raise TypeError(f"a {type(value).__name__} is not JSON")


def iter_json(
    value: Any, indent: int | str | None = None, ensure_ascii: bool = True
) -> Iterator[str]:
    """The text of `json.dumps(value, indent=indent, ensure_ascii=ensure_ascii)`, in
    chunks, for a value of any depth."""
    string = encode_basestring_ascii if ensure_ascii else encode_basestring
    step = " " * indent if isinstance(indent, int) else indent
    separator = ", " if step is None else ","

    def scalar(item: Any) -> str | None:
        if isinstance(item, str):
            return str(string(item))
        if item is None:
            return "null"
        if item is True:
            return "true"
        if item is False:
            return "false"
        if isinstance(item, int):
            return int.__repr__(item)
        if isinstance(item, float):
            return _number(item)
        return None

    text = scalar(value)
    if text is not None:
        yield text
        return
    text, entries, is_object = _open(value)
    yield text
    if entries is None:
        return
    stack: list[tuple[Iterator[Any], bool]] = [(entries, is_object)]
    first = True
    while stack:
        entries, is_object = stack[-1]
        entry = next(entries, _END)
        depth = len(stack)
        if entry is _END:
            stack.pop()
            close = "}" if is_object else "]"
            yield close if step is None else "\n" + step * (depth - 1) + close
            continue
        lead = "" if first else separator
        if step is not None:
            lead += "\n" + step * depth
        if is_object:
            key, entry = entry
            if not isinstance(key, str):
                raise TypeError(f"a {type(key).__name__} key is not JSON")
            lead += string(key) + ": "
        text = scalar(entry)
        if text is not None:
            yield lead + text
            first = False
            continue
        text, entries, is_object = _open(entry)
        yield lead + text
        first = entries is not None
        if entries is not None:
            stack.append((entries, is_object))


def nesting(value: Any) -> int:
    """How many objects and lists enclose the deepest value of `value`, itself included
    (0 for a scalar, 1 for `[1]` or `{}`)."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            pending.extend((v, depth + 1) for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            pending.extend((v, depth + 1) for v in item if isinstance(v, (dict, list)))
    return deepest
