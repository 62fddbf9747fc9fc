from course_kit import course as make_course

from mfls.features.diagnostics import (
    course_file_diagnostics,
    document_diagnostics,
    scan_diagnostics,
)
from mfls.syntax.scanner import scan


def codes(found: list) -> list[str]:
    return [d.code for d in found]


def test_invalid_markers_by_reason() -> None:
    text = "A {{ }} B {{ a\x07b }} C\n\nD {{ a\nb }} E\n"
    found = scan_diagnostics(scan(text), text)
    assert codes(found) == ["marker-empty", "marker-control-character", "marker-line-break"]
    assert all(d.severity == "error" for d in found)
    assert text[found[0].start : found[0].end] == "{{ }}"
    assert "U+0007" in found[1].message


def test_unclosed_marker_says_what_it_hides() -> None:
    text = "Use {{ topic then ?[A|B] and more\n\n{{ fine }}\n"
    result = scan(text)
    [found] = scan_diagnostics(result, text)
    assert found.code == "marker-unclosed"
    assert text[found.start : found.end] == "{{"
    assert "1 interaction" in found.message


def test_unclosed_marker_counts_in_message() -> None:
    from mfls.syntax.model import InvalidMarker, Reason, ScanResult

    result = ScanResult(
        invalid=(InvalidMarker(4, 40, Reason.UNCLOSED, hidden_markers=2, hidden_interactions=1),)
    )
    [found] = scan_diagnostics(result)
    assert "2 memory markers and 1 interaction" in found.message
    assert (found.start, found.end) == (4, 6)


def test_legacy_binding_is_a_deprecated_hint() -> None:
    text = "?[%{{ name }} A | B]\n"
    [found] = scan_diagnostics(scan(text))
    assert (found.code, found.severity, found.tags) == ("legacy-binding", "hint", ("deprecated",))
    assert "{{ name }}" in found.message
    assert text[found.start : found.end] == "%{{ name }}"


def test_unbound_reference() -> None:
    course = make_course({"a.md": "Use {{ topic }} here.\n"})
    [found] = document_diagnostics(course.snapshot, course.uri("a.md"))
    assert (found.code, found.severity) == ("unbound-reference", "warning")
    assert "“topic”" in found.message and "Bind it in an interaction" in found.message
    assert "ask for the answer" in found.message and "stated default" in found.message


def test_bound_keys_are_quiet_in_literal_contexts_too() -> None:
    course = make_course(
        {"a.md": "?[{{ topic }} A | B]\n\nUse {{ topic }} and `{{ topic }}`.\n"},
    )
    assert document_diagnostics(course.snapshot, course.uri("a.md")) == []


def test_host_keys_are_not_unbound() -> None:
    course = make_course(
        {
            "mfcourse.toml": 'host = "ai-shifu"\nsystem-keys = ["tenant"]\n',
            "a.md": "Hi {{ sys_user_nickname }} of {{ tenant }}.\n",
        },
    )
    assert document_diagnostics(course.snapshot, course.uri("a.md")) == []


def test_read_before_asked_in_a_later_lesson() -> None:
    course = make_course(
        {
            "mfcourse.toml": 'lessons = ["intro.md", "later.md"]\n',
            "intro.md": "Use {{ goal }}.\n",
            "later.md": "?[{{ goal }} A | B]\n",
        },
    )
    [found] = document_diagnostics(course.snapshot, course.uri("intro.md"))
    assert (found.code, found.severity) == ("read-before-asked", "information")
    assert "later.md" in found.message
    [(uri, start, end, _)] = found.related
    assert uri == course.uri("later.md")
    assert course.snapshot.entry(uri)[1].text[start:end] == "goal"
    assert document_diagnostics(course.snapshot, course.uri("later.md")) == []


def test_read_before_asked_later_in_the_same_lesson() -> None:
    course = make_course({"a.md": "Use {{ goal }}.\n\n?[{{ goal }} A | B]\n\n{{ goal }}\n"})
    found = document_diagnostics(course.snapshot, course.uri("a.md"))
    assert codes(found) == ["read-before-asked"]
    assert "later in this lesson" in found[0].message
    assert found[0].start == 4


def test_near_miss_by_spacing_case_punctuation_and_edits() -> None:
    course = make_course(
        {
            "a.md": "?[{{ What would you like to learn? }} A | B]\n\n?[{{ user_name }} ...]\n",
            "b.md": (
                "{{ what would you like to learn }}\n\n{{ username }}\n\n"
                "{{ What would you lke to learn? }}\n\n{{ zebra }}\n"
            ),
        },
    )
    found = document_diagnostics(course.snapshot, course.uri("b.md"))
    assert codes(found) == ["near-miss", "near-miss", "near-miss", "unbound-reference"]
    assert "did you mean “What would you like to learn?”" in found[0].message
    assert "“user_name”" in found[1].message
    assert "1 letter" in found[2].message
    uri, start, end, _ = found[0].related[0]
    assert uri == course.uri("a.md")
    assert course.snapshot.entry(uri)[1].text[start:end] == "What would you like to learn?"


def test_near_miss_of_a_host_key() -> None:
    course = make_course(
        {"mfcourse.toml": 'host = "ai-shifu"\n', "a.md": "{{ sys_user_nicknam }}\n"}
    )
    [found] = document_diagnostics(course.snapshot, course.uri("a.md"))
    assert found.code == "near-miss" and "sys_user_nickname" in found.message


def test_binding_in_reference_document() -> None:
    course = make_course(
        {
            "mfcourse.toml": 'references = ["refs/*.md"]\n',
            "a.md": "?[{{ goal }} A | B]\n",
            "refs/glossary.md": "?[{{ goal }} A | B]\n\n?[{{ level }} ...]\n\n{{ level }}\n",
        },
    )
    found = document_diagnostics(course.snapshot, course.uri("refs/glossary.md"))
    assert codes(found) == ["binding-in-reference", "binding-in-reference", "unbound-reference"]
    assert found[0].severity == "information"
    assert found[0].related[0][0] == course.uri("a.md")
    assert found[1].related == ()


def test_reserved_key_binding() -> None:
    course = make_course(
        {
            "mfcourse.toml": 'host = "ai-shifu"\ntarget = "current"\n',
            "a.md": "?[{{ sys_mine }} A | B]\n\n?[{{ sys_user_style }} A | B]\n\n?[%{{ok}} A]\n",
        },
    )
    found = document_diagnostics(course.snapshot, course.uri("a.md"))
    assert codes(found) == ["reserved-key-binding", "reserved-key-binding"]
    assert all(d.severity == "error" for d in found)
    assert "sys_" in found[0].message and "read-only" in found[1].message


def test_generic_host_reserves_nothing() -> None:
    course = make_course({"a.md": "?[{{ sys_mine }} A | B]\n"})
    assert document_diagnostics(course.snapshot, course.uri("a.md")) == []


def test_course_severities_override_and_switch_off() -> None:
    course = make_course(
        {
            "mfcourse.toml": '[diagnostics]\nunbound-reference = "error"\nmarker-empty = "off"\n',
            "a.md": "{{ }} and {{ missing }}\n",
        },
    )
    [found] = document_diagnostics(course.snapshot, course.uri("a.md"))
    assert (found.code, found.severity) == ("unbound-reference", "error")


def test_courses_never_share_memory() -> None:
    course = make_course(
        "one/a.md",
        "?[{{ topic }} A | B]\n",
        "two/b.md",
        "Use {{ topic }}.\n",
        folders=["one", "two"],
    )
    snapshot = course.snapshot
    assert len(snapshot.courses) == 2
    [found] = document_diagnostics(snapshot, course.uri("two/b.md"))
    assert found.code == "unbound-reference"


def test_malformed_course_file_gets_a_diagnostic() -> None:
    course = make_course({"mfcourse.toml": 'name = "x"\nhost = [\n', "a.md": "x\n"})
    [found] = course_file_diagnostics(course.snapshot, course.root)
    assert (found.code, found.severity) == ("course-file-invalid", "error")
    assert "default" in found.message
    assert document_diagnostics(course.snapshot, course.uri("mfcourse.toml")) == [found]


def test_unknown_field_in_course_file_is_a_warning() -> None:
    course = make_course({"mfcourse.toml": 'colour = "red"\n', "a.md": "x\n"})
    [found] = course_file_diagnostics(course.snapshot, course.root)
    assert (found.code, found.severity, found.start, found.end) == (
        "course-file-invalid",
        "warning",
        0,
        6,
    )


def test_unknown_document_has_no_diagnostics() -> None:
    course = make_course({})
    assert document_diagnostics(course.snapshot, "file:///nowhere.md") == []
