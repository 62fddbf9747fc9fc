"""One registry per diagnostic code: the docs' tables say what it says, every message is in
both languages, and the quick fixes offered for a code are the ones it lists; a literal
reference gets the fixes the docs promise; a legacy learner-profile binding is one
verdict in every view."""

from __future__ import annotations

import pytest

from mfls.features.code_actions import code_actions
from mfls.features.course_map import course_map, key_table, key_table_markdown
from mfls.features.course_map_svg import shape
from mfls.features.diagnostics import document_diagnostics
from mfls.features.facts import KINDS, LEGEND, PLACE_LEGACY_PROFILE, PROBLEM_CODES, facts_of
from mfls.features.hover import hover
from mfls.features.messages import EN, MESSAGES, ZH
from mfls.text.edits import apply_changes
from mfls.workspace.diagnostic_registry import BY_CODE, COURSE_FILE_INVALID, REGISTRY
from tests.kit.course import course as make_course
from tests.kit.course import course_text, diagnostic_marks, expect, hover_text


def test_every_code_has_its_messages_in_both_languages_and_a_short_summary() -> None:
    for info in REGISTRY:
        assert 0 < len(info.summary) <= 80, info.code
        if info.code == COURSE_FILE_INVALID:  # its messages are the course file's problems
            continue
        assert info.message_ids, info.code
        for message_id in info.message_ids:
            assert message_id.split(".")[0] == info.code
            assert MESSAGES[message_id][EN] and MESSAGES[message_id][ZH], message_id
    # Every message of a code is one the registry lists for it.
    listed = {m for info in REGISTRY for m in info.message_ids}
    assert {m for m in MESSAGES if m.split(".")[0] in BY_CODE} == listed


def test_every_fix_of_the_registry_is_an_action_title() -> None:
    fixes = {fix for info in REGISTRY for fix in info.fixes}
    assert fixes == {
        "action.convert-legacy",
        "action.bind-with",
        "action.replace-with",
        "action.ask-for",
        "action.page-rename",
        "action.page-form",
        "action.remove-suppression",
    }
    assert all(fix in MESSAGES for fix in fixes)


def _title_id(title: str, candidates: tuple[str, ...]) -> str:
    """Which of the `candidates` message ids `title` (English) was rendered from."""
    for message_id in candidates:
        literal = MESSAGES[message_id][EN].split("${", 1)[0]
        if title.startswith(literal):
            return message_id
    raise AssertionError(f"{title!r} is none of {candidates}")


FIXTURES = {
    "current": (
        'lessons = ["l*.md"]\n',
        {
            "l1.md": "?[%{{ colour }} Red | Blue]\n\n{{ color }} {{ nowhere }} `{{ nowhere }}`\n",
        },
    ),
    "old target": (
        'lessons = ["l*.md"]\ntarget = "markdown-flow-0.4"\n',
        {"l1.md": "?[{{ colour }} Red | Blue]\n"},
    ),
}


@pytest.mark.parametrize("fixture", sorted(FIXTURES))
def test_the_fixes_offered_for_a_code_are_the_ones_the_registry_lists(fixture: str) -> None:
    config, files = FIXTURES[fixture]
    found = make_course({"mfcourse.toml": config, **files})
    seen: set[tuple[str, str]] = set()
    for name, text in files.items():
        uri = found.uri(name)
        diagnosed = {(d.code, d.start, d.end) for d in document_diagnostics(found.snapshot, uri)}
        for action in code_actions(found.snapshot, uri, 0, len(text)):
            if action.fixes is None:
                continue
            assert action.fixes_range is not None
            assert (action.fixes, *action.fixes_range) in diagnosed, action
            fix = _title_id(action.title, BY_CODE[action.fixes].fixes)
            seen.add((action.fixes, fix))
    expected = {
        "current": {
            ("legacy-binding", "action.convert-legacy"),
            ("near-miss", "action.replace-with"),
            ("near-miss", "action.ask-for"),
            ("unbound-reference", "action.ask-for"),
        },
        "old target": {("runtime-binding-ignored", "action.bind-with")},
    }
    assert seen == expected[fixture]


def test_a_literal_reference_gets_the_fixes_of_its_diagnostic_and_a_dropped_one_none() -> None:
    found = course_text(
        """
        //- mfcourse.toml
        host = "ai-shifu"
        target = "current"
        lessons = ["*.md"]
        //- a.md
        ?[%{{colour}} Red]
        %%   ^^^^^^ related: “colour” is bound here

        See `{{ colur }}`.
        %%   ^^^^^^^^^^^ near-miss warning: Not bound in this course; did you mean “colour”? “colour” is bound; “colur” differs from it only in 1 letter (after ignoring case, spacing and punctuation), but a different text is a different question.

        <!-- {{ colur }} -->
        """  # noqa: E501
    )
    uri, text = found.uri("a.md"), found.text("a.md")
    found.check(diagnostic_marks(found, "a.md", document_diagnostics(found.snapshot, uri)))
    literal = text.index("{{ colur }}")
    dropped = text.index("{{ colur }}", literal + 1)
    at_literal = code_actions(found.snapshot, uri, literal, literal, course_wide=False)
    # No merge (a refactor) on a literal.
    assert [(a.title, a.kind, a.fixes) for a in at_literal] == [
        ("Replace with {{ colour }}", "quickfix", "near-miss"),
        ("Ask for “colur” in an interaction before its first use", "quickfix", "near-miss"),
        ("Ignore this problem here (near-miss)", "quickfix", None),
    ]
    fixes = [_title_id(a.title, BY_CODE["near-miss"].fixes) for a in at_literal if a.fixes]
    assert fixes == ["action.replace-with", "action.ask-for"]
    assert code_actions(found.snapshot, uri, dropped, dropped, course_wide=False) == []


def test_a_legacy_profile_binding_is_legacy_profile_key_in_every_view() -> None:
    found = course_text(
        """
        //- mfcourse.toml
        host = "ai-shifu"
        target = "current"
        lessons = ["l*.md"]
        //- l1.md
        Hello.

        ?[%{{sys_user_nickname}}...your name]
        %%^^^^^^^^^^^^^^^^^^^^^^ legacy-profile-key warning: “sys_user_nickname” is a legacy learner-profile key: keep `%{{...}}` here. AI-Shifu still accepts `%{{...}}` bindings of its legacy learner-profile keys (`sys_user_background`, `sys_user_nickname`, `sys_user_style`) but rejects other bindings of questions starting with `sys_`. Do not convert it to `{{ sys_user_nickname }}`: that form is such a binding, an error.

        ?[{{ sys_colour }} Red]
        %%^^^^^^^^^^^^^^^^ reserved-key-binding error: Questions starting with `sys_` are reserved by AI-Shifu. The platform rejects binding “sys_colour”: choose another question text.
        //- l2.md
        Hi {{ sys_user_nickname }}.
        """  # noqa: E501
    )
    course = found.snapshot.courses["/course"]
    uri = found.uri("l1.md")
    found.check(
        mark
        for name in ("l1.md", "l2.md")
        for mark in diagnostic_marks(
            found, name, document_diagnostics(found.snapshot, found.uri(name))
        )
    )
    the_map = course_map(course)
    lane = next(k for k in the_map.keys if k.key == "sys_user_nickname")
    assert [p.kind for p in lane.asked] == [PLACE_LEGACY_PROFILE]
    assert [(p.code, p.count) for p in lane.problems] == [("legacy-profile-key", 1)]
    assert LEGEND[PLACE_LEGACY_PROFILE] != LEGEND["reserved"]
    assert PROBLEM_CODES[PLACE_LEGACY_PROFILE] == "legacy-profile-key"
    row = next(r for r in key_table(the_map) if r["key"] == "sys_user_nickname")
    assert row["problems"] == [{"code": "legacy-profile-key", "count": 1}]
    assert key_table_markdown(the_map).splitlines()[6:] == [
        "| sys\\_user\\_nickname (host) | l1.md (line 3) | 1 in 1 lesson | legacy-profile-key |",
        # The host rejects the binding of sys_colour: it saves nothing, so it asks nothing.
        "| sys\\_colour (host) | — | 0 in 0 lessons | reserved-key-binding |",
    ]
    shown = hover(found.snapshot, uri, found.offset_of("l1.md", "%{{", 5))
    expect(hover_text(found, shown, "l1.md"), "hover/legacy_profile_key_binding.md")
    sys_colour = next(k for k in the_map.keys if k.key == "sys_colour")
    assert [(p.code, p.count) for p in sys_colour.problems] == [("reserved-key-binding", 1)]
    assert sys_colour.asked_in == ()  # its place is there, its lesson asks nothing
    shown = hover(found.snapshot, uri, found.offset_of("l1.md", "sys_colour"))
    expect(hover_text(found, shown, "l1.md"), "hover/reserved_key_binding.md")
    assert facts_of(course) is facts_of(course)  # decided once per snapshot


def test_every_kind_of_place_has_its_own_svg_shape() -> None:
    assert len({shape(kind, 10, 10) for kind in KINDS}) == len(KINDS)


def test_a_reserved_key_bound_in_the_old_form_gets_no_advice_to_write_the_new_form() -> None:
    # `{{ sys_user_language }}` would be a reserved-key-binding error too: the old form
    # gets no legacy-binding hint and no conversion, only the error's own advice.
    found = course_text(
        """
        //- mfcourse.toml
        host = "ai-shifu"
        target = "current"
        page = []
        //- a.md
        ?[%{{ sys_user_language }} ...Your language]
        %%^^^^^^^^^^^^^^^^^^^^^^^^ reserved-key-binding error: “sys_user_language” is read-only: the host provides it. AI-Shifu provides “sys_user_language”, so an interaction cannot save an answer to it: choose another question text, or read the provided value without binding it.

        ?[%{{ sys_colour }} ...Colour]
        %%^^^^^^^^^^^^^^^^^ reserved-key-binding error: Questions starting with `sys_` are reserved by AI-Shifu. The platform rejects binding “sys_colour”: choose another question text.

        ?[%{{ goal }} ...Goal]
        %%^^^^^^^^^^^ legacy-binding hint deprecated: `%{{...}}` is the old binding syntax: write `{{ goal }}`. It binds the same question. markdown-flow 0.3.1, 0.3.4 and 0.4.2 bind only `%{{...}}`: a course run by them keeps it (set `target` in mfcourse.toml).
        """  # noqa: E501
    )
    uri, text = found.uri("a.md"), found.text("a.md")
    found.check(diagnostic_marks(found, "a.md", document_diagnostics(found.snapshot, uri)))
    titles = {}
    for key in ("sys_user_language", "sys_colour"):
        at = text.index(key)
        titles[key] = [a.title for a in code_actions(found.snapshot, uri, at, at)]
    assert titles == {
        "sys_user_language": [
            "Ignore this problem here (reserved-key-binding)",
            "Convert every legacy binding in this document to {{ key }}",
            "Convert every legacy binding in this course to {{ key }}",
        ],
        "sys_colour": [
            "Ignore this problem here (reserved-key-binding)",
            "Convert every legacy binding in this document to {{ key }}",
            "Convert every legacy binding in this course to {{ key }}",
        ],
    }
    # Converting every legacy binding converts the one of `goal` only.
    at = text.index("goal")
    for action in code_actions(found.snapshot, uri, at, at):
        if action.title.startswith("Convert every legacy binding"):
            assert action.change is not None
            (document,) = action.change.documents
            assert apply_changes(text, document.changes) == text.replace(
                "%{{ goal }}", "{{ goal }}"
            )
