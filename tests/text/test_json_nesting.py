"""`mfls.text.json_nesting`: the depth of JSON text, measured without reading it, is the
depth `json.loads` would nest to; `loads_within` refuses deeper text before reading."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mfls.exports.json_text import nesting
from mfls.text.json_nesting import TooDeep, json_nesting, loads_within

# Strings full of what a careless scan would count: brackets, quotes, backslashes.
_TRICKY = st.text(alphabet='[]{}"\\/ a\n\u00e9', max_size=8)
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | _TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TRICKY, inner, max_size=4),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(_VALUES, st.booleans(), st.booleans())
def test_the_depth_of_any_json_text_is_the_depth_of_its_value(
    value: Any, indent: bool, ascii_only: bool
) -> None:
    text = json.dumps(value, indent=1 if indent else None, ensure_ascii=ascii_only)
    assert json_nesting(text) == nesting(value)


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("", 0),
        ("3", 0),
        ('"[[["', 0),
        ('["\\"[", {"]": "\\\\"}]', 2),
        # Not JSON: what a reader nests before it finds the fault.
        ("[" * 50, 50),
        ('[["unterminated [[[[', 2),
        ("]]][[", 0),
    ],
)
def test_the_depth_of_some_texts(text: str, depth: int) -> None:
    assert json_nesting(text) == depth


def test_loads_within_refuses_deeper_text_before_reading_it() -> None:
    deep = "[" * 100_000 + "]" * 100_000  # json.loads would overflow the stack
    with pytest.raises(TooDeep) as refused:
        loads_within(deep, 800)
    assert (refused.value.depth, refused.value.most) == (100_000, 800)
    assert isinstance(refused.value, ValueError)
    assert loads_within("[[1]]", 2) == [[1]]
    with pytest.raises(TooDeep):
        loads_within("[[1]]", 1)
    with pytest.raises(json.JSONDecodeError):
        loads_within("[1,", 5)
