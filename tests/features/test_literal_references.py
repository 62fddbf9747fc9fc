"""Literal references count (issue 11): a complete, valid marker in a literal context gets
the course diagnostics of any reference, except in the contexts the host drops; hover
says which; completion works there; rename and references cover every reported marker.
The runtime facts behind the AI-Shifu profile are in tests/hosts/test_markdown_flow_sdk.py.
"""

from __future__ import annotations

import pytest

from mfls.features.completion import complete
from mfls.features.diagnostics import document_diagnostics
from mfls.features.hover import hover
from mfls.features.navigation import references
from mfls.features.refusal import Refusal
from mfls.features.rename import WorkspaceChange, rename
from mfls.text.edits import apply_changes
from tests.kit.course import course as make_course
from tests.kit.course import expect, hover_text

AI_SHIFU = 'host = "ai-shifu"\n'
BOUND = "?[{{ focus_direction }} Up | Down]\n\n"


def codes(text: str, config: str | None = None) -> list[tuple[str, str]]:
    """(code, marked source text) of every diagnostic of a one-lesson course."""
    course = make_course({"a.md": text}, config=config)
    found = document_diagnostics(course.snapshot, course.uri("a.md"))
    return [(d.code, text[d.start : d.end]) for d in found]


def test_a_typo_in_a_code_span_is_a_near_miss() -> None:
    text = BOUND + "Your focus: `{{focus_directon}}`.\n"
    assert codes(text) == [("near-miss", "{{focus_directon}}")]


@pytest.mark.parametrize(
    "literal",
    [
        "`{{ topic }}`",
        '<span title="{{ topic }}">x</span>',
        "[link]({{ topic }})",
        '[link](/u "{{ topic }}")',
        "$x{{ topic }}$",
        "<http://x/{{ topic }}>",
    ],
)
def test_inline_literal_contexts_raise_unbound_reference(literal: str) -> None:
    text = f"Read {literal} here.\n"
    for config in (None, AI_SHIFU):
        assert [code for code, _ in codes(text, config)] == ["unbound-reference"]


@pytest.mark.parametrize(
    "block",
    [
        "<pre>\n{{ topic }}\n</pre>\n",
        "<script>\nvar t = '{{ topic }}';\n</script>\n",
        "<textarea>\n{{ topic }}\n</textarea>\n",
        "<?php\n{{ topic }}\n?>\n",
        "<![CDATA[\n{{ topic }}\n]]>\n",
    ],
)
def test_raw_html_blocks_raise_course_diagnostics(block: str) -> None:
    for config in (None, AI_SHIFU):
        assert codes(block, config) == [("unbound-reference", "{{ topic }}")]


def test_read_before_asked_in_a_raw_html_block() -> None:
    text = "<pre>\n{{ goal }}\n</pre>\n\n?[{{ goal }} A | B]\n"
    assert codes(text) == [("read-before-asked", "{{ goal }}")]


@pytest.mark.parametrize(
    "text",
    [
        "Text <!-- {{ topic }} --> more.\n",
        "<!--\n{{ topic }}\n-->\n",
        "```py {{ topic }}\ncode\n```\n",
    ],
)
def test_contexts_ai_shifu_drops_raise_nothing_there(text: str) -> None:
    assert codes(text, AI_SHIFU) == []
    # The generic host makes no such promise: any reported marker may be substituted.
    assert [code for code, _ in codes(text)] == ["unbound-reference"]


def test_hover_says_a_comment_is_never_substituted_on_ai_shifu() -> None:
    text = "<!--\n{{ topic }}\n-->\n"
    course = make_course({"a.md": text}, config=AI_SHIFU)
    shown = hover(course.snapshot, course.uri("a.md"), text.index("topic"))
    expect(hover_text(course, shown, "a.md"), "hover/literal_in_comment.md")


def test_hover_on_a_substituted_literal_names_its_context() -> None:
    text = "<pre>\n{{ topic }}\n</pre>\n\nSee `{{ topic }}`.\n"
    course = make_course({"a.md": text}, config=AI_SHIFU)
    uri = course.uri("a.md")
    block = hover(course.snapshot, uri, text.index("topic"))
    expect(hover_text(course, block, "a.md"), "hover/literal_in_raw_html.md")
    span = hover(course.snapshot, uri, text.rindex("topic"))
    expect(hover_text(course, span, "a.md"), "hover/literal_in_code_span.md")
    generic = make_course({"a.md": text})
    plain = hover(generic.snapshot, generic.uri("a.md"), text.rindex("topic"))
    expect(hover_text(generic, plain, "a.md"), "hover/literal_in_code_span_generic.md")


@pytest.mark.parametrize(
    ("typed", "written"),
    [
        ("See `{{ fo$0` here.", "See `{{ focus_direction }}` here."),
        (
            'See <span title="{{ fo$0">x</span>.',
            'See <span title="{{ focus_direction }}">x</span>.',
        ),
        ("<pre>\n{{ fo$0\n</pre>\n", "<pre>\n{{ focus_direction }}\n</pre>\n"),
        ("See `{{ fo$0 }}` here.", "See `{{ focus_direction }}` here."),
    ],
)
def test_completion_inside_literal_contexts(typed: str, written: str) -> None:
    course = make_course({"a.md": BOUND + typed})
    result = complete(course.snapshot, course.cursor_uri, course.offset)
    assert result is not None
    text = course.text("a.md")
    assert text[result.start : result.end] == "fo"
    done = text[: result.start] + result.new_text("focus_direction") + text[result.end :]
    assert done == BOUND + written


def test_a_key_read_only_in_a_dropped_context_is_not_offered() -> None:
    text = "<!-- {{ hidden }} -->\n\n{{$0}}\n"
    course = make_course({"a.md": text}, config=AI_SHIFU)
    result = complete(course.snapshot, course.cursor_uri, course.offset)
    assert result is not None
    assert [item.key for item in result.items] == [
        "sys_user_background",
        "sys_user_input",
        "sys_user_language",
        "sys_user_nickname",
        "sys_user_style",
    ]


LESSON = (
    "?[{{ topic }} A | B]\n\n"
    "See `{{ topic }}` and <i title='{{topic}}'>t</i>.\n\n"
    "<pre>\n{{ topic }}\n</pre>\n\n"
    "<!-- {{ topic }} -->\n\n"
    "```\n{{ topic }} in a fence\n```\n"
)


def test_references_and_rename_cover_every_reported_marker() -> None:
    course = make_course({"a.md": LESSON}, config=AI_SHIFU)
    uri = course.uri("a.md")
    found = references(course.snapshot, uri, LESSON.index("topic"))
    # the binding, code span, tag, raw block and comment
    assert [LESSON[f.start - 3 : f.end + 3] for f in found] == [
        "{{ topic }}",
        "{{ topic }}",
        "'{{topic}}'",
        "{{ topic }}",
        "{{ topic }}",
    ]
    change = rename(course.snapshot, uri, LESSON.index("<pre>") + 9, "subject")
    assert isinstance(change, WorkspaceChange) and not isinstance(change, Refusal)
    [document] = change.documents
    assert apply_changes(document.text, document.changes) == (
        "?[%{{subject}} A | B]\n\n"  # the binding in the form the learner page reads
        "See `{{ subject }}` and <i title='{{subject}}'>t</i>.\n\n"
        "<pre>\n{{ subject }}\n</pre>\n\n"
        "<!-- {{ subject }} -->\n\n"
        "```\n{{ topic }} in a fence\n```\n"
    )


def test_hover_says_an_info_string_is_never_substituted_on_ai_shifu() -> None:
    text = "```py {{ topic }}\ncode\n```\n"
    course = make_course({"a.md": text}, config=AI_SHIFU)
    shown = hover(course.snapshot, course.uri("a.md"), text.index("topic"))
    expect(hover_text(course, shown, "a.md"), "hover/literal_in_info_string.md")
