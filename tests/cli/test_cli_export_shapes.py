"""Exports of any valid shape, through `mfls check`, `map`, `unpack` and `pack` as a user
runs them: deep nesting, numbers JSON cannot write back, a lesson over the size limit.

Each command must end with a clear line and the exit status of its kind (0 clean, 1
problems found, 2 unusable input or output), never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mfls.exports.ai_shifu import MAX_NESTING
from mfls.exports.json_text import nesting
from tests.kit.cli import mfls
from tests.kit.exports import dumps, export, item, node


def nested_chapters(depth: int) -> dict[str, Any]:
    """Chapters nested `depth` deep; every 50th one has its own text, the innermost is
    a lesson asking `name`, the first reads it and holds an empty marker (an error)."""
    items = [item("c0", "C0", "Hi {{name}}\n\n{{}}\n")]
    for number in range(1, depth - 1):
        text = f"chapter {number}\n" if number % 50 == 0 else ""
        items.append(item(f"c{number}", f"C{number}", text, parent=f"c{number - 1}"))
    items.append(item("leaf", "Leaf", "?[%{{name}}...Your name]\n", parent=f"c{depth - 2}"))
    tree = node("leaf")
    for number in range(depth - 2, -1, -1):
        tree = node(f"c{number}", [tree])
    return export(items, [tree])


def deep_field(depth: int, inner: Any = None) -> dict[str, Any]:
    """An unknown field of objects nested `depth` deep."""
    field: Any = {} if inner is None else inner
    for _ in range(depth - 1):
        field = {"x": field}
    return export([item("a", "A", "Hi {{ghost}}\n")], [node("a")], future_field=field)


def roundtrip(tmp_path: Path, data: bytes) -> None:
    """unpack then pack gives the export back byte for byte, nothing logged."""
    (tmp_path / "course.json").write_bytes(data)
    unpacked = mfls("unpack", "course.json", "folder", cwd=tmp_path)
    assert unpacked.returncode == 0, unpacked.stderr
    packed = mfls("pack", "folder", "back.json", cwd=tmp_path)
    assert packed.returncode == 0, packed.stderr
    assert (tmp_path / "back.json").read_bytes() == data
    assert "Traceback" not in unpacked.stderr + packed.stderr


def test_chapters_nested_300_deep_are_checked_mapped_unpacked_and_packed(tmp_path: Path) -> None:
    value = nested_chapters(300)
    data = dumps(value)
    (tmp_path / "course.json").write_bytes(data)
    checked = mfls("check", "--format", "json", "course.json", cwd=tmp_path)
    assert checked.returncode == 1, checked.stderr
    report = json.loads(checked.stdout)
    assert [(d["lesson"], d["code"]) for d in report["diagnostics"]] == [
        ("C0", "read-before-asked"),
        ("C0", "marker-empty"),
    ]
    mapped = mfls("map", "course.json", "--format", "json", cwd=tmp_path)
    assert mapped.returncode == 0, mapped.stderr
    titles = [lesson["title"] for lesson in json.loads(mapped.stdout)["lessons"]]
    assert titles[0] == "C0" and titles[-1] == "Leaf" and len(titles) == 2 + 298 // 50
    roundtrip(tmp_path, data)
    leaf = next((tmp_path / "folder").rglob("*Leaf.md"))
    assert len(leaf.relative_to(tmp_path / "folder").parts) == 300
    folder = mfls("check", "folder", cwd=tmp_path)
    assert folder.returncode == 1, folder.stderr
    assert "Traceback" not in checked.stderr + mapped.stderr + folder.stderr


def test_an_unknown_field_nested_600_deep_is_kept_as_it_came(tmp_path: Path) -> None:
    data = dumps(deep_field(600, [1.5, "x", None]))
    (tmp_path / "course.json").write_bytes(data)
    checked = mfls("check", "course.json", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr  # one warning: `ghost` is never asked
    assert "unbound-reference" in checked.stdout
    mapped = mfls("map", "course.json", "-o", "map.svg", cwd=tmp_path)
    assert mapped.returncode == 0, mapped.stderr
    roundtrip(tmp_path, data)
    # The platform's layout is not the only one kept: ASCII-only, no indent, no newline.
    compact = json.dumps(deep_field(600), ensure_ascii=True).encode()
    (tmp_path / "compact").mkdir()
    roundtrip(tmp_path / "compact", compact)


def test_nesting_up_to_the_limit_round_trips_and_deeper_is_refused(tmp_path: Path) -> None:
    at_limit = deep_field(MAX_NESTING - 1)
    assert nesting(at_limit) == MAX_NESTING
    roundtrip(tmp_path, dumps(at_limit))
    over = tmp_path / "over.json"
    over.write_bytes(dumps(deep_field(MAX_NESTING)))
    for command in (["check"], ["map"], ["unpack"]):
        args = [*command, "over.json"] + (["out"] if command == ["unpack"] else [])
        done = mfls(*args, cwd=tmp_path)
        assert done.returncode == 2, (command, done.stderr)
        assert f"nest {MAX_NESTING + 1} levels deep" in done.stderr
        assert f"up to {MAX_NESTING} levels" in done.stderr
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_json_too_deep_for_the_reader_is_unusable_input(tmp_path: Path) -> None:
    """Python's JSON reader recurses: 100,000 levels are refused as input, exit 2."""
    depth = 100_000
    text = '{"version": "1.0", "x": ' + "[" * depth + "]" * depth + "}"
    (tmp_path / "deep.json").write_text(text)
    for args in (["check", "deep.json"], ["map", "deep.json"], ["unpack", "deep.json", "out"]):
        done = mfls(*args, cwd=tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert "nested too deep to read" in done.stderr
        assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_a_number_json_cannot_write_back_is_refused_up_front(tmp_path: Path) -> None:
    for number in ("1e400", "-1e400", "1.5e309"):
        data = dumps(export([item("a", "A", "Hi", llm_temperature=0.25)], [node("a")]))
        data = data.replace(b'"llm_temperature": 0.25', f'"llm_temperature": {number}'.encode())
        (tmp_path / "course.json").write_bytes(data)
        checked = mfls("check", "course.json", cwd=tmp_path)
        assert checked.returncode == 2, checked.stderr
        assert f"the number {number} is too large" in checked.stderr
    mapped = mfls("map", "course.json", cwd=tmp_path)
    assert mapped.returncode == 2, mapped.stderr
    assert "the number 1.5e309 is too large" in mapped.stderr
    unpacked = mfls("unpack", "course.json", "folder", cwd=tmp_path)
    assert unpacked.returncode == 2
    assert "the number 1.5e309 is too large" in unpacked.stderr
    assert not (tmp_path / "folder").exists()


def test_small_and_long_numbers_round_trip(tmp_path: Path) -> None:
    """Numbers a float holds (the smallest, the largest, a long integer) stay as written."""
    data = dumps(
        export(
            [item("a", "A", "Hi", llm_temperature=1.7976931348623157e308)],
            [node("a")],
            tiny=5e-324,
            big=10**60,
        )
    )
    roundtrip(tmp_path, data)


def test_an_oversized_lesson_is_the_same_error_as_in_the_folder(tmp_path: Path) -> None:
    """9.5 MB of lesson, over the 8 MiB limit of a file: `check` names it by its title
    and exits 2, as the unpacked folder does; the other lessons are still checked."""
    big = "Use {{ghost}} and {{other}}\n" + ("x" * 99 + "\n") * 95_000
    items = [item("big", "A big lesson", big), item("s", "Small", "Hi {{name}}\n")]
    (tmp_path / "course.json").write_bytes(dumps(export(items, [node("big"), node("s")])))
    checked = mfls("check", "course.json", cwd=tmp_path)
    assert checked.returncode == 2, checked.stderr
    limit = "9500028 bytes is over the 8388608-byte limit"
    assert f"mfls check: cannot read course.json#A big lesson: {limit}" in checked.stderr
    assert "ai-shifu-export" not in checked.stderr  # no path of the in-memory folder
    assert checked.stdout.startswith("course.json#Small:1:")
    assert mfls("unpack", "course.json", "folder", cwd=tmp_path).returncode == 0
    folder = mfls("check", "folder", cwd=tmp_path)
    assert folder.returncode == 2
    assert f"cannot read folder/01-A big lesson.md: {limit}" in folder.stderr
    # The folder's course file carries the limit as an error; the export, which has no
    # course file, says it on stderr (above) and in its exit status.
    *lessons, course_file = folder.stdout.splitlines(keepends=True)
    assert course_file.startswith("folder/mfcourse.toml:1:1: error course-file-invalid")
    assert "`01-A big lesson.md` is larger than 8388608 bytes" in course_file
    assert "".join(lessons).replace("folder/02-Small.md", "course.json#Small") == checked.stdout
    assert "course.json#A big lesson: A file of the course is over the size limit" in (
        checked.stderr
    )
    as_json = json.loads(mfls("check", "--format", "json", "course.json", cwd=tmp_path).stdout)
    assert as_json["unreadable"][0] == f"cannot read course.json#A big lesson: {limit}"
    assert len(as_json["unreadable"]) == 2
    mapped = mfls("map", "course.json", "-o", "map.html", cwd=tmp_path)
    assert mapped.returncode == 0  # as a folder's map: drawn without it, with a warning
    assert f"warning: skipped course.json#A big lesson: {limit}" in mapped.stderr
