"""`mfls map --format global-variable-table`: the course tool's `global_variable_table`,
exactly as ai-shifu/skills `skills/ai-shifu-course-creator/references/data-contracts.md`
(commit 00fa8e150426b80e3b3f4773c39395c230407d18, section "Variable Table") specifies
it, checked for its shape against the spec's own example and for its content against
the course map (`mfls map --format json`) of the example course and both real exports."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mfls.cli.course_map import map_of
from tests.ai_shifu_exports import shared_exports
from tests.kit.cli import mfls

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "course"
TABLE = "global-variable-table"

# data-contracts.md, "Minimal Output Example": its `global_variable_table`, and the
# course it describes (its `teaching_prompt` of L01 and its `course_prompt`), verbatim.
SPEC_TABLE = """[
    {
      "name": "learner_goal",
      "collected_in": "L01",
      "used_in": ["course_prompt"],
      "effect_scope": "cross_lesson"
    }
  ]"""
SPEC_TEACHING_PROMPT = "## Objective\n...\n?[%{{learner_goal}} Option A | Option B]\n...\n"
SPEC_COURSE_PROMPT = (
    "# Role\nYou are ...\n\n# Task\n- The learner goal is {{learner_goal}}. When the learner "
    "goal is UNKNOWN, use the course default examples; otherwise adapt course-wide examples "
    "to it. ...\n\n# Teaching Techniques\n- ...\n\n# Writing Style\n- ...\n\n# Format\n- ..."
    "\n\n# Slides\n- ...\n"
)
# "Variable Table": each item's fields and their types.
FIELDS = {"name": str, "collected_in": str, "used_in": list, "effect_scope": str}
SCOPES = {"local", "cross_lesson"}


def table_of(course: Path) -> list[dict[str, Any]]:
    found = mfls("map", str(course), "--format", TABLE, cwd=course.parent)
    assert found.returncode == 0, found.stderr
    rows: list[dict[str, Any]] = json.loads(found.stdout)
    return rows


def test_the_spec_example_course_gives_the_spec_example_table(tmp_path: Path) -> None:
    course = tmp_path / "course"
    (course / "lessons").mkdir(parents=True)
    (course / "README.md").write_text("# Core Loop\n", encoding="utf-8")
    structure = {"chapters": [{"title": "One", "lessons": [{"file": "L01.md", "title": "Core"}]}]}
    (course / "structure.json").write_text(json.dumps(structure), encoding="utf-8")
    (course / "lessons" / "L01.md").write_text(SPEC_TEACHING_PROMPT, encoding="utf-8")
    (course / "course-prompt.md").write_text(SPEC_COURSE_PROMPT, encoding="utf-8")
    rows = table_of(course)
    expected = json.loads(SPEC_TABLE)
    assert rows == expected
    assert [list(row) for row in rows] == [list(row) for row in expected]  # field order


def test_a_no_variable_interaction_makes_no_row_and_a_later_read_counts(tmp_path: Path) -> None:
    course = tmp_path / "course"
    (course / "lessons").mkdir(parents=True)
    (course / ".shifu-sync.json").write_text("{}", encoding="utf-8")
    (course / "lessons" / "lesson-01.md").write_text(
        "Use {{level}} first.\n\n?[%{{level}} Easy | Hard]\n\n?[Continue]\n\n?[A || B]\n",
        encoding="utf-8",
    )
    (course / "lessons" / "lesson-02.md").write_text(
        "?[%{{goal}} ...Your goal]\n\nAim for {{goal}}.\n\n?[...Your thoughts]\n",
        encoding="utf-8",
    )
    assert table_of(course) == [
        {"name": "level", "collected_in": "lesson-01", "used_in": [], "effect_scope": "local"},
        {
            "name": "goal",
            "collected_in": "lesson-02",
            "used_in": ["lesson-02"],
            "effect_scope": "local",
        },
    ]


def _courses() -> list[Path]:
    exports = shared_exports()
    found = [EXAMPLE]
    if exports is not None:
        found += [exports / "en_demo.json", exports / "en_first_shifu.json"]
    return found


@pytest.mark.parametrize("course", _courses(), ids=lambda p: p.name)
def test_the_table_is_the_map(course: Path) -> None:
    """Each row is read off `mfls map --format json` again, by the spec's words."""
    rows = table_of(course)
    for row in rows:
        assert {k: type(v) for k, v in row.items()} == FIELDS
        assert all(isinstance(name, str) for name in row["used_in"])
        assert row["effect_scope"] in SCOPES
    as_json = mfls("map", str(course), "--format", "json", cwd=course.parent)
    assert as_json.returncode == 0, as_json.stderr
    data = json.loads(as_json.stdout)
    located = map_of(str(course))
    assert not isinstance(located, str)
    ids = located[0].lesson_ids
    assert len(ids) == len(set(ids)) == len(data["lessons"])
    expected = []
    for key in data["keys"]:
        places = key["places"]
        collecting = [p for p in places if p["kind"] in ("asked", "legacy-profile")]
        if not collecting:
            continue
        first = collecting[0]
        readers = []
        for lesson in range(len(ids)):
            reads = [p for p in places if p["lesson"] == lesson and "choices" not in p]
            if lesson == first["lesson"]:
                after = (first["line"], first["column"])
                reads = [p for p in reads if (p["line"], p["column"]) > after]
            if reads:
                readers.append(ids[lesson])
        outside = [name for name in readers if name != ids[first["lesson"]]]
        expected.append(
            {
                "name": key["key"],
                "collected_in": ids[first["lesson"]],
                "used_in": readers,
                "effect_scope": "cross_lesson" if outside else "local",
            }
        )
    assert rows == expected
    if course == EXAMPLE:
        assert len(rows) == 8 and rows[0]["used_in"][0] == "lessons/01-welcome"
