"""The rules an export must keep: each broken export gets one clear problem."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mfls.exports.ai_shifu import Export, ExportProblem, looks_like_export, read_export
from tests.kit.exports import dumps, export, item, node


def good() -> dict[str, Any]:
    return export(
        [item("c", "Chapter"), item("l", "Lesson", "Hi {{name}}", parent="c")],
        [node("c", [node("l")])],
    )


def problem_of(value: Any) -> str:
    found = read_export(value if isinstance(value, bytes) else dumps(value))
    assert isinstance(found, ExportProblem)
    return found.message


def test_a_good_export_reads_with_its_outline_in_structure_order() -> None:
    found = read_export(dumps(good()))
    assert isinstance(found, Export)
    assert [(depth, found.items[n.item]["title"]) for depth, n in found.walk()] == [
        (0, "Chapter"),
        (1, "Lesson"),
    ]
    assert found.unlisted == ()


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"{not json", "not JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (b'{"version": NaN}', "not JSON"),
        (b"[1, 2]", "not an object"),
    ],
)
def test_not_json(data: bytes, words: str) -> None:
    assert words in problem_of(data)


def _without(path: tuple[Any, ...]) -> dict[str, Any]:
    value = good()
    table: Any = value
    for step in path[:-1]:
        table = table[step]
    del table[path[-1]]
    return value


@pytest.mark.parametrize(
    ("path", "words"),
    [
        (("version",), "no 'version' field"),
        (("shifu",), "no 'shifu' field"),
        (("outline_items",), "no 'outline_items' field"),
        (("structure",), "no 'structure' field"),
        (("shifu", "title"), "shifu.title"),
        (("outline_items", 1, "content"), "no `content` field"),
        (("outline_items", 1, "title"), "no `title` field"),
        (("outline_items", 1, "outline_item_bid"), "outline_item_bid"),
    ],
)
def test_missing_fields(path: tuple[Any, ...], words: str) -> None:
    assert words in problem_of(_without(path))


def test_unknown_version() -> None:
    value = good()
    value["version"] = "2.0"
    assert "unknown export version '2.0'" in problem_of(value)


@pytest.mark.parametrize("content", [None, 3, ["a"], {"text": "a"}])
def test_a_lesson_that_is_not_text(content: Any) -> None:
    value = good()
    value["outline_items"][1]["content"] = content
    assert "`content` is not text" in problem_of(value)


def test_a_prompt_that_is_not_text() -> None:
    value = good()
    value["outline_items"][1]["llm_system_prompt"] = 5
    assert "llm_system_prompt" in problem_of(value)


def test_a_null_prompt_is_no_prompt() -> None:
    value = good()
    value["outline_items"][1]["llm_system_prompt"] = None
    value["shifu"]["llm_system_prompt"] = None
    assert isinstance(read_export(dumps(value)), Export)


def test_structure_pointing_at_a_missing_item() -> None:
    value = good()
    value["structure"]["children"][0]["children"].append(node("gone"))
    assert "names outline item 'gone', which the export lacks" in problem_of(value)


def test_structure_naming_an_item_twice() -> None:
    value = good()
    value["structure"]["children"].append(node("l"))
    assert "a second time" in problem_of(value)


def test_two_items_with_one_bid() -> None:
    value = good()
    value["outline_items"].append(item("l", "Again"))
    assert "appears twice" in problem_of(value)


def test_items_outside_the_structure_are_kept_as_unlisted() -> None:
    value = good()
    value["outline_items"].append(item("x", "Loose"))
    found = read_export(dumps(value))
    assert isinstance(found, Export)
    assert [found.items[i]["title"] for i in found.unlisted] == ["Loose"]


def test_block_nodes_pass_through() -> None:
    value = good()
    value["structure"]["children"][0]["children"][0]["children"] = [
        {"bid": "b1", "id": 3, "type": "block", "children": []}
    ]
    found = read_export(dumps(value))
    assert isinstance(found, Export)
    assert len(list(found.walk())) == 2


def test_looks_like_export() -> None:
    assert looks_like_export(good())
    assert not looks_like_export({"name": "package"})
    assert not looks_like_export(json.loads("[]"))
