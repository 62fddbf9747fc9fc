"""Sharper diagnostics (issue 11): legacy learner-profile bindings on AI-Shifu, a line
break that is really a missing `}}`, and an interaction that offers nothing to answer.
What markdown-flow does with the same texts: tests/hosts/test_markdown_flow_sdk.py."""

from __future__ import annotations

import re

import pytest

from mfls.features.code_actions import code_actions
from mfls.features.diagnostics import Diagnostic, document_diagnostics, scan_diagnostics
from mfls.features.hover import hover
from mfls.syntax.scanner import scan
from tests.kit.course import course, course_text, diagnostic_marks, expect, hover_text

# These tests are about the current syntax on AI-Shifu (whose default target is
# markdown-flow-0.4, see tests/features/test_target.py), as the SDK reads it: `page = []`
# targets no learner page (whose reading tests/handlers/test_handlers_page_bindings.py
# tests).
AI_SHIFU = """
        //- mfcourse.toml
        host = "ai-shifu"
        target = "current"
        page = []
        //- 01.md"""


def diagnostics(text: str, config: str | None = None) -> list[Diagnostic]:
    made = course({"a.md": text}, config=config)
    return document_diagnostics(made.snapshot, made.uri("a.md"))


def check_document(text: str) -> None:
    """The diagnostics of lesson 01.md of the course text are its annotations."""
    made = course_text(text)
    made.check(
        diagnostic_marks(made, "01.md", document_diagnostics(made.snapshot, made.uri("01.md")))
    )


def check_scan(text: str) -> None:
    """The diagnostics of scanning the one lesson of the course text are its annotations."""
    made = course_text(text)
    lesson = made.text("01.md")
    made.check(diagnostic_marks(made, "01.md", scan_diagnostics(scan(lesson), lesson)))


def first_sentence(message: str) -> str:
    return re.split(r"(?<=[.!?])\s", message, maxsplit=1)[0]


# -- legacy learner-profile keys ----------------------------------------------------------


@pytest.mark.parametrize("key", ["sys_user_nickname", "sys_user_background", "sys_user_style"])
def test_legacy_profile_binding_is_a_warning_without_hint_or_conversion(key: str) -> None:
    marks = "^" * len(f"%{{{{{key}}}}}")
    made = course_text(
        AI_SHIFU
        + f"""
        ?[%{{{{{key}}}}} ...]
        %%{marks} legacy-profile-key warning: “{key}” is a legacy learner-profile key: keep `%{{{{...}}}}` here. AI-Shifu still accepts `%{{{{...}}}}` bindings of its legacy learner-profile keys (`sys_user_background`, `sys_user_nickname`, `sys_user_style`) but rejects other bindings of questions starting with `sys_`. Do not convert it to `{{{{ {key} }}}}`: that form is such a binding, an error.
        """  # noqa: E501
    )
    uri = made.uri("01.md")
    made.check(diagnostic_marks(made, "01.md", document_diagnostics(made.snapshot, uri)))
    actions = code_actions(made.snapshot, uri, 0, len(made.text("01.md")))
    # Nothing converts it: "Ignore this problem here" only silences it.
    assert [(a.title, a.kind, a.fixes, a.silences) for a in actions] == [
        (f"Pad marker to %{{{{ {key} }}}}", "quickfix", None, None),
        ("Ignore this problem here (legacy-profile-key)", "quickfix", None, "legacy-profile-key"),
        ("Pad every marker in this document to {{ key }}", "source.mfls.padMarkers", None, None),
        (
            "Pad every marker in this course to {{ key }}",
            "source.mfls.padMarkers.course",
            None,
            None,
        ),
    ]
    expect(hover_text(made, hover(made.snapshot, uri, 5)), f"hover/legacy_profile_{key}.md")


def test_new_form_binding_of_a_legacy_profile_key_stays_an_error() -> None:
    check_document(
        AI_SHIFU
        + """
        ?[{{ sys_user_nickname }} ...]
        %%^^^^^^^^^^^^^^^^^^^^^^^ reserved-key-binding error: “sys_user_nickname” is read-only: the host provides it. AI-Shifu provides “sys_user_nickname”, so an interaction cannot save an answer to it: choose another question text, or read the provided value without binding it.
        """  # noqa: E501
    )


def test_other_sys_keys_keep_the_error_without_the_hint() -> None:
    # No legacy-binding hint: the `{{ key }}` form it would advise is the same error.
    check_document(
        AI_SHIFU
        + """
        ?[%{{ sys_user_language }} ...]
        %%^^^^^^^^^^^^^^^^^^^^^^^^ reserved-key-binding error: “sys_user_language” is read-only: the host provides it. AI-Shifu provides “sys_user_language”, so an interaction cannot save an answer to it: choose another question text, or read the provided value without binding it.

        ?[%{{ sys_mine }} A]
        %%^^^^^^^^^^^^^^^ reserved-key-binding error: Questions starting with `sys_` are reserved by AI-Shifu. The platform rejects binding “sys_mine”: choose another question text.
        """  # noqa: E501
    )


def test_one_key_in_both_forms_gets_each_its_verdict() -> None:
    check_document(
        AI_SHIFU
        + """
        ?[%{{ sys_user_style }} A]
        %%^^^^^^^^^^^^^^^^^^^^^ legacy-profile-key warning: “sys_user_style” is a legacy learner-profile key: keep `%{{...}}` here. AI-Shifu still accepts `%{{...}}` bindings of its legacy learner-profile keys (`sys_user_background`, `sys_user_nickname`, `sys_user_style`) but rejects other bindings of questions starting with `sys_`. Do not convert it to `{{ sys_user_style }}`: that form is such a binding, an error.

        ?[{{ sys_user_style }} B]
        %%^^^^^^^^^^^^^^^^^^^^ reserved-key-binding error: “sys_user_style” is read-only: the host provides it. AI-Shifu provides “sys_user_style”, so an interaction cannot save an answer to it: choose another question text, or read the provided value without binding it.
        """  # noqa: E501
    )


def test_generic_host_knows_no_profile_keys() -> None:
    check_document(
        """
        ?[%{{ sys_user_nickname }} ...]
        %%^^^^^^^^^^^^^^^^^^^^^^^^ legacy-binding hint deprecated: `%{{...}}` is the old binding syntax: write `{{ sys_user_nickname }}`. It binds the same question. markdown-flow 0.3.1, 0.3.4 and 0.4.2 bind only `%{{...}}`: a course run by them keeps it (set `target` in mfcourse.toml).
        """  # noqa: E501
    )


# -- a line break that is a missing `}}` --------------------------------------------------

MISSING_CLOSER = (
    "marker-line-break error: This marker is probably missing its `}}`: close it where the"
    " question ends. It runs on {how}, so the marker is plain text. Joining the lines would"
    " make one long, wrong question."
)
INTO_NEXT = "into the next marker and ends at that marker's `}}`"
OVER_3 = "over 3 lines to a later `}}`"


@pytest.mark.parametrize(
    ("text", "how"),
    [
        ("Hello {{ name\n%%    ^^^^^^^+ {message}\nand then {{ topic }} ok.\n", INTO_NEXT),
        ("Hello {{ name\n%%    ^^^^^^^+ {message}\nnow ?[{{ q }} A] }}\n", INTO_NEXT),
        ("Hello {{ name\n%%    ^^^^^^^+ {message}\nsome text\nmore text }}\n", OVER_3),
        ("Ask ?[{{ q\n%%    ^^^^+ {message}\nmore\nstill }} A | B]\n", OVER_3),
    ],
)
def test_a_missing_closer_says_to_close_the_marker(text: str, how: str) -> None:
    check_scan(text.replace("{message}", MISSING_CLOSER.replace("{how}", how)))


def test_into_an_interaction_without_a_marker() -> None:
    message = MISSING_CLOSER.replace("{how}", "into an interaction and ends at a later `}}`")
    check_scan(f"Hello {{{{ name\n%%    ^^^^^^^+ {message}\nnow ?[A | B] }}}}\n")


JOIN_THE_LINES = (
    "marker-line-break error: This question is broken across lines, so the marker is plain"
    " text. A question in a memory marker must fit on one line. Join the lines."
)


@pytest.mark.parametrize(
    "text",
    [
        "Tell me {{ What is\n%%      ^^^^^^^^^^+ {message}\nyour name? }}\n",
        "{{\n^^+ %% {message}\nkey with\r\nbreak\n}}\n",
    ],
)
def test_a_question_wrapped_once_says_to_join_the_lines(text: str) -> None:
    check_scan(text.replace("{message}", JOIN_THE_LINES))


def test_edge_padding_lines_are_no_line_break_at_all() -> None:
    text = "{{\nkey\n}}\n"
    assert scan_diagnostics(scan(text), text) == []


# -- an interaction that offers nothing ----------------------------------------------------


def test_binding_without_choices_or_input() -> None:
    check_scan(
        """
        ?[{{ q }}]
        ^^^^^^^^^^ %% empty-interaction warning: This interaction offers no choices and no `...` input field. markdown-flow 0.4.2 shows `?[{{ q }}]` as one button that reads the value of “q” (UNKNOWN while unset) and saves nothing. Add choices (`A | B`) or `...` for a text input.
        """  # noqa: E501
    )


def test_legacy_binding_without_choices_or_input() -> None:
    check_scan(
        """
        ?[%{{ q }}]
        ^^^^^^^^^^^ %% empty-interaction warning: This interaction offers no choices and no `...` input field. markdown-flow 0.4.2 shows `?[%{{ q }}]` as a text input with an empty hint; write `?[%{{ q }} ...]` to say so.
        %%^^^^^^^^ legacy-binding hint deprecated: `%{{...}}` is the old binding syntax: write `{{ q }}`. It binds the same question. markdown-flow 0.3.1, 0.3.4 and 0.4.2 bind only `%{{...}}`: a course run by them keeps it (set `target` in mfcourse.toml).
        """  # noqa: E501
    )


@pytest.mark.parametrize("text", ["?[{{ q }} ...]", "?[{{ q }} A]", "?[]", "?[A | B]", "?[...]"])
def test_interactions_that_ask_something_are_quiet(text: str) -> None:
    assert [d.code for d in scan_diagnostics(scan(text), text)] == []


def test_empty_interaction_severity_can_be_changed() -> None:
    config = '[diagnostics]\n"empty-interaction" = "off"\n'
    assert diagnostics("?[{{ q }}]\n", config) == []


# -- messages carry their point first ------------------------------------------------------


def test_new_messages_lead_with_a_short_sentence() -> None:
    ai_shifu = 'host = "ai-shifu"\ntarget = "current"\npage = []\n'
    texts = [
        ("?[%{{ sys_user_background }} ...]\n", ai_shifu),
        ("?[{{ q }}]\n\n?[%{{ r }}]\n", None),
        ("Hi {{ name\nand {{ topic }} ok\n", None),
    ]
    seen = set()
    for text, config in texts:
        for found in diagnostics(text, config):
            if found.code in {"legacy-profile-key", "empty-interaction", "marker-line-break"}:
                seen.add(found.code)
                assert len(first_sentence(found.message)) <= 80, found.message
    assert seen == {"legacy-profile-key", "empty-interaction", "marker-line-break"}


def test_source_actions_convert_every_legacy_binding_but_profile_keys() -> None:
    made = course_text(
        AI_SHIFU
        + """
        ?[%{{ sys_user_nickname }} ...]

        ?[%{{ goal }} A | B]
        """
    )
    actions = code_actions(made.snapshot, made.uri("01.md"), 0, 0)
    converting = [
        (
            a.title,
            [(made.name_of(d.uri), [c.new_text for c in d.changes]) for d in a.change.documents],
        )
        for a in actions
        if a.title.startswith("Convert every legacy binding")
    ]
    assert converting == [  # this document, and the course
        ("Convert every legacy binding in this document to {{ key }}", [("01.md", ["{{ goal }}"])]),
        ("Convert every legacy binding in this course to {{ key }}", [("01.md", ["{{ goal }}"])]),
    ]


def test_hover_on_a_missing_closer() -> None:
    made = course_text("Hello {{ $0name\nand then {{ topic }} ok.\n")
    expect(
        hover_text(made, hover(made.snapshot, made.cursor_uri, made.offset)),
        "hover/missing_closer.md",
    )
