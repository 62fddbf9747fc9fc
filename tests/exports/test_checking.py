"""An export checked in memory: diagnostics per lesson, course order = structure order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mfls.exports.ai_shifu import Export, read_export
from mfls.exports.checking import check_export
from tests.kit.exports import dumps, export, item, node


def checked(value: dict) -> list[tuple[str, str, int]]:
    source = dumps(value)
    loaded = read_export(source)
    assert isinstance(loaded, Export)
    return [
        (d.placed.title, d.diagnostic.code, d.diagnostic.start)
        for d in check_export(loaded, source, "x.json")
    ]


def test_read_before_asked_follows_the_structure_not_the_item_list() -> None:
    # outline_items lists the asking lesson first; the structure runs the reader first.
    items = [
        item("ask", "Ask", "?[%{{name}}...Your name]"),
        item("use", "Use", "Hello {{name}}"),
    ]
    found = checked(export(items, [node("use"), node("ask")]))
    assert ("Use", "read-before-asked", 6) in found
    assert not [
        f for f in checked(export(items, [node("ask"), node("use")])) if f[1] == "read-before-asked"
    ]


def test_unbound_references_name_their_lesson() -> None:
    items = [item("c", "Chapter"), item("l", "Lesson two", "Hi {{nobody}}", parent="c")]
    found = checked(export(items, [node("c", [node("l")])]))
    assert found == [("Lesson two", "unbound-reference", 3)]


def test_prompts_are_reference_documents() -> None:
    items = [item("l", "L", "?[%{{name}}...n]", prompt="Call them {{name}}; ?[%{{ other }}...x]")]
    source = dumps(export(items, [node("l")]))
    loaded = read_export(source)
    assert isinstance(loaded, Export)
    found = [
        (d.placed.field, d.placed.lesson, d.diagnostic.code)
        for d in check_export(loaded, source, "x.json")
    ]
    assert found == [("llm_system_prompt", False, "binding-in-reference")]


def test_a_lesson_with_a_lone_surrogate_is_still_checked() -> None:
    found = checked(export([item("a", "A", "\ud800 {{ghost}}")], [node("a")]))
    assert found == [("A", "unbound-reference", 2)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(st.sampled_from("{}%?[]|.\n\r `ab\ud800"), max_size=30), max_size=4))
def test_every_diagnostic_lies_in_its_text(contents: list[str]) -> None:
    items = [item(f"b{i}", f"T{i}", text, prompt=text[::-1]) for i, text in enumerate(contents)]
    source = dumps(export(items, [node(f"b{i}") for i in range(len(contents))]))
    loaded = read_export(source)
    assert isinstance(loaded, Export)
    for found in check_export(loaded, source, "x.json"):
        assert 0 <= found.diagnostic.start <= found.diagnostic.end <= len(found.text)
        table = loaded.items[found.placed.item] if found.placed.item is not None else loaded.shifu
        assert table[found.placed.field] == found.text
