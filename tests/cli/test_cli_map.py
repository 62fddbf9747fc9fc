"""`mfls map`: the course map of a folder or an AI-Shifu export, as a user runs it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.etree import ElementTree

from tests.kit.cli import mfls
from tests.kit.exports import dumps, export, item, node
from tests.kit.map_page import page_data

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "course"


def test_map_of_the_example_course_as_html_json_and_svg(tmp_path: Path) -> None:
    course = tmp_path / "course"
    shutil.copytree(EXAMPLE, course)
    written = mfls("map", "course", "-o", "map.html", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    assert written.stdout == ""
    summary = "4 lessons · 1 reference document · 16 questions · 9 problems"
    assert f"mfls map: {summary}: map.html" in written.stderr
    page = (tmp_path / "map.html").read_text(encoding="utf-8")
    data = page_data(page)
    as_json = mfls("map", "course", "--format", "json", cwd=tmp_path)
    assert as_json.returncode == 0, as_json.stderr
    table = json.loads(as_json.stdout)
    assert [lesson["title"] for lesson in table["lessons"]] == [
        "01-welcome.md",
        "02-first-program.md",
        "03-practice.md",
        "04-project.md",
        "glossary.md",
    ]
    assert table["figures"]["summary"] == data["summary"] == summary
    assert table["lessons"][2]["location"] == "course/lessons/03-practice.md"
    assert [k["key"] for k in table["keys"]] == [k[0] for k in data["keys"]]
    project = next(k for k in table["keys"] if k["key"] == "Which project will you build?")
    assert [(p["lesson"], p["kind"], p["line"], p["column"]) for p in project["places"]] == [
        (2, "read-before-asked", 7, 51),
        (3, "asked", 5, 3),
        (3, "read", 7, 5),
    ]
    assert project["places"][1]["choices"] == ["A website", "A game", "A data analysis"]
    assert data["locations"][2] == [
        "course/lessons/03-practice.md",
        str(course / "lessons" / "03-practice.md"),
    ]
    svg = mfls("map", str(course), "-o", str(tmp_path / "map.svg"), cwd=REPO)
    assert svg.returncode == 0, svg.stderr
    tree = ElementTree.parse(tmp_path / "map.svg").getroot()
    texts = {t.text for t in tree.iter("{http://www.w3.org/2000/svg}text")}
    assert "Which project will you build?" in texts
    assert "Learning to program" in texts


def test_a_lesson_file_maps_its_course(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLE, tmp_path / "course")
    done = mfls("map", "course/lessons/01-welcome.md", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["lessons"]) == 5


def test_map_of_an_export_names_lessons_by_title(tmp_path: Path) -> None:
    items = [
        item("c", "Basics", ""),
        item("a", "Ask the <name>", "?[%{{ name }} Ann | Bob]\n", parent="c"),
        item("u", "Use it", "Hi {{name}} and {{ Name }}\n", parent="c"),
    ]
    source = tmp_path / "course.json"
    source.write_bytes(dumps(export(items, [node("c", [node("a"), node("u")])])))
    done = mfls("map", "course.json", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    table = json.loads(done.stdout)
    lessons = [(x["title"], x["location"]) for x in table["lessons"] if x["kind"] == "lesson"]
    assert lessons == [
        ("Ask the <name>", "course.json#Ask the <name>"),
        ("Use it", "course.json#Use it"),
    ]
    assert table["course"]["root"] is None
    near = next(k for k in table["keys"] if k["key"] == "Name")
    assert near["problems"] == [{"code": "near-miss", "count": 1, "suggestion": "name"}]
    page = mfls("map", "course.json", cwd=tmp_path)
    assert page.returncode == 0, page.stderr
    data = page_data(page.stdout)
    assert all(file is None for _, file in data["locations"])
    assert "Ask the <name>" not in page.stdout


def test_unreadable_course_and_unwritable_output(tmp_path: Path) -> None:
    missing = mfls("map", "nowhere", cwd=tmp_path)
    assert missing.returncode == 2
    assert "cannot read nowhere" in missing.stderr
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    broken = mfls("map", "broken.json", cwd=tmp_path)
    assert broken.returncode == 2
    assert "not a usable AI-Shifu export" in broken.stderr
    shutil.copytree(EXAMPLE, tmp_path / "course")
    (tmp_path / "out").mkdir()
    blocked = mfls("map", "course", "-o", "out", cwd=tmp_path)
    assert blocked.returncode == 2
    assert "cannot write out" in blocked.stderr
