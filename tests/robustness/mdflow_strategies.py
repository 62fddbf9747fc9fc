"""Hypothesis strategies for hostile and MarkdownFlow-shaped text."""

from __future__ import annotations

from hypothesis import strategies as st

from mfls.syntax.keys import WHITESPACE_CHARS

# Every character, lone surrogates and NUL included.
ANY_CHAR = st.characters(codec=None, categories=None)

CONTROL_CHARS = [chr(c) for c in range(0x00, 0x20)] + [chr(c) for c in range(0x7F, 0xA0)]
ODD_CHARS = [
    "\ud800",
    "\udbff",
    "\udc00",
    "\udfff",
    "\ufeff",
    "\ufffd",
    "\u200b",
    "\u200d",
    "\U0001f680",
    "é",
    "e\u0301",
    "\u0000",
]

LINE_ENDINGS = ["\n", "\r", "\r\n", "\n\n", "\r\n\r\n", "\r\r"]

FRAGMENTS = [
    "{{",
    "}}",
    "{",
    "}",
    "{{ key }}",
    "{{key}}",
    "{{ two  words }}",
    "{{ a} }}",
    "{{outer{{inner}}",
    "{{}}",
    "{{ }}",
    "%{{",
    "%{{ q }}",
    "%{{}}",
    "\\{{",
    "\\\\{{",
    "?[",
    "\\?[",
    "]",
    "](",
    "](u)",
    "[",
    "[x]",
    "[x][y]",
    "[x]: /url",
    "[x]: /url 'title'",
    "|",
    "||",
    "//",
    "...",
    "`",
    "``",
    "```",
    "````",
    "~~~",
    "```py {{ k }}",
    "$",
    "$$",
    "\\$",
    "<",
    ">",
    "<div>",
    "</div>",
    "<span title='{{ a }}'>",
    "</span>",
    "<!--",
    "-->",
    "<?",
    "?>",
    "<!X",
    "<![CDATA[",
    "]]>",
    "<pre>",
    "</pre>",
    "<script>",
    "</script>",
    "<style>",
    "<textarea>",
    "<http://a.b>",
    "<a@b.c>",
    "\\",
    "- ",
    "* ",
    "+ ",
    "1. ",
    "2) ",
    "> ",
    ">",
    "    ",
    "  ",
    "\t",
    "#",
    "# ",
    "### ",
    "===",
    "---",
    "***",
    "a",
    "key",
    "word ",
    " ",
    "&amp;",
    "&#123;",
    "!",
    "(",
    ")",
    '"',
    "'",
    "*",
    "_",
]

_pieces = st.one_of(
    st.sampled_from(FRAGMENTS),
    st.sampled_from(LINE_ENDINGS),
    st.sampled_from(CONTROL_CHARS),
    st.sampled_from(ODD_CHARS),
    st.sampled_from(list(WHITESPACE_CHARS)),
    st.text(ANY_CHAR, max_size=3),
)


def _joined(parts: list[str]) -> str:
    return "".join(parts)


mdflow_text = st.lists(_pieces, max_size=60).map(_joined)
"""Text assembled from MarkdownFlow and Markdown fragments, odd characters and line ends."""

any_text = st.text(ANY_CHAR, max_size=200)
"""Arbitrary text: every code point, lone surrogates and NUL included."""

_container_prefix = st.sampled_from(["", "> ", ">", "- ", "  ", "1. ", "   ", "> - ", "    ", "\t"])


@st.composite
def contained_text(draw: st.DrawFn) -> str:
    """Lines of MarkdownFlow-shaped text behind block quote and list prefixes."""
    lines = draw(st.lists(st.tuples(_container_prefix, mdflow_text), min_size=1, max_size=8))
    endings = draw(st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=len(lines)))
    return "".join(p + body + end for (p, body), end in zip(lines, endings, strict=False))


hostile_text = st.one_of(any_text, mdflow_text, contained_text())
"""Any of the above."""


@st.composite
def edit_sequences(draw: st.DrawFn, text: str, max_edits: int = 8) -> list[tuple[int, int, str]]:
    """Edits `(start, end, new_text)`, each valid against the text its predecessors left."""
    edits: list[tuple[int, int, str]] = []
    length = len(text)
    for _ in range(draw(st.integers(0, max_edits))):
        start = draw(st.integers(0, length))
        end = draw(st.integers(start, min(length, start + draw(st.sampled_from([0, 1, 3, 40])))))
        new_text = draw(st.one_of(mdflow_text, st.sampled_from(FRAGMENTS + LINE_ENDINGS)))
        edits.append((start, end, new_text))
        length += len(new_text) - (end - start)
    return edits


def apply_edits(text: str, edits: list[tuple[int, int, str]]) -> str:
    for start, end, new_text in edits:
        text = text[:start] + new_text + text[end:]
    return text
