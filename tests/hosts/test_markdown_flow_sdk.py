"""What markdown-flow 0.4.2 (in-process) really does with the texts behind mfls's runtime
claims: every sentence a diagnostic or hover says about markdown-flow is checked here
against the SDK itself, on the same text.

- which literal contexts it substitutes (the AI-Shifu host profile's `dropped_contexts`,
  and the hovers of mfls/features/hover.py), on 0.3.1 and 0.3.4 (what AI-Shifu's
  production runs) as well;
- that it removes HTML comments before the AI sees the text, and keeps a fenced code
  block, its info string included, as written;
- what `?[{{ q }}]` and `?[%{{ q }}]` become (the `empty-interaction` messages).
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

import pytest
from runtimes import Runtime

from mfls.features.diagnostics import scan_diagnostics
from mfls.syntax.model import Context
from mfls.syntax.scanner import scan
from mfls.workspace.hosts import host_profile

try:
    from markdown_flow import InteractionParser, MarkdownFlow, ProcessMode
except ImportError:  # pragma: no cover - the test extras install it
    pytest.fail(
        "markdown-flow is missing: pip install -e '.[test]' (or scripts/setup-test-env.sh)",
        pytrace=False,
    )

VALUE = "VALUE-SUBSTITUTED"
AI_SHIFU = host_profile("ai-shifu")


def sdk_sees(document: str, variables: dict[str, Any] | None = None) -> str:
    """The user message markdown-flow builds for the first block: what the AI sees."""
    flow = MarkdownFlow(document)
    messages = flow.get_content_messages(0, variables or {"k": VALUE})
    return [m for m in messages if m["role"] == "user"][-1]["content"]


def test_the_sdk_is_the_pinned_release() -> None:
    assert version("markdown-flow") == "0.4.2"


SAMPLES: list[tuple[Context, str]] = [
    (Context.CODE_SPAN, "See `{{k}}` here."),
    (Context.MATH, "Cost $x{{k}}$ here."),
    (Context.LINK_DESTINATION, "Go [there]({{k}}) now."),
    (Context.LINK_TITLE, 'Go [there](/u "{{k}}") now.'),
    (Context.LINK_LABEL, "See [t][{{k}}] now."),
    (Context.LINK_DEFINITION, "[d]: /u/{{k}}\n\nText [d]."),
    (Context.AUTOLINK, "See <http://x/{{k}}> now."),
    (Context.HTML_TAG, 'See <span title="{{k}}">x</span> here.'),
    (Context.HTML_TAG, '<div title="{{k}}">\ntext\n</div>\n'),
    (Context.HTML_COMMENT, "Text <!-- {{k}} --> more."),
    (Context.HTML_COMMENT, "<!--\n{{k}}\n-->\n\nText."),
    (Context.HTML_BLOCK, "<pre>\n{{k}}\n</pre>\n"),
    (Context.HTML_BLOCK, "<script>\nvar a = '{{k}}';\n</script>\n"),
    (Context.HTML_BLOCK, "<textarea>\n{{k}}\n</textarea>\n"),
    (Context.HTML_BLOCK, "<style>\n/* {{k}} */\n</style>\n"),
    (Context.HTML_BLOCK, "<?php\n{{k}}\n?>\n"),
    (Context.HTML_BLOCK, "<!DOCTYPE {{k}}>\n"),
    (Context.HTML_BLOCK, "<![CDATA[\n{{k}}\n]]>\n"),
    (Context.INFO_STRING, "```py {{k}}\ncode\n```\n"),
    (Context.INFO_STRING, "~~~ {{k}}\ncode\n~~~\n"),
]


def test_every_context_has_a_sample() -> None:
    assert {context for context, _ in SAMPLES} == set(Context)


@pytest.mark.parametrize(("context", "text"), SAMPLES)
def test_markdown_flow_substitutes_every_literal_context_ai_shifu_keeps(
    context: Context, text: str
) -> None:
    [marker] = scan(text).markers
    assert (marker.key, marker.literal, marker.context) == ("k", True, context)
    seen = sdk_sees(text)
    substituted = VALUE in seen
    assert substituted == AI_SHIFU.substitutes(marker), seen
    assert substituted == (context not in AI_SHIFU.dropped_contexts)


@pytest.mark.parametrize(("context", "text"), SAMPLES)
def test_every_release_substitutes_the_same_contexts(
    runtime: Runtime, context: Context, text: str
) -> None:
    # What the host profile says holds on 0.3.1 and 0.3.4 (production) as on 0.4.2.
    [marker] = scan(text).markers
    seen = runtime.sees(text, {"k": VALUE})
    assert (VALUE in seen) == AI_SHIFU.substitutes(marker), (runtime.release, seen)


@pytest.mark.parametrize(
    "text", ["Text <!-- {{k}} hidden --> more.", "Before.\n\n<!--\n{{k}}\nhidden\n-->\n\nAfter."]
)
def test_markdown_flow_removes_comments_before_the_ai_sees_the_text(text: str) -> None:
    seen = sdk_sees(text)
    assert "hidden" not in seen and "<!--" not in seen and "{{k}}" not in seen
    assert MarkdownFlow(text).extract_variables() == []


def test_markdown_flow_keeps_a_fenced_code_block_as_written() -> None:
    text = "```py {{k}}\ncode {{k}}\n```\n"
    assert sdk_sees(text) == text.rstrip("\n")
    assert MarkdownFlow(text).extract_variables() == []


def test_binding_without_choices_is_one_button_that_saves_nothing() -> None:
    parsed = InteractionParser().parse("?[{{ q }}]")
    assert parsed["type"].value == "non_assignment_button"
    assert parsed["buttons"] == [{"display": "{{ q }}", "value": "{{ q }}"}]
    assert "variable" not in parsed
    # The button reads the value of q, UNKNOWN while unset.
    unset = MarkdownFlow("?[{{ q }}]").process(0, ProcessMode.COMPLETE, variables={})
    assert unset.content == '?["""UNKNOWN"""]'
    known = MarkdownFlow("?[{{ q }}]").process(0, ProcessMode.COMPLETE, variables={"q": "A"})
    assert known.content == '?["""A"""]'
    [found] = scan_diagnostics(scan("?[{{ q }}]"), "?[{{ q }}]")
    assert "one button that reads the value of “q” (UNKNOWN while unset)" in found.message
    assert "and saves nothing" in found.message


def test_legacy_binding_without_choices_is_a_text_input_with_an_empty_hint() -> None:
    parser = InteractionParser()
    bare = parser.parse("?[%{{ q }}]")
    assert bare == {
        "type": bare["type"],
        "variable": "q",
        "question": "",
        "is_multi_select": False,
    }
    assert bare["type"].value == "text_only"
    # `...` says the same thing explicitly.
    assert parser.parse("?[%{{ q }} ...]") == bare
    found = {d.code: d for d in scan_diagnostics(scan("?[%{{ q }}]"), "?[%{{ q }}]")}
    assert "shows `?[%{{ q }}]` as a text input with an empty hint" in (
        found["empty-interaction"].message
    )


def test_markdown_flow_binds_only_with_percent() -> None:
    # Why a new-form `{{ sys_user_nickname }}` binding is no legacy binding the platform
    # accepts: markdown-flow 0.4.2 saves answers only for `%{{...}}`.
    parser = InteractionParser()
    assert parser.parse("?[%{{ q }} A | B]")["variable"] == "q"
    assert "variable" not in parser.parse("?[{{ q }} A | B]")


@pytest.mark.parametrize(
    "text",
    [
        "<pre>\n\\{{q}}\n</pre>\n",
        "<pre>\n\\\\{{q}}\n</pre>\n",
        "<script>\nvar a = '\\{{q}}';\n</script>\n",
        "<textarea>\n\\{{q}}\n</textarea>\n",
        "<div>\n\\{{q}}\n</div>\n",
    ],
)
def test_a_backslash_in_raw_html_does_not_hide_the_marker(text: str) -> None:
    # A raw HTML block takes no backslash escapes: markdown-flow 0.4.2 extracts the key
    # behind the backslash, and mfls reads the same marker.
    assert MarkdownFlow(text).extract_variables() == ["q"]
    assert [m.key for m in scan(text).markers] == ["q"]


def test_a_backslash_still_escapes_a_marker_in_paragraphs_and_info_strings() -> None:
    for text in ("Text \\{{q}} more.", "```py \\{{q}}\ncode\n```\n"):
        assert MarkdownFlow(text).extract_variables() == []
        assert [m.key for m in scan(text).markers] == []
