from pathlib import Path

from course_kit import Course

from mfls.features.symbols import document_symbols, workspace_symbols


def test_headings_nest_and_hold_interactions(tmp_path: Path) -> None:
    text = (
        "# Intro\n\n?[{{ goal }} A | B]\n\n## Details\n\n?[Yes | No]\n\n"
        "# Next\n\n?[{{ level }} ...your level]\n"
    )
    course = Course(tmp_path, {"a.md": text})
    symbols = document_symbols(course.snapshot, course.uri("a.md"))
    assert [s.name for s in symbols] == ["Intro", "Next"]
    intro = symbols[0]
    assert [(c.name, c.kind) for c in intro.children] == [
        ("goal", "interaction"),
        ("Details", "heading"),
    ]
    goal = intro.children[0]
    assert [(c.name, c.kind) for c in goal.children] == [("goal", "binding")]
    assert text[goal.selection_start : goal.selection_end] == "goal"
    assert "single choice" in goal.detail and "A | B" in goal.detail
    details = intro.children[1]
    assert [c.name for c in details.children] == ["?[Yes | No]"]
    assert text[intro.start : intro.end].startswith("# Intro") and intro.end == text.index("# Next")
    assert symbols[1].children[0].detail.startswith("input")


def test_workspace_symbols_name_their_course(tmp_path: Path) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    (tmp_path / "one" / "mfcourse.toml").write_text('name = "First course"\n')
    (tmp_path / "one" / "a.md").write_text("?[{{ Your goal }} A]\n\n{{ reading only }}\n")
    (tmp_path / "two" / "b.md").write_text("?[{{ your goal }} A]\n")
    course = Course(tmp_path, {})
    course.workspace.set_folders([str(tmp_path / "one"), str(tmp_path / "two")])
    course.workspace.index_all()
    found = workspace_symbols(course.snapshot, "goal")
    assert sorted((s.name, s.container) for s in found) == [
        ("Your goal", "First course"),
        ("your goal", "two"),
    ]
    every = workspace_symbols(course.snapshot, "")
    assert {(s.name, s.kind) for s in every} == {
        ("Your goal", "binding"),
        ("reading only", "reference"),
        ("your goal", "binding"),
    }
    assert workspace_symbols(course.snapshot, "zzz") == []
    assert len(workspace_symbols(course.snapshot, "", limit=1)) == 1


def test_symbols_of_a_closed_document(tmp_path: Path) -> None:
    course = Course(tmp_path, {"a.md": "# One\n\n?[{{ k }} A]\n"})
    [heading] = document_symbols(course.snapshot, course.uri("a.md"))
    assert heading.name == "One" and heading.children[0].name == "k"
