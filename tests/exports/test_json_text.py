"""`json_text`: the text of `json.dumps` at any depth, and how deep a value nests."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mfls.exports.json_text import iter_json, nesting
from mfls.exports.layout import JSON_FORMATS, dump_json, json_format

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()  # lone surrogates and controls included
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=120, deadline=None)
@given(VALUES)
def test_the_text_of_json_dumps_in_every_layout(value: Any) -> None:
    for indent in (2, 4, None, "\t", 0):
        for ascii_only in (True, False):
            expected = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
            assert "".join(iter_json(value, indent, ascii_only)) == expected


def test_a_value_deeper_than_python_recurses() -> None:
    depth = 20_000
    deep: list[Any] = []
    inner = deep
    for _ in range(depth - 1):
        inner.append([])
        inner = inner[0]
    value = {"a": deep, "b": [1, {"é": None}]}
    assert nesting(value) == depth + 1
    text = "".join(iter_json(value, None, True))
    assert text == '{"a": ' + "[" * depth + "]" * depth + ', "b": [1, {"\\u00e9": null}]}'
    assert json_format(value, text.encode()) == {
        "indent": None,
        "ensure_ascii": True,
        "final_newline": False,
    }


def test_each_layout_is_recognised_from_the_bytes() -> None:
    value = {"t": "é\n", "n": [1, 2.5, {"x": []}], "e": {}}
    for layout in JSON_FORMATS:
        assert json_format(value, dump_json(value, layout)) == layout


@pytest.mark.parametrize(
    ("value", "depth"), [(1, 0), ("x", 0), ([], 1), ({}, 1), ({"a": [1]}, 2), ([[], [[{}]]], 4)]
)
def test_nesting(value: Any, depth: int) -> None:
    assert nesting(value) == depth


def test_infinity_is_never_written() -> None:
    with pytest.raises(ValueError, match="not a JSON number"):
        "".join(iter_json({"a": float("inf")}))
