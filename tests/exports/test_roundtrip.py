"""Unpack then pack gives the export back: equal as JSON (byte for byte in the
platform's own layout); editing one lesson file changes only that item's content."""

from __future__ import annotations

import json
import posixpath
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mfls.exports.ai_shifu import ExportProblem
from mfls.exports.layout import COURSE_PROMPT, MANIFEST
from mfls.exports.names import fold
from mfls.exports.packing import pack
from mfls.workspace.config import COURSE_FILE, parse_course_config
from tests.kit.exports import (
    NASTY_TITLES,
    dumps,
    export,
    item,
    nasty_export,
    node,
    packed,
    unpacked,
)


def test_nasty_titles_round_trip_byte_for_byte() -> None:
    source = dumps(nasty_export())
    folder = unpacked(source)
    assert packed(folder.files) == source


def test_nasty_titles_give_distinct_portable_paths() -> None:
    folder = unpacked(dumps(nasty_export()))
    lessons = [p.path for p in folder.placed if p.lesson]
    assert len(lessons) == len(NASTY_TITLES) + 3
    assert len({fold(p) for p in folder.files}) == len(folder.files)
    for path in folder.files:
        assert posixpath.normpath(path) == path
        assert not path.startswith(("/", "../"))
        for part in path.split("/"):
            assert part not in ("", ".", "..")
            assert len(part.encode("utf-8")) <= 255
            assert all(ch.isprintable() for ch in part)
    chapter = lessons[0]
    assert chapter == "01-Chapter_One/00-Chapter_One.md"
    assert lessons[1].startswith("01-Chapter_One/01-_.._escape")
    assert "01-Chapter_One/10-CON_.md" in lessons
    assert lessons[-1] == "03-Not in the structure.md"
    assert COURSE_PROMPT in folder.files
    assert "prompts/01-Chapter_One/00-Chapter_One.md" in folder.files


def test_the_course_file_lists_lessons_in_structure_order_hidden_marked() -> None:
    folder = unpacked(dumps(nasty_export()))
    text = folder.files[COURSE_FILE].decode("utf-8")
    config, problems = parse_course_config(text)
    assert problems == []
    assert config.host == "ai-shifu"
    assert config.name == 'Course\nwith "quotes"'
    assert list(config.lessons) == [p.path for p in folder.placed if p.lesson]
    assert config.references == ("prompts/**/*.md",)
    hidden = [line for line in text.splitlines() if line.endswith("# hidden")]
    assert len(hidden) == len(range(0, len(NASTY_TITLES), 3))
    assert "# not in the structure" in text


def test_contents_are_kept_exactly() -> None:
    folder = unpacked(dumps(nasty_export()))
    data = folder.files[[p.path for p in folder.placed if p.lesson][1]]
    assert data == "lesson 0\r\nline {{k0}}\n\ufeffmid\x00".encode()


def test_editing_one_lesson_changes_only_its_content() -> None:
    original = nasty_export()
    folder = unpacked(dumps(original))
    target = next(p for p in folder.placed if p.lesson and p.bid == "b4")
    files = dict(folder.files)
    files[target.path] = b"new text\r\n"
    after = json.loads(packed(files))
    original["outline_items"][target.item]["content"] = "new text\r\n"
    assert after == original


def test_a_missing_lesson_file_or_manifest_is_one_problem() -> None:
    folder = unpacked(dumps(nasty_export()))
    lesson = next(p.path for p in folder.placed if p.lesson)
    files = {k: v for k, v in folder.files.items() if k != lesson}
    found = pack(lambda p: files[p] if p in files else ExportProblem("gone"))
    assert isinstance(found, ExportProblem)
    assert lesson in found.message
    found = pack(lambda p: ExportProblem("gone"))
    assert isinstance(found, ExportProblem)
    assert MANIFEST in found.message
    files = dict(folder.files)
    files[lesson] = b"\xff"
    found = pack(lambda p: files[p])
    assert isinstance(found, ExportProblem)
    assert "not UTF-8" in found.message


def test_a_manifest_naming_a_path_outside_is_refused() -> None:
    folder = unpacked(dumps(nasty_export()))
    manifest = json.loads(folder.files[MANIFEST])
    manifest["export"]["outline_items"][1]["content"] = {"mfls_file": "../../etc/passwd"}
    files = {**folder.files, MANIFEST: json.dumps(manifest).encode()}
    found = pack(lambda p: files[p])
    assert isinstance(found, ExportProblem)
    assert "names no file" in found.message


def test_other_json_layouts_are_kept() -> None:
    value = nasty_export()
    for text in (
        json.dumps(value),
        json.dumps(value, indent=4, ensure_ascii=True),
        json.dumps(value, separators=(",", ":")),
    ):
        source = text.encode("utf-8", "backslashreplace")
        out = packed(unpacked(source).files)
        assert json.loads(out) == value
        if "," + '"' not in text:  # the compact layout is not one mfls keeps
            assert out == source


# -- generated exports -------------------------------------------------------------

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
texts = st.text(st.characters(codec=None), max_size=40) | st.sampled_from(
    ["", "a\r\nb", "\ufeff{{x}}", "\ud800lone", "x\r"]
)


@st.composite
def exports(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(0, 8))
    items = []
    for number in range(count):
        extra = draw(
            st.dictionaries(st.text(max_size=6).map(lambda k: "x_" + k), json_value, max_size=2)
        )
        items.append(
            item(
                f"bid{number}",
                draw(texts),
                draw(texts),
                hidden=draw(st.integers(0, 1)),
                prompt=draw(st.sampled_from(["", "p"]) | texts),
                **extra,
            )
        )
    # A random forest over the items (some left out of the structure).
    listed = draw(st.lists(st.sampled_from(range(count)), unique=True)) if count else []
    nodes: dict[int, dict[str, Any]] = {i: node(f"bid{i}") for i in listed}
    roots = []
    for position, index in enumerate(listed):
        parent = draw(st.sampled_from([None, *listed[:position]]))
        (roots if parent is None else nodes[parent]["children"]).append(nodes[index])
    value = export(items, roots, title=draw(texts), prompt=draw(texts))
    value.update(
        draw(st.dictionaries(st.text(max_size=6).map(lambda k: "y_" + k), json_value, max_size=2))
    )
    return value


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(exports())
def test_generated_exports_round_trip(value: dict[str, Any]) -> None:
    source = dumps(value)
    folder = unpacked(source)
    assert packed(folder.files) == source
    assert len({fold(p) for p in folder.files}) == len(folder.files)
    config, problems = parse_course_config(folder.files[COURSE_FILE].decode("utf-8"))
    assert problems == []
    assert list(config.lessons) == [p.path for p in folder.placed if p.lesson]
