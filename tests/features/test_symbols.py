from course_kit import course as make_course

from mfls.features.symbols import document_symbols, workspace_symbols


def test_headings_nest_and_hold_interactions() -> None:
    text = (
        "# Intro\n\n?[{{ goal }} A | B]\n\n## Details\n\n?[Yes | No]\n\n"
        "# Next\n\n?[{{ level }} ...your level]\n"
    )
    course = make_course({"a.md": text})
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


def test_workspace_symbols_name_their_course() -> None:
    course = make_course(
        {
            "one/mfcourse.toml": 'name = "First course"\n',
            "one/a.md": "?[{{ Your goal }} A]\n\n{{ reading only }}\n",
            "two/b.md": "?[{{ your goal }} A]\n",
        },
        folders=["one", "two"],
    )
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


def test_symbols_of_a_closed_document() -> None:
    course = make_course("a.md", "# One\n\n?[{{ k }} A]\n")
    [heading] = document_symbols(course.snapshot, course.uri("a.md"))
    assert heading.name == "One" and heading.children[0].name == "k"
