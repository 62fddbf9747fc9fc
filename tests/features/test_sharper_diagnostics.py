"""Sharper diagnostics (issue 11): legacy learner-profile bindings on AI-Shifu, a line
break that is really a missing `}}`, and an interaction that offers nothing to answer.
What markdown-flow does with the same texts: tests/hosts/test_markdown_flow_sdk.py."""

from __future__ import annotations

import re

import pytest
from course_kit import course as make_course

from mfls.features.code_actions import code_actions
from mfls.features.diagnostics import Diagnostic, document_diagnostics, scan_diagnostics
from mfls.features.hover import hover
from mfls.syntax.scanner import scan

# These tests are about the current syntax on AI-Shifu (whose default target is
# markdown-flow-0.4, see tests/features/test_target.py), as the SDK reads it: `page = []`
# targets no learner page (whose reading tests/handlers/test_handlers_page_bindings.py
# tests).
AI_SHIFU = 'host = "ai-shifu"\ntarget = "current"\npage = []\n'


def diagnostics(text: str, config: str | None = None) -> list[Diagnostic]:
    course = make_course({"a.md": text}, config=config)
    return document_diagnostics(course.snapshot, course.uri("a.md"))


def first_sentence(message: str) -> str:
    return re.split(r"(?<=[.!?])\s", message, maxsplit=1)[0]


# -- legacy learner-profile keys ----------------------------------------------------------


@pytest.mark.parametrize("key", ["sys_user_nickname", "sys_user_background", "sys_user_style"])
def test_legacy_profile_binding_is_a_warning_without_hint_or_conversion(key: str) -> None:
    text = f"?[%{{{{{key}}}}} ...]\n"
    course = make_course({"a.md": text}, config=AI_SHIFU)
    uri = course.uri("a.md")
    [found] = document_diagnostics(course.snapshot, uri)
    assert (found.code, found.severity) == ("legacy-profile-key", "warning")
    assert found.message.startswith(f"“{key}” is a legacy learner-profile key: keep")
    assert "`sys_user_background`, `sys_user_nickname`, `sys_user_style`" in found.message
    assert f"Do not convert it to `{{{{ {key} }}}}`" in found.message
    actions = code_actions(course.snapshot, uri, 0, len(text))
    # Nothing converts it ("Ignore this problem here (legacy-profile-key)" only silences it).
    fixes = [a for a in actions if a.silences is None]
    assert not [a for a in fixes if "legacy" in a.title.lower() or a.fixes == "legacy-binding"]
    shown = hover(course.snapshot, uri, 5)
    assert shown is not None and "still accepts its `%{{...}}` binding" in shown.markdown


def test_new_form_binding_of_a_legacy_profile_key_stays_an_error() -> None:
    [found] = diagnostics("?[{{ sys_user_nickname }} ...]\n", AI_SHIFU)
    assert (found.code, found.severity) == ("reserved-key-binding", "error")


def test_other_sys_keys_keep_the_error_and_the_hint() -> None:
    found = diagnostics("?[%{{ sys_user_language }} ...]\n\n?[%{{ sys_mine }} A]\n", AI_SHIFU)
    assert sorted((d.code, d.severity) for d in found) == [
        ("legacy-binding", "hint"),
        ("legacy-binding", "hint"),
        ("reserved-key-binding", "error"),
        ("reserved-key-binding", "error"),
    ]


def test_one_key_in_both_forms_gets_each_its_verdict() -> None:
    text = "?[%{{ sys_user_style }} A]\n\n?[{{ sys_user_style }} B]\n"
    found = diagnostics(text, AI_SHIFU)
    assert [(d.code, text[d.start : d.end]) for d in found] == [
        ("legacy-profile-key", "%{{ sys_user_style }}"),
        ("reserved-key-binding", "{{ sys_user_style }}"),
    ]


def test_generic_host_knows_no_profile_keys() -> None:
    [found] = diagnostics("?[%{{ sys_user_nickname }} ...]\n")
    assert found.code == "legacy-binding"


# -- a line break that is a missing `}}` --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "how"),
    [
        ("Hello {{ name\nand then {{ topic }} ok.\n", "runs on into the next marker"),
        ("Hello {{ name\nnow ?[{{ q }} A] }}\n", "into the next marker"),
        ("Hello {{ name\nsome text\nmore text }}\n", "runs on over 3 lines"),
        ("Ask ?[{{ q\nmore\nstill }} A | B]\n", "runs on over 3 lines"),
    ],
)
def test_a_missing_closer_says_to_close_the_marker(text: str, how: str) -> None:
    found = [d for d in scan_diagnostics(scan(text), text) if d.code == "marker-line-break"]
    [diagnostic] = found
    assert first_sentence(diagnostic.message) == (
        "This marker is probably missing its `}}`: close it where the question ends."
    )
    assert how in diagnostic.message and "Join the lines." not in diagnostic.message


def test_into_an_interaction_without_a_marker() -> None:
    text = "Hello {{ name\nnow ?[A | B] }}\n"
    [diagnostic] = scan_diagnostics(scan(text), text)
    assert "runs on into an interaction" in diagnostic.message


@pytest.mark.parametrize(
    "text", ["Tell me {{ What is\nyour name? }}\n", "{{\nkey with\r\nbreak\n}}\n"]
)
def test_a_question_wrapped_once_says_to_join_the_lines(text: str) -> None:
    [diagnostic] = scan_diagnostics(scan(text), text)
    assert diagnostic.code == "marker-line-break" and "Join the lines." in diagnostic.message


def test_edge_padding_lines_are_no_line_break_at_all() -> None:
    text = "{{\nkey\n}}\n"
    assert scan_diagnostics(scan(text), text) == []


# -- an interaction that offers nothing ----------------------------------------------------


def test_binding_without_choices_or_input() -> None:
    text = "?[{{ q }}]\n"
    [found] = scan_diagnostics(scan(text), text)
    assert (found.code, found.severity) == ("empty-interaction", "warning")
    assert (found.start, found.end) == (0, len("?[{{ q }}]"))
    assert first_sentence(found.message) == (
        "This interaction offers no choices and no `...` input field."
    )
    assert (
        "markdown-flow 0.4.2 shows `?[{{ q }}]` as one button that reads the value of “q” "
        "(UNKNOWN while unset) and saves nothing." in found.message
    )


def test_legacy_binding_without_choices_or_input() -> None:
    text = "?[%{{ q }}]\n"
    found = {d.code: d for d in scan_diagnostics(scan(text), text)}
    assert set(found) == {"empty-interaction", "legacy-binding"}
    assert (
        "markdown-flow 0.4.2 shows `?[%{{ q }}]` as a text input with an empty hint; write "
        "`?[%{{ q }} ...]` to say so." in found["empty-interaction"].message
    )


@pytest.mark.parametrize("text", ["?[{{ q }} ...]", "?[{{ q }} A]", "?[]", "?[A | B]", "?[...]"])
def test_interactions_that_ask_something_are_quiet(text: str) -> None:
    assert [d.code for d in scan_diagnostics(scan(text), text)] == []


def test_empty_interaction_severity_can_be_changed() -> None:
    config = '[diagnostics]\n"empty-interaction" = "off"\n'
    assert diagnostics("?[{{ q }}]\n", config) == []


# -- messages carry their point first ------------------------------------------------------


def test_new_messages_lead_with_a_short_sentence() -> None:
    texts = [
        ("?[%{{ sys_user_background }} ...]\n", AI_SHIFU),
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
    text = "?[%{{ sys_user_nickname }} ...]\n\n?[%{{ goal }} A | B]\n"
    course = make_course({"a.md": text}, config=AI_SHIFU)
    actions = code_actions(course.snapshot, course.uri("a.md"), 0, 0)
    converting = [a for a in actions if a.title.startswith("Convert every legacy binding")]
    assert len(converting) == 2  # this document, and the course
    for action in converting:
        [document] = action.change.documents
        assert [c.new_text for c in document.changes] == ["{{ goal }}"]


def test_hover_on_a_missing_closer() -> None:
    text = "Hello {{ name\nand then {{ topic }} ok.\n"
    course = make_course({"a.md": text})
    shown = hover(course.snapshot, course.uri("a.md"), text.index("name"))
    assert shown is not None
    assert "it probably lacks its `}}`: it runs on into the next marker" in shown.markdown
