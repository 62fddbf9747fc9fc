"""The whole-document scan: block contexts, offset mapping and the JSON contract."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mfls.syntax.blocks import iter_units
from mfls.syntax.model import (
    Block,
    BlockKind,
    Context,
    LiteralKind,
    Reason,
    Role,
    ScanResult,
)
from mfls.syntax.scanner import scan, scan_blocks, scan_unit


def markers(text: str) -> list[tuple[str, str, bool]]:
    """(source text, key, literal) of every marker of `text`."""
    return [(text[m.start : m.end], m.key, m.literal) for m in scan(text).markers]


def invalid(text: str) -> list[tuple[str, Reason]]:
    return [(text[i.start : i.end], i.reason) for i in scan(text).invalid]


# -- the JSON contract (the scan contract in docs/syntax.md) ----------------------------


def test_to_json_shape_and_key_order() -> None:
    text = "?[{{ q }} A//a | B ...hint]\n\n{{ }} and `{{k}}`\n"
    data: dict[str, Any] = scan(text).to_json()
    assert list(data) == ["version", "markers", "invalid", "interactions"]
    assert data["version"] == 2
    assert data["markers"] == [
        {
            "start": 2,
            "end": 9,
            "key": "q",
            "role": "binding",
            "legacy": False,
            "literal": False,
            "context": None,
        },
        {
            "start": 40,
            "end": 45,
            "key": "k",
            "role": "reference",
            "legacy": False,
            "literal": True,
            "context": "code-span",
        },
    ]
    assert [list(m) for m in data["markers"]] == [
        ["start", "end", "key", "role", "legacy", "literal", "context"]
    ] * 2
    assert data["invalid"] == [{"start": 29, "end": 34, "reason": "empty"}]
    assert data["interactions"] == [
        {
            "start": 0,
            "end": 27,
            "binding": "q",
            "multiple": False,
            "choices": [{"label": "A", "value": "a"}, {"label": "B", "value": "B"}],
            "input": "hint",
        }
    ]
    assert list(data["interactions"][0]) == [
        "start",
        "end",
        "binding",
        "multiple",
        "choices",
        "input",
    ]
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data


def test_to_json_of_nothing() -> None:
    nothing = {"version": 2, "markers": [], "invalid": [], "interactions": []}
    assert scan("").to_json() == nothing
    assert scan("plain text\n").to_json() == nothing


def test_legacy_and_null_fields() -> None:
    data = scan("?[%{{ n }} A||B]").to_json()
    assert data["markers"][0]["legacy"] is True
    assert data["markers"][0]["start"] == 2
    assert data["interactions"][0]["multiple"] is True
    assert data["interactions"][0]["input"] is None
    data = scan("?[A]").to_json()
    assert data["interactions"][0]["binding"] is None


# -- block contexts ------------------------------------------------------------------------


def test_seed_memory_example() -> None:
    text = (
        "Ask which topic the user wants to learn, and save the answer for later lessons.\n"
        "?[{{ What would you like to learn? }} Python | JavaScript | ...Another topic]\n"
        "\n"
        "Use the answer to {{ What would you like to learn? }} to choose a relevant\n"
        "example and explain it at an introductory level.\n"
    )
    result = scan(text)
    assert [(m.key, m.role) for m in result.markers] == [
        ("What would you like to learn?", Role.BINDING),
        ("What would you like to learn?", Role.REFERENCE),
    ]
    (x,) = result.interactions
    assert text[x.start : x.end].startswith("?[{{ What") and text[x.end - 1] == "]"


def test_marker_never_crosses_a_blank_line() -> None:
    text = "a {{x\n\nb}} c"
    assert invalid(text) == [("{{x", Reason.UNCLOSED)]
    assert markers(text) == []


def test_marker_never_crosses_into_a_heading_or_fence() -> None:
    text = "a {{x\n# h }}\n"
    assert invalid(text) == [("{{x", Reason.UNCLOSED)]
    text = "a {{x\n```\n}}\n```\n"
    assert invalid(text) == [("{{x", Reason.UNCLOSED)]


def test_unclosed_end_is_end_of_inline_text() -> None:
    text = "a {{ b\nc ?[A|B]   \n\nnext {{k}}"
    result = scan(text)
    (bad,) = result.invalid
    assert text[bad.start : bad.end] == "{{ b\nc ?[A|B]"
    assert bad.hidden_interactions == 1
    assert [m.key for m in result.markers] == ["k"]


def test_atx_heading_closing_sequence_is_excluded() -> None:
    text = "# h {{a}} ##\n## {{ b ##\n"
    assert markers(text) == [("{{a}}", "a", False)]
    assert invalid(text) == [("{{ b", Reason.UNCLOSED)]


def test_setext_heading() -> None:
    text = "Title {{a}}\n===\n"
    assert markers(text) == [("{{a}}", "a", False)]


@pytest.mark.parametrize(
    "text",
    [
        "    {{code}}\n",
        "```\n{{code}}\n```\n",
        "~~~\n{{code}} ?[A|B]\n",
    ],
)
def test_code_blocks_report_nothing(text: str) -> None:
    result = scan(text)
    assert result.markers == () and result.invalid == () and result.interactions == ()


@pytest.mark.parametrize(
    ("text", "keys", "context"),
    [
        ("<script>\n{{a}}\n</script> {{b}}\n", ["a", "b"], Context.HTML_BLOCK),
        ("<style>{{a}}</style>\n", ["a"], Context.HTML_BLOCK),
        ('<pre title="{{a}}">\n{{b}}\n</pre>\n', ["a", "b"], Context.HTML_BLOCK),
        ("<textarea>\n\n{{a}}\n</textarea>\n", ["a"], Context.HTML_BLOCK),
        ("<!-- {{a}}\n\n{{b}} --> {{c}}\n", ["a", "b", "c"], Context.HTML_COMMENT),
        ("<?php {{a}} ?>\n", ["a"], Context.HTML_BLOCK),
        ("<!DOCTYPE {{a}}>\n", ["a"], Context.HTML_BLOCK),
        ("<![CDATA[\n{{a}}\n]]> {{b}}\n", ["a", "b"], Context.HTML_BLOCK),
    ],
)
def test_raw_html_blocks_report_complete_markers_as_literal(
    text: str, keys: list[str], context: Context
) -> None:
    # docs/syntax.md rules 10 and 16.
    result = scan(text)
    assert [(m.key, m.literal, m.role, m.context) for m in result.markers] == [
        (key, True, Role.REFERENCE, context) for key in keys
    ]
    assert result.invalid == () and result.interactions == ()


def test_raw_html_block_hides_invalid_markers_and_interactions() -> None:
    text = "<pre>\n{{ }} ?[{{ q }} A|B] {{ open\n</pre>\n"
    result = scan(text)
    assert [(m.key, m.literal) for m in result.markers] == [("q", True)]
    assert result.invalid == () and result.interactions == ()


def test_raw_html_block_includes_its_closing_line() -> None:
    text = "<script>\n{{a}}\n</script> {{b}}\n{{c}}\n"
    assert markers(text) == [("{{a}}", "a", True), ("{{b}}", "b", True), ("{{c}}", "c", False)]


def test_marker_does_not_leave_a_raw_html_block() -> None:
    text = "<pre>\n{{ a\n</pre>\n}} {{ b }}\n"
    assert markers(text) == [("{{ b }}", "b", False)]
    assert invalid(text) == []


def test_pre_tag_inside_paragraph_is_an_inline_literal() -> None:
    text = 'Text <pre title="{{a}}"> more\n'
    assert markers(text) == [("{{a}}", "a", True)]


def test_ordinary_html_block() -> None:
    text = '<div title="{{a}}">\n{{b}} `{{c}}` ?[{{q}} X]\n</div>\n\n{{d}}\n'
    result = scan(text)
    assert [(m.key, m.literal, m.role) for m in result.markers] == [
        ("a", True, Role.REFERENCE),
        ("b", False, Role.REFERENCE),
        ("c", False, Role.REFERENCE),
        ("q", False, Role.BINDING),
        ("d", False, Role.REFERENCE),
    ]
    assert len(result.interactions) == 1


def test_html_block_type_7_ends_at_blank_line() -> None:
    text = '<custom-x a="{{c}}">\n{{d}} {{ e\n\n}} {{f}}\n'
    result = scan(text)
    assert [(m.key, m.literal) for m in result.markers] == [
        ("c", True),
        ("d", False),
        ("f", False),
    ]
    assert [(text[i.start : i.end], i.reason) for i in result.invalid] == [
        ("{{ e", Reason.UNCLOSED)
    ]


def test_fenced_code_info_string() -> None:
    text = "``` py {{ i }} {{ }} \\{{j}}\n{{no}}\n```\n{{yes}}\n"
    result = scan(text)
    assert [(m.key, m.literal) for m in result.markers] == [("i", True), ("yes", False)]
    assert result.invalid == ()
    info = [lit for lit in result.literals if lit.kind is LiteralKind.INFO_STRING]
    assert len(info) == 1 and text[info[0].start : info[0].end].startswith("py {{ i }}")


def test_link_reference_definition() -> None:
    text = '[a]: /u "{{t}}"\n[{{l}}]: /v\n{{after}}\n'
    result = scan(text)
    assert [(m.key, m.literal) for m in result.markers] == [
        ("t", True),
        ("l", True),
        ("after", False),
    ]
    kinds = [lit.kind for lit in result.literals]
    assert kinds.count(LiteralKind.LINK_REFERENCE_DEFINITION) == 2


def test_escapes_apply_in_link_reference_definitions() -> None:
    text = '[a]: /u "\\{{t}} \\\\{{u}}"\n'
    assert markers(text) == [("{{u}}", "u", True)]


def test_fence_inside_container_keeps_native_boundary() -> None:
    text = "> ```\n> {{no}}\n\n{{yes}}\n"
    assert markers(text) == [("{{yes}}", "yes", False)]
    text = "- ```\n  {{no}}\n- {{yes}}\n"
    assert markers(text) == [("{{yes}}", "yes", False)]


def test_container_end_closes_html_block() -> None:
    text = "> <script>\n> {{in}}\n\n{{yes}}\n"
    assert markers(text) == [("{{in}}", "in", True), ("{{yes}}", "yes", False)]


# -- containers and offsets (rules 1, 7, 8) -------------------------------------------------


def test_key_read_without_container_markers() -> None:
    text = "> quote {{ a\n> }} ?[{{q}} A |\n> B]\n"
    result = scan(text)
    assert [(text[m.start : m.end], m.key) for m in result.markers] == [
        ("{{ a\n> }}", "a"),
        ("{{q}}", "q"),
    ]
    (x,) = result.interactions
    assert text[x.start : x.end] == "?[{{q}} A |\n> B]"
    assert [(c.label, text[c.start : c.end]) for c in x.choices] == [("A", "A"), ("B", "B")]


def test_container_line_break_inside_key_is_invalid() -> None:
    text = "> {{ a\n> b }}\n"
    assert invalid(text) == [("{{ a\n> b }}", Reason.LINE_BREAK)]


def test_list_item_continuation() -> None:
    text = "- item {{ k }}\n  cont `{{c}}` {{ x\n  }}\n"
    assert markers(text) == [
        ("{{ k }}", "k", False),
        ("{{c}}", "c", True),
        ("{{ x\n  }}", "x", False),
    ]


def test_end_offsets_map_from_the_previous_character() -> None:
    text = "> a {{ b\n> c }}\n> {{"
    result = scan(text)
    ends = [i.end for i in result.invalid]
    assert ends == [15, len(text)]
    assert text[result.invalid[0].start : result.invalid[0].end] == "{{ b\n> c }}"
    text = "> a {{x\n> "
    (bad,) = scan(text).invalid
    assert text[bad.start : bad.end] == "{{x"


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
def test_line_endings(eol: str) -> None:
    text = f"p {{{{ a{eol}}}}} ?[A{eol}|B]{eol}{eol}{{{{c}}}} {{{{ d{eol}e }}}}{eol}"
    result = scan(text)
    assert [(m.key, text[m.start : m.end]) for m in result.markers] == [
        ("a", f"{{{{ a{eol}}}}}"),
        ("c", "{{c}}"),
    ]
    assert [(text[i.start : i.end], i.reason) for i in result.invalid] == [
        (f"{{{{ d{eol}e }}}}", Reason.LINE_BREAK)
    ]
    (x,) = result.interactions
    assert [c.label for c in x.choices] == ["A", "B"]


def test_astral_characters_before_markers() -> None:
    text = "𝄞😀\n\n> 🚀 {{ 🚀 rocket }}\n"
    (m,) = scan(text).markers
    assert m.key == "🚀 rocket"
    assert (m.start, m.end) == (8, 22)
    assert text[m.key_start : m.key_end] == "🚀 rocket"


def test_nul_and_bom() -> None:
    text = "\ufeff{{a\x00b}} {{\ufeffk}}\n"
    result = scan(text)
    assert [i.reason for i in result.invalid] == [Reason.CONTROL_CHARACTER]
    assert [m.key for m in result.markers] == ["\ufeffk"]


def test_lists_are_sorted_by_start() -> None:
    text = "[x ?[{{q}} A] `{{c}}`]({{r}}) {{d}} ?[B]\n\n> ?[{{ }} C]\n"
    result = scan(text)
    for items in (result.markers, result.invalid, result.interactions, result.literals):
        starts = [item.start for item in items]
        assert starts == sorted(starts)
    assert [m.key for m in result.markers] == ["q", "c", "r", "d"]


# -- units ----------------------------------------------------------------------------------


def test_scan_unit_agrees_with_scan() -> None:
    text = "# T {{a}}\n\n> q {{b\n> }}\n\n- ?[{{c}} X|Y]\n  {{ }}\n\n```{{i}}\n{{no}}\n```\n"
    whole = scan(text)
    merged: dict[str, list[Any]] = {"markers": [], "invalid": [], "interactions": []}
    blocks: list[Block] = []
    for unit in iter_units(text):
        part = scan_unit(text, unit)
        for name in merged:
            merged[name].extend(getattr(part, name))
        blocks.extend(part.blocks)
    assert (
        ScanResult(
            markers=tuple(merged["markers"]),
            invalid=tuple(merged["invalid"]),
            interactions=tuple(merged["interactions"]),
        ).to_json()
        == whole.to_json()
    )
    assert tuple(blocks) == whole.blocks


def test_scan_blocks_with_hand_made_ranges() -> None:
    text = "XX{{ a\nYY }}ZZ?[B|\nWWC]"
    block = Block(
        kind=BlockKind.PARAGRAPH,
        start=0,
        end=len(text),
        inline=((2, 7), (9, 19), (21, 24)),
    )
    result = scan_blocks(text, [block])
    (m,) = result.markers
    assert (text[m.start : m.end], m.key) == ("{{ a\nYY }}", "a")
    (x,) = result.interactions
    assert text[x.start : x.end] == "?[B|\nWWC]"
    assert [(c.label, text[c.start : c.end]) for c in x.choices] == [("B", "B"), ("C", "C")]


def test_scan_blocks_skips_blocks_without_inline_text() -> None:
    text = "{{a}}"
    blocks = [
        Block(kind=BlockKind.INDENTED_CODE, start=0, end=5),
        Block(kind=BlockKind.THEMATIC_BREAK, start=0, end=5, inline=((0, 5),)),
    ]
    assert scan_blocks(text, blocks).markers == ()


# -- what features read instead of re-parsing ---------------------------------------------


def test_interaction_operators() -> None:
    text = "?[%{{ q }} A//a | B|| C ...hint] and ?[X||Y {{ r|s }}]"
    first, second = scan(text).interactions
    assert [(text[o.start : o.end], o.kind) for o in first.operators] == [
        ("?[", "?["),
        ("//", "//"),
        ("|", "|"),
        ("...", "..."),
        ("]", "]"),
    ]
    assert [o.kind for o in second.operators] == ["?[", "||", "]"]


def test_operators_follow_container_offsets() -> None:
    text = "> ?[A\n> | B]\n"
    (x,) = scan(text).interactions
    assert [(text[o.start : o.end], o.kind) for o in x.operators] == [
        ("?[", "?["),
        ("|", "|"),
        ("]", "]"),
    ]


def test_brace_spans() -> None:
    text = "?[%{{ q }} A] {{ r }} {{ }} {{ open"
    result = scan(text)
    legacy, plain = result.markers
    assert text[slice(*legacy.opening)] == "%{{" and text[slice(*legacy.closing)] == "}}"
    assert text[slice(*plain.opening)] == "{{" and text[slice(*plain.closing)] == "}}"
    empty, unclosed = result.invalid
    assert empty.closing is not None and text[slice(*empty.closing)] == "}}"
    assert text[slice(*unclosed.opening)] == "{{" and unclosed.closing is None


def test_raw_html_blocks() -> None:
    blocks = scan("<pre>\n{{ a }}\n</pre>\n\n<div>\n{{ b }}\n</div>\n").blocks
    assert [b.is_raw_html for b in blocks] == [True, False]


def test_literal_contexts_of_markers() -> None:
    def contexts(text: str) -> list[tuple[str, str | None]]:
        return [(m.key, None if m.context is None else m.context.value) for m in scan(text).markers]

    # A marker is in the part of a link resource where it starts.
    assert contexts('[l](x{{y "z}}")') == [('y "z', "link-destination")]
    assert contexts("<div>\n<b title='{{ t }}'> {{ s }} <!-- {{ c }} -->\n</div>\n") == [
        ("t", "html-tag"),
        ("s", None),
        ("c", "html-comment"),
    ]
    assert contexts("x <?php {{ p }} ?> `` {{ q }} ``\n") == [("p", "html-tag"), ("q", "code-span")]
    assert all(m.literal == (m.context is not None) for m in scan("`{{a}}` {{b}}").markers)
