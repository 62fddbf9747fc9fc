from course_kit import course as make_course

from mfls.features.hover import hover


def test_binding_hover_shows_exact_key_role_places_and_counts() -> None:
    course = make_course(
        "a.md",
        "# A\n\n?[{{ $0goal }} Learn | Build | ...Other]\n",
        "b.md",
        "Use {{ goal }}.\n\nAnd {{ goal }} again.\n",
        config='name = "Python"\nlessons = ["a.md", "b.md"]\n',
    )
    info = hover(course.snapshot, course.uri("a.md"), course.offset)
    assert info is not None
    text = course.snapshot.entry(course.uri("a.md"))[1].text
    assert text[info.start : info.end] == "{{ goal }}"
    assert "```text\ngoal\n```" in info.markdown
    assert "**Binding**" in info.markdown
    assert "Learn, Build" in info.markdown and "free input" in info.markdown
    assert f"Bound in [a.md:3]({course.uri('a.md')}#L3)." in info.markdown
    assert "Read 2 times in 1 document of Python." in info.markdown


def test_reference_hover_on_unbound_key() -> None:
    course = make_course("a.md", "Use {{ goal }}$0.\n")
    info = hover(course.snapshot, course.cursor_uri, course.offset)
    assert "**Reference**" in info.markdown
    assert "Not bound anywhere in this course." in info.markdown


def test_invisible_characters_are_named() -> None:
    key = "user  name\u00a0x\u200by\ufeffz\u2060w\u202e"
    course = make_course({"a.md": f"Use {{{{ {key} }}}}.\n"})
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


def test_plain_key_has_no_notes() -> None:
    course = make_course({"a.md": "Use {{ plain key }}.\n"})
    assert "Look closely" not in hover(course.snapshot, course.uri("a.md"), 6).markdown


def test_host_key_hover() -> None:
    course = make_course("a.md", "Hi {{ sys_user_nickname }}\n", config='host = "ai-shifu"\n')
    markdown = hover(course.snapshot, course.uri("a.md"), 6).markdown
    assert "Provided by AI-Shifu (read-only)." in markdown
    assert "`sys_` is reserved" in markdown


def test_literal_and_legacy_roles() -> None:
    course = make_course({"a.md": "?[%{{ old }} A]\n\nSee `{{ old }}`.\n"})
    uri = course.uri("a.md")
    assert "old `%{{...}}` form" in hover(course.snapshot, uri, 4).markdown
    literal = hover(course.snapshot, uri, course.offset_of("a.md", "`{{", 3)).markdown
    assert "inside a code span: checked like any reference" in literal


def test_invalid_marker_explains_why() -> None:
    course = make_course({"a.md": "A {{ }} B\n\nC {{ open ?[X|Y]\n"})
    uri = course.uri("a.md")
    empty = hover(course.snapshot, uri, 3)
    assert "names no question" in empty.markdown
    assert (empty.start, empty.end) == (2, 7)
    at = course.offset_of("a.md", "{{ open")
    unclosed = hover(course.snapshot, uri, at + 1)
    assert "no `}}` closes it" in unclosed.markdown
    assert unclosed.end - unclosed.start == 2
    assert hover(course.snapshot, uri, at + 5) is None


def test_nothing_outside_markers() -> None:
    course = make_course({"a.md": "plain text {{ k }}\n"})
    assert hover(course.snapshot, course.uri("a.md"), 2) is None
    assert hover(course.snapshot, "file:///elsewhere.md", 0) is None


def test_under_an_old_target_a_new_form_binding_is_no_binding() -> None:
    from course_kit import course as make_course

    from mfls.features.hover import hover

    text = "?[{{ goal }} A | B]\n\n?[%{{ other }} C]\n"
    course = make_course({"a.md": text}, config='target = "markdown-flow-0.4"\n')
    info = hover(course.snapshot, course.uri("a.md"), text.index("goal"))
    assert info is not None
    assert "**Not a binding on markdown-flow 0.4.2**" in info.markdown
    assert "Asked with" not in info.markdown
    legacy = hover(course.snapshot, course.uri("a.md"), text.index("other"))
    assert legacy is not None and "**Binding**" in legacy.markdown
