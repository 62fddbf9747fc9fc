"""Leaf-block summaries from mfls and from markdown-it-py, in comparable form."""

from __future__ import annotations

from bisect import bisect_right

from markdown_it import MarkdownIt

from mfls.syntax.blocks import parse_blocks
from mfls.syntax.model import BlockKind

Summary = tuple[str, int, int, int]  # kind, first line, line after the last, level

_MD = MarkdownIt("commonmark")


def _line_starts(text: str) -> list[int]:
    starts = [0]
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\n" or c == "\r":
            if c == "\r" and i + 1 < n and text[i + 1] == "\n":
                i += 1
            if i + 1 < n:
                starts.append(i + 1)
        i += 1
    return starts


def html_type(first_line: str) -> int:
    """The HTML block type of a block's first line, read independently of mfls."""
    s = first_line.lstrip(" ").lower()
    for tag in ("script", "pre", "textarea", "style"):
        if s.startswith("<" + tag) and (len(s) == len(tag) + 1 or s[len(tag) + 1] in " \t>"):
            return 1
    if s.startswith("<!--"):
        return 2
    if s.startswith("<?"):
        return 3
    if s.startswith("<![cdata["):
        return 5
    if s.startswith("<!") and len(s) > 2 and s[2].isalpha():
        return 4
    name = s[2:] if s.startswith("</") else s[1:]
    word = ""
    for ch in name:
        if not (ch.isalnum() or ch == "-"):
            break
        word += ch
    if word in _TYPE6:
        return 6
    return 7


_TYPE6 = set(
    [
        "address",
        "article",
        "aside",
        "base",
        "basefont",
        "blockquote",
        "body",
        "caption",
        "center",
        "col",
        "colgroup",
        "dd",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frame",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hr",
        "html",
        "iframe",
        "legend",
        "li",
        "link",
        "main",
        "menu",
        "menuitem",
        "nav",
        "noframes",
        "ol",
        "optgroup",
        "option",
        "p",
        "param",
        "search",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "title",
        "tr",
        "track",
        "ul",
    ]
)


def mfls_blocks(text: str) -> list[Summary]:
    starts = _line_starts(text)
    out: list[Summary] = []
    for b in parse_blocks(text):
        if b.kind is BlockKind.LINK_REFERENCE_DEFINITION:
            continue
        first = bisect_right(starts, b.start) - 1
        last = bisect_right(starts, b.end) - 1
        out.append((b.kind.value, first, last + 1, b.level))
    return out


def markdown_it_blocks(text: str) -> list[Summary]:
    out: list[Summary] = []
    for tok in _MD.parse(text):
        if tok.map is None:
            continue
        a, b = tok.map
        if tok.type == "paragraph_open":
            out.append(("paragraph", a, b, 0))
        elif tok.type == "heading_open":
            out.append(("heading", a, b, int(tok.tag[1])))
        elif tok.type == "hr":
            out.append(("thematic_break", a, b, 0))
        elif tok.type == "fence":
            out.append(("fenced_code", a, b, 0))
        elif tok.type == "code_block":
            out.append(("indented_code", a, b, 0))
        elif tok.type == "html_block":
            out.append(("html_block", a, b, html_type(tok.content.split("\n")[0])))
    return sorted(out, key=lambda s: (s[1], s[2]))
