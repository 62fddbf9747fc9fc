from pathlib import Path

from course_kit import Course

from mfls.features.hover import hover


def test_binding_hover_shows_exact_key_role_places_and_counts(tmp_path: Path) -> None:
    course = Course(
        tmp_path,
        {
            "mfcourse.toml": 'name = "Python"\nlessons = ["a.md", "b.md"]\n',
            "a.md": "# A\n\n?[{{ goal }} Learn | Build | ...Other]\n",
            "b.md": "Use {{ goal }}.\n\nAnd {{ goal }} again.\n",
        },
    )
    info = hover(course.snapshot, course.uri("a.md"), course.offset("a.md", "goal"))
    assert info is not None
    text = course.snapshot.entry(course.uri("a.md"))[1].text
    assert text[info.start : info.end] == "{{ goal }}"
    assert "```text\ngoal\n```" in info.markdown
    assert "**Binding**" in info.markdown
    assert "Learn, Build" in info.markdown and "free input" in info.markdown
    assert "Bound in a.md:3." in info.markdown
    assert "Read 2 time(s) in 1 document(s) of Python." in info.markdown


def test_reference_hover_on_unbound_key(tmp_path: Path) -> None:
    course = Course(tmp_path, {"a.md": "Use {{ goal }}.\n"})
    info = hover(course.snapshot, course.uri("a.md"), course.offset("a.md", "}}", 2))
    assert "**Reference**" in info.markdown
    assert "Not bound anywhere in this course." in info.markdown


def test_invisible_characters_are_named(tmp_path: Path) -> None:
    key = "user  name\u00a0x\u200by\ufeffz\u2060w\u202e"
    course = Course(tmp_path, {"a.md": f"Use {{{{ {key} }}}}.\n"})
    info = hover(course.snapshot, course.uri("a.md"), 6)
    markdown = info.markdown
    assert f"```text\n{key}\n```" in markdown
    assert "2 spaces in a row at character 5" in markdown
    for name in (
        "U+00A0 NO-BREAK SPACE",
        "U+200B ZERO WIDTH SPACE",
        "U+FEFF ZERO WIDTH NO-BREAK SPACE",
        "U+2060 WORD JOINER",
        "U+202E RIGHT-TO-LEFT OVERRIDE",
    ):
        assert name in markdown


def test_plain_key_has_no_notes(tmp_path: Path) -> None:
    course = Course(tmp_path, {"a.md": "Use {{ plain key }}.\n"})
    assert "Look closely" not in hover(course.snapshot, course.uri("a.md"), 6).markdown


def test_host_key_hover(tmp_path: Path) -> None:
    course = Course(
        tmp_path, {"mfcourse.toml": 'host = "ai-shifu"\n', "a.md": "Hi {{ sys_user_nickname }}\n"}
    )
    markdown = hover(course.snapshot, course.uri("a.md"), 6).markdown
    assert "Provided by AI-Shifu (read-only)." in markdown
    assert "`sys_` is reserved" in markdown


def test_literal_and_legacy_roles(tmp_path: Path) -> None:
    course = Course(tmp_path, {"a.md": "?[%{{ old }} A]\n\nSee `{{ old }}`.\n"})
    uri = course.uri("a.md")
    assert "old `%{{...}}` form" in hover(course.snapshot, uri, 4).markdown
    literal = hover(course.snapshot, uri, course.offset("a.md", "`{{", 3)).markdown
    assert "literal example" in literal


def test_invalid_marker_explains_why(tmp_path: Path) -> None:
    course = Course(tmp_path, {"a.md": "A {{ }} B\n\nC {{ open ?[X|Y]\n"})
    uri = course.uri("a.md")
    empty = hover(course.snapshot, uri, 3)
    assert "names no question" in empty.markdown
    assert (empty.start, empty.end) == (2, 7)
    at = course.offset("a.md", "{{ open")
    unclosed = hover(course.snapshot, uri, at + 1)
    assert "no `}}` closes it" in unclosed.markdown
    assert unclosed.end - unclosed.start == 2
    assert hover(course.snapshot, uri, at + 5) is None


def test_nothing_outside_markers(tmp_path: Path) -> None:
    course = Course(tmp_path, {"a.md": "plain text {{ k }}\n"})
    assert hover(course.snapshot, course.uri("a.md"), 2) is None
    assert hover(course.snapshot, "file:///elsewhere.md", 0) is None
