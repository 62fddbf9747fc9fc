"""Diagnostics of documents and course files, on course texts: each problem written under
the range it covers as `code severity [tag]: message`, each related place as `related:
message` (`diagnostic_marks`)."""

from mfls.features.code_actions import code_actions
from mfls.features.diagnostics import (
    course_file_diagnostics,
    document_diagnostics,
    scan_diagnostics,
)
from mfls.syntax.model import InvalidMarker, Reason, ScanResult
from mfls.syntax.scanner import scan
from tests.kit.course import course, course_text, diagnostic_marks


def check_document(text: str, name: str = "01.md", folders: tuple[str, ...] = ()) -> None:
    """The diagnostics of document `name` of the course text are its annotations."""
    made = course_text(text, folders=folders)
    made.check(diagnostic_marks(made, name, document_diagnostics(made.snapshot, made.uri(name))))


def check_scan(text: str) -> None:
    """The diagnostics of scanning the one lesson of the course text are its annotations."""
    made = course_text(text)
    lesson = made.text("01.md")
    made.check(diagnostic_marks(made, "01.md", scan_diagnostics(scan(lesson), lesson)))


def test_invalid_markers_by_reason() -> None:
    check_scan(
        """
        A {{ }} B {{ a\x07b }} C
        %%^^^^^ marker-empty error: This memory marker names no question, so it is plain text. Write the question between the braces, for example `{{ What would you like to learn? }}`.
        %%        ^^^^^^^^^ marker-control-character error: This question contains an invisible control character (U+0007). It makes the marker plain text. Delete the character.

        D {{ a
        %%^^^^+ marker-line-break error: This question is broken across lines, so the marker is plain text. A question in a memory marker must fit on one line. Join the lines.
        b }} E
        """  # noqa: E501
    )


def test_unclosed_marker_says_what_it_hides() -> None:
    check_scan(
        """
        Use {{ topic then ?[A|B] and more
        %%  ^^ marker-unclosed error: This `{{` has no closing `}}` in its paragraph. Everything after it, to the end of the paragraph, is plain text. It hides 1 interaction written after it. Close the marker with `}}`.

        {{ fine }}
        """  # noqa: E501
    )


def test_unclosed_marker_counts_in_message() -> None:
    result = ScanResult(
        invalid=(InvalidMarker(4, 40, Reason.UNCLOSED, hidden_markers=2, hidden_interactions=1),)
    )
    [found] = scan_diagnostics(result)
    assert (found.code, found.start, found.end, found.message) == (
        "marker-unclosed",
        4,
        6,
        "This `{{` has no closing `}}` in its paragraph. Everything after it, to the end of"
        " the paragraph, is plain text. It hides 2 memory markers and 1 interaction written"
        " after it. Close the marker with `}}`.",
    )


def test_legacy_binding_is_a_deprecated_hint() -> None:
    check_scan(
        """
        ?[%{{ name }} A | B]
        %%^^^^^^^^^^^ legacy-binding hint deprecated: `%{{...}}` is the old binding syntax: write `{{ name }}`. It binds the same question. markdown-flow 0.3.1, 0.3.4 and 0.4.2 bind only `%{{...}}`: a course run by them keeps it (set `target` in mfcourse.toml).
        """  # noqa: E501
    )


def test_unbound_reference() -> None:
    check_document(
        """
        Use {{ topic }} here.
        %%  ^^^^^^^^^^^ unbound-reference warning: No lesson asks “topic”, so the AI may lack the answer. The host does not provide it either. Bind it in an interaction (`?[{{ topic }} ...]`), or tell the AI to ask for the answer or to use a stated default.
        """  # noqa: E501
    )


def test_bound_keys_are_quiet_in_literal_contexts_too() -> None:
    check_document(
        """
        ?[{{ topic }} A | B]

        Use {{ topic }} and `{{ topic }}`.
        """
    )


def test_host_keys_are_not_unbound() -> None:
    check_document(
        """
        //- mfcourse.toml
        host = "ai-shifu"
        system-keys = ["tenant"]
        //- 01.md
        Hi {{ sys_user_nickname }} of {{ tenant }}.
        """
    )


def test_read_before_asked_in_a_later_lesson() -> None:
    text = """
        //- mfcourse.toml
        lessons = ["intro.md", "later.md"]
        //- intro.md
        Use {{ goal }}.
        %%  ^^^^^^^^^^ read-before-asked information: “goal” is read here before it is asked. In course order the question is first bound in later.md. Ask it earlier, or tell the AI what to do while the answer is missing.
        //- later.md
        ?[{{ goal }} A | B]
        %%   ^^^^ related: first bound here
        """  # noqa: E501
    check_document(text, "intro.md")
    made = course_text(text)
    assert document_diagnostics(made.snapshot, made.uri("later.md")) == []


def test_read_before_asked_later_in_the_same_lesson() -> None:
    check_document(
        """
        Use {{ goal }}.
        %%  ^^^^^^^^^^ read-before-asked information: “goal” is read here before it is asked. In course order the question is first bound later in this lesson. Ask it earlier, or tell the AI what to do while the answer is missing.

        ?[{{ goal }} A | B]
        %%   ^^^^ related: first bound here

        {{ goal }}
        """  # noqa: E501
    )


def test_near_miss_by_spacing_case_punctuation_and_edits() -> None:
    check_document(
        """
        //- a.md
        ?[{{ What would you like to learn? }} A | B]
        %%   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ related: “What would you like to learn?” is bound here
        %%   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ related: “What would you like to learn?” is bound here

        ?[{{ user_name }} ...]
        %%   ^^^^^^^^^ related: “user_name” is bound here
        //- b.md
        {{ what would you like to learn }}
        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ %% near-miss warning: Not bound in this course; did you mean “What would you like to learn?”? “What would you like to learn?” is bound; “what would you like to learn” differs from it only in spacing, letter case, Unicode form or punctuation, but a different text is a different question.

        {{ username }}
        ^^^^^^^^^^^^^^ %% near-miss warning: Not bound in this course; did you mean “user_name”? “user_name” is bound; “username” differs from it only in spacing, letter case, Unicode form or punctuation, but a different text is a different question.

        {{ What would you lke to learn? }}
        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ %% near-miss warning: Not bound in this course; did you mean “What would you like to learn?”? “What would you like to learn?” is bound; “What would you lke to learn?” differs from it only in 1 letter (after ignoring case, spacing and punctuation), but a different text is a different question.

        {{ zebra }}
        ^^^^^^^^^^^ %% unbound-reference warning: No lesson asks “zebra”, so the AI may lack the answer. The host does not provide it either. Bind it in an interaction (`?[{{ zebra }} ...]`), or tell the AI to ask for the answer or to use a stated default.
        """,  # noqa: E501
        "b.md",
    )


def test_near_miss_of_a_host_key() -> None:
    check_document(
        """
        //- mfcourse.toml
        host = "ai-shifu"
        //- 01.md
        {{ sys_user_nicknam }}
        ^^^^^^^^^^^^^^^^^^^^^^ %% near-miss warning: Not bound in this course; did you mean “sys_user_nickname”? “sys_user_nickname” is provided by the host; “sys_user_nicknam” differs from it only in 1 letter (after ignoring case, spacing and punctuation), but a different text is a different question.
        """  # noqa: E501
    )


def test_binding_in_reference_document() -> None:
    check_document(
        """
        //- mfcourse.toml
        references = ["refs/*.md"]
        //- a.md
        ?[{{ goal }} A | B]
        %%   ^^^^ related: a lesson binds it here
        //- refs/glossary.md
        ?[{{ goal }} A | B]
        %%^^^^^^^^^^ binding-in-reference information: A binding here grants no permission to save: bind the question in a lesson. This is a reference document (see `references` in mfcourse.toml), so it saves no answer to “goal”.

        ?[{{ level }} ...]
        %%^^^^^^^^^^^ binding-in-reference information: A binding here grants no permission to save: bind the question in a lesson. This is a reference document (see `references` in mfcourse.toml), so it saves no answer to “level”.

        {{ level }}
        ^^^^^^^^^^^ %% unbound-reference warning: No lesson asks “level”, so the AI may lack the answer. The host does not provide it either. Bind it in an interaction (`?[{{ level }} ...]`), or tell the AI to ask for the answer or to use a stated default.
        """,  # noqa: E501
        "refs/glossary.md",
    )


def test_reserved_key_binding() -> None:
    check_document(
        """
        //- mfcourse.toml
        host = "ai-shifu"
        target = "current"
        //- 01.md
        ?[{{ sys_mine }} A | B]
        %%^^^^^^^^^^^^^^ reserved-key-binding error: Questions starting with `sys_` are reserved by AI-Shifu. The platform rejects binding “sys_mine”: choose another question text.

        ?[{{ sys_user_style }} A | B]
        %%^^^^^^^^^^^^^^^^^^^^ reserved-key-binding error: “sys_user_style” is read-only: the host provides it. AI-Shifu provides “sys_user_style”, so an interaction cannot save an answer to it: choose another question text, or read the provided value without binding it.

        ?[%{{ok}} A]
        """  # noqa: E501
    )


def test_generic_host_reserves_nothing() -> None:
    check_document("?[{{ sys_mine }} A | B]\n")


def test_course_severities_override_and_switch_off() -> None:
    check_document(
        """
        //- mfcourse.toml
        [diagnostics]
        unbound-reference = "error"
        marker-empty = "off"
        //- 01.md
        {{ }} and {{ missing }}
        %%        ^^^^^^^^^^^^^ unbound-reference error: No lesson asks “missing”, so the AI may lack the answer. The host does not provide it either. Bind it in an interaction (`?[{{ missing }} ...]`), or tell the AI to ask for the answer or to use a stated default.
        """  # noqa: E501
    )


def test_courses_never_share_memory() -> None:
    text = """
        //- one/a.md
        ?[{{ topic }} A | B]
        //- two/b.md
        Use {{ topic }}.
        %%  ^^^^^^^^^^^ unbound-reference warning: No lesson asks “topic”, so the AI may lack the answer. The host does not provide it either. Bind it in an interaction (`?[{{ topic }} ...]`), or tell the AI to ask for the answer or to use a stated default.
        """  # noqa: E501
    assert len(course_text(text, folders=["one", "two"]).snapshot.courses) == 2
    check_document(text, "two/b.md", folders=("one", "two"))


def test_malformed_course_file_gets_a_diagnostic() -> None:
    # The reader runs to the end of the file to close the `[`: the problem is the line
    # that opens it, not the end of the file.
    text = """
        //- mfcourse.toml
        name = "x"
        host = [
        ^^^^^^^^ %% course-file-invalid error: The course file is not valid TOML. Every setting uses its default until it is fixed; the TOML reader says: Invalid value.

        # the end
        //- a.md
        x
        """  # noqa: E501
    check_document(text, "mfcourse.toml")
    made = course_text(text)
    [found] = course_file_diagnostics(made.snapshot, made.root)
    assert document_diagnostics(made.snapshot, made.uri("mfcourse.toml")) == [found]


def test_unknown_field_in_course_file_is_a_warning() -> None:
    check_document(
        """
        //- mfcourse.toml
        colour = "red"
        ^^^^^^ %% course-file-invalid warning: Unknown setting `colour` is ignored. The course file knows `name`, `host`, `target`, `page`, `lessons`, `references`, `system-keys`, `diagnostics`.
        //- 01.md
        x
        """,  # noqa: E501
        "mfcourse.toml",
    )


def test_unknown_document_has_no_diagnostics() -> None:
    made = course({})
    assert document_diagnostics(made.snapshot, "file:///nowhere.md") == []


def _cached_entries(made_course: object) -> int:
    """How many entries the course's derived cache holds, counting each kept dict, list or
    set (and those a kept tuple holds) by its length."""

    def size(value: object) -> int:
        if isinstance(value, dict | list | set | frozenset):
            return len(value)
        if isinstance(value, tuple):
            return sum(size(part) for part in value)
        return 0

    values = made_course.cache._values  # type: ignore[attr-defined]
    return sum(size(value) for value in values.values())


def test_code_actions_on_one_snapshot_keep_the_course_cache_bounded() -> None:
    # Each request words the document's findings again: what it keeps for the snapshot
    # must not grow with the number of requests (it grew by every finding each time).
    lines = [f"?[%{{{{ old{n} }}}} A | B]\n\nUse {{{{ key{n} }}}}.\n\n" for n in range(60)]
    made = course_text("//- 01.md\n" + "".join(lines))
    uri = made.uri("01.md")
    snapshot = made.snapshot
    (course,) = snapshot.courses.values()
    end = len(made.text("01.md"))
    code_actions(snapshot, uri, 0, end)
    after_one = _cached_entries(course)
    for _ in range(20):
        code_actions(snapshot, uri, 0, end)
    assert _cached_entries(course) == after_one
