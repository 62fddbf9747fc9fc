"""mfls's AI-Shifu lesson structure against markdown-flow 0.4.2's own splitting:
`MarkdownFlow.get_all_blocks` on the same texts gives the same blocks, each a
preserved-content block exactly where mfls says the block is fixed output, and markers
inside fixed output are still substituted. markdown-flow 0.3.1 and 0.3.4 split the same
way except for one known difference: a `---` line inside an HTML block separates blocks
there (0.4.2, and mfls, keep the HTML block whole)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_flow import MarkdownFlow, ProcessMode
from markdown_flow.enums import BlockType
from markdown_flow.parser.output import process_output_instructions
from runtimes import Runtime

from mfls.syntax.scanner import scan
from mfls.workspace.ai_shifu_structure import BANG, scanned_structure


def ours(text: str) -> list[tuple[str, bool]]:
    structure = scanned_structure(text, scan(text))
    return [(text[b.start : b.end], b.fixed) for b in structure.blocks]


def sdk(text: str) -> list[tuple[str, bool]]:
    flow = MarkdownFlow(text)
    # The SDK splits with code blocks replaced by placeholders; put them back.
    restore = flow._preprocessor.restore_code_blocks
    return [
        (restore(b.content), b.block_type is BlockType.PRESERVED_CONTENT)
        for b in flow.get_all_blocks()
    ]


HAND_WRITTEN = [
    "Intro\n---\nSecond",
    "Setext heading\n---\n\nafter",
    "---\nfirst line is no separator\n---\nb",
    "a\n---\n---\nb",
    "a\n\n  ---  \n\nb",
    "a\n----\nb",
    "===Shown as written===",
    "===Shown===\n===Also===\n---\nprompt",
    "!===\nFixed {{k}}\n\nparagraphs\n!===",
    "!===\nunclosed\n---\nnext",
    "before\n!===\nfixed\n!===",
    "=== spaced ===   ",
    "======",
    "===a===b===",
    "```\ncode\n---\nmore\n```\n\nafter\n---\nnext",
    "<div>\nx\n---\ny\n</div>\n\nz",
    "a\n---\n\n\n",
    "# Title\n\ntext\n---\n## Two\n\n!====\nx\n!===\n",
]


def test_hand_written_lessons_split_as_the_sdk_splits_them() -> None:
    for text in HAND_WRITTEN:
        assert ours(text) == sdk(text), text


HTML_WITH_SEPARATOR = "<div>\nx\n---\ny\n</div>\n\nz"


def test_markdown_flow_03_splits_the_same_but_inside_html(mf03x: Runtime) -> None:
    for text in HAND_WRITTEN:
        if text != HTML_WITH_SEPARATOR:
            assert ours(text) == mf03x.blocks(text), text
    # The known difference: 0.3.1 and 0.3.4 split a `---` line inside an HTML block.
    assert mf03x.blocks(HTML_WITH_SEPARATOR) == [("<div>\nx", False), ("y\n</div>\n\nz", False)]
    assert ours(HTML_WITH_SEPARATOR) == [(HTML_WITH_SEPARATOR, False)]


LINES = st.sampled_from(
    [
        "",
        "text",
        "more {{k}} text",
        "# Heading",
        "---",
        "  ---",
        "--- ",
        "----",
        "===fixed===",
        "=== fixed {{k}} ===",
        "======",
        "!===",
        "!====",
        "  !===  ",
        "x ===y===",
        "Title",
        "===",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=12))
def test_generated_lessons_split_as_the_sdk_splits_them(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert ours(text) == sdk(text)


def test_a_marker_inside_fixed_output_is_still_substituted() -> None:
    flow = MarkdownFlow("!===\nHello {{k}}!\n!===")
    result = flow.process(0, ProcessMode.COMPLETE, variables={"k": "VALUE-SUBSTITUTED"})
    shown = "".join(item.content for item in result)  # type: ignore[union-attr]
    assert "Hello VALUE-SUBSTITUTED!" in shown
    assert "{{k}}" not in shown


def _ai_sees(text: str) -> str:
    messages = MarkdownFlow(text).get_content_messages(0, {"k": "VALUE-SUBSTITUTED"})
    return [m for m in messages if m["role"] == "user"][-1]["content"]


def test_fixed_output_in_a_prompt_block_is_told_to_the_ai_substituted() -> None:
    """FIXED_SPAN_NOTE: the AI is told to output the text as written, marker substituted."""
    seen = _ai_sees("Intro\n===Hi {{k}}===")
    assert "Hi VALUE-SUBSTITUTED" in seen and "{{k}}" not in seen
    assert "INSTRUCTION" in seen


def test_an_unclosed_fence_makes_the_block_an_ordinary_prompt() -> None:
    """The fixed-output-unclosed message: the block goes to the AI, `!===` included."""
    text = "!===\nunclosed {{k}}\n---\nnext"
    blocks = MarkdownFlow(text).get_all_blocks()
    assert blocks[0].block_type is BlockType.CONTENT
    seen = _ai_sees(text)
    assert seen.startswith("!===") and "VALUE-SUBSTITUTED" in seen
    structure = scanned_structure(text, scan(text))
    assert [(s.start, s.end) for s in structure.unclosed] == [(0, 4)]


# -- fixed output inside a line (deliverable: `===text===`, `!===text!===`) ------------

_TAGGED = re.compile(r"<原样输出>(.*?)</原样输出>", re.S)


def sdk_fixed(text: str) -> list[tuple[str, bool]]:
    """What markdown-flow 0.4.2 puts between `<原样输出>` tags in each content block (as
    it rewrites the block for the AI), and whether the block is shown without the AI."""
    found: list[tuple[str, bool]] = []
    for block in MarkdownFlow(text).get_all_blocks():
        if block.block_type is BlockType.INTERACTION:
            continue
        preserved = block.block_type is BlockType.PRESERVED_CONTENT
        rewritten, _ = process_output_instructions(block.content)
        found.extend((inner, preserved) for inner in _TAGGED.findall(rewritten))
    return found


def ours_fixed(text: str) -> list[tuple[str, bool]]:
    structure = scanned_structure(text, scan(text))
    found: list[tuple[str, bool]] = []
    for block in structure.blocks:
        for span in block.spans:
            if not span.closed:
                continue
            inner = text[span.inner[0] : span.inner[1]]
            found.append((inner if span.form == BANG else inner.strip(), span.alone))
    return found


IN_LINE_TEXTS = [
    "Say ===this=== now",
    "Say === this  === now",
    "a ===x=== b ===y===",
    "!===a!=== and !===b!===",
    "Say !=== kept  as is !=== now",
    "!===!===",
    "x === a ===",
    "x ======",
    "before !===one\ntwo {{k}}!=== after",
    "Hi ==={{ a===b }}=== there",
    "Hi !==={{ a!===b }}!=== there",
    "===?[%{{k}} A|B]===",
    "Say !===?[%{{k}} A|B]!=== now",
    "!===\nPick\n?[A|B]\nthen\n!===",
    "Intro ===a {{k}}=== and\n?[A|B]\n===b===",
    "===Shown===\n!===x!===",
    "`===code===` and ===real===",
]


def test_fixed_output_inside_a_line_is_what_the_sdk_tags() -> None:
    for text in IN_LINE_TEXTS:
        assert ours_fixed(text) == sdk_fixed(text), text


IN_LINE_LINES = st.sampled_from(
    [
        "",
        "text",
        "more {{k}} text",
        "===fixed===",
        "x ===y=== z",
        "x ===y=== ===z===",
        "p !===q!=== r",
        "p !=== q !=== r !===s!===",
        "!===",
        "  !===  ",
        "=== {{k}} ===",
        "?[A | B]",
        "say ===?[%{{k}} A]=== it",
        "!===?[C]!===",
        "---",
        "===",
        "a === b",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(IN_LINE_LINES, max_size=10))
def test_generated_fixed_output_is_what_the_sdk_tags(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert ours_fixed(text) == sdk_fixed(text)
