"""`mfls unpack`, `mfls pack` and `mfls check EXPORT.json`, run as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.kit.cli import mfls
from tests.kit.exports import dumps, export, item, nasty_export, node


def course() -> dict[str, Any]:
    items = [
        item("c", "Basics", ""),
        item("a", "Ask: name?", "?[%{{name}}...Your name]\r\n", parent="c"),
        item("u", "Use", "Hi {{name}}\n\nand {{nmae}} and {{ghost}}\n", parent="c", hidden=1),
    ]
    return export(items, [node("c", [node("a"), node("u")])], prompt="You teach {{name}}.")


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "course.json"
    path.write_bytes(dumps(course()))
    return path


def test_unpack_edit_pack(tmp_path: Path, source: Path) -> None:
    done = mfls("unpack", "course.json", "folder", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "folder"
    lesson = folder / "01-Basics" / "02-Use.md"
    assert lesson.read_bytes() == b"Hi {{name}}\n\nand {{nmae}} and {{ghost}}\n"
    assert (folder / "01-Basics" / "01-Ask_ name_.md").is_file()
    assert (folder / "prompts" / "course.md").read_text() == "You teach {{name}}."
    assert '"01-Basics/02-Use.md",  # hidden' in (folder / "mfcourse.toml").read_text()
    assert mfls("pack", "folder", "back.json", cwd=tmp_path).returncode == 0
    assert (tmp_path / "back.json").read_bytes() == source.read_bytes()
    lesson.write_bytes(b"Hi {{name}}\r\n")
    assert mfls("pack", "folder", "back.json", cwd=tmp_path).returncode == 0
    expected = course()
    expected["outline_items"][2]["content"] = "Hi {{name}}\r\n"
    assert json.loads((tmp_path / "back.json").read_bytes()) == expected


def test_unpack_never_overwrites_without_force(tmp_path: Path, source: Path) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "mine.md").write_text("keep me")
    done = mfls("unpack", "course.json", "folder", cwd=tmp_path)
    assert done.returncode == 2
    assert "not empty" in done.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["mine.md"]
    assert mfls("unpack", "course.json", "folder", "--force", cwd=tmp_path).returncode == 0
    assert not (folder / "mine.md").exists()
    assert (folder / "mfcourse.toml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["course.json", "folder"]


def test_an_empty_folder_is_used(tmp_path: Path, source: Path) -> None:
    (tmp_path / "folder").mkdir()
    assert mfls("unpack", "course.json", "folder", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"not json", "not JSON"),
        (
            b'{"version": "9", "shifu": {}, "outline_items": [], "structure": {}}',
            "unknown export version",
        ),
        (b'{"version": "1.0", "shifu": {"title": "t"}, "outline_items": []}', "'structure'"),
    ],
)
def test_a_broken_export_writes_nothing(tmp_path: Path, content: bytes, words: str) -> None:
    (tmp_path / "bad.json").write_bytes(content)
    for args in (("unpack", "bad.json", "out"), ("check", "bad.json")):
        done = mfls(*args, cwd=tmp_path)
        assert done.returncode == 2
        assert words in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]


def test_a_lesson_that_is_not_text(tmp_path: Path) -> None:
    value = course()
    value["outline_items"][1]["content"] = 7
    (tmp_path / "bad.json").write_bytes(dumps(value))
    done = mfls("unpack", "bad.json", "out", cwd=tmp_path)
    assert (done.returncode, "`content` is not text" in done.stderr) == (2, True)
    assert not (tmp_path / "out").exists()


def test_pack_of_a_folder_without_manifest(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    done = mfls("pack", "folder", "out.json", cwd=tmp_path)
    assert done.returncode == 2
    assert "not a folder made by `mfls unpack`" in done.stderr
    assert not (tmp_path / "out.json").exists()


def test_pack_with_a_lesson_file_deleted(tmp_path: Path, source: Path) -> None:
    mfls("unpack", "course.json", "folder", cwd=tmp_path)
    (tmp_path / "folder" / "01-Basics" / "02-Use.md").unlink()
    done = mfls("pack", "folder", "course.json", cwd=tmp_path)
    assert done.returncode == 2
    assert "02-Use.md" in done.stderr
    assert source.read_bytes() == dumps(course())


def test_check_an_export(tmp_path: Path, source: Path) -> None:
    done = mfls("check", "course.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(" No lesson")[0].split(" “")[0] for line in lines] == [
        "course.json#Use:3:5: warning unbound-reference",
        "course.json#Use:3:18: warning unbound-reference",
        # The course prompt runs before every lesson: it reads `name` before "Ask" asks it.
        "course.json#A course [llm_system_prompt]:1:11: information read-before-asked",
    ]
    found = json.loads(mfls("check", "--format", "json", "course.json", cwd=tmp_path).stdout)
    first = found["diagnostics"][0]
    assert (first["lesson"], first["outlineItemBid"], first["field"]) == ("Use", "u", "content")
    assert (first["path"], first["line"], first["column"]) == ("course.json", 3, 5)
    assert found["checked"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["course.json"]


def test_check_names_prompts_and_read_before_asked_in_structure_order(tmp_path: Path) -> None:
    items = [item("a", "Ask", "?[%{{ k }}...k]"), item("u", "Use", "{{k}}", prompt="%{{p}}")]
    (tmp_path / "c.json").write_bytes(dumps(export(items, [node("u"), node("a")])))
    out = mfls("check", "c.json", cwd=tmp_path).stdout
    assert "c.json#Use:1:1: information read-before-asked" in out
    assert "first bound in “Ask”." in out
    assert "c.json#Use [llm_system_prompt]:1:2: warning unbound-reference" in out


def test_nasty_titles_on_a_real_file_system(tmp_path: Path) -> None:
    source = tmp_path / "nasty.json"
    source.write_bytes(dumps(nasty_export()))
    done = mfls("unpack", "nasty.json", "folder", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "nasty.json"]
    assert all(
        (tmp_path / "folder") in p.resolve().parents for p in (tmp_path / "folder").rglob("*")
    )
    assert mfls("pack", "folder", "back.json", cwd=tmp_path).returncode == 0
    assert (tmp_path / "back.json").read_bytes() == source.read_bytes()
    checked = mfls("check", "nasty.json", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert "nasty.json#two lines:2:6: warning unbound-reference" in checked.stdout


def test_check_a_json_file_that_is_no_export_beside_a_lesson(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text('{"name": "x"}')
    (tmp_path / "lesson.md").write_text("Hi {{who}}\n")
    done = mfls("check", "package.json", "lesson.md", cwd=tmp_path)
    assert done.returncode == 2
    assert "package.json is not a usable AI-Shifu export" in done.stderr
    assert "lesson.md:1:4: warning unbound-reference" in done.stdout
