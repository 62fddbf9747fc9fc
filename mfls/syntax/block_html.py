"""Start and end conditions of CommonMark 0.31.2 HTML blocks (types 1-7)."""

from __future__ import annotations

import re

_IA = re.IGNORECASE | re.ASCII
_TYPE1 = re.compile(r"<(?:script|pre|textarea|style)(?:[ \t>]|$)", _IA)
_TYPE6 = re.compile(
    r"</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup"
    r"|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame"
    r"|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav"
    r"|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th"
    r"|thead|title|tr|track|ul)(?:[ \t]|/?>|$)",
    _IA,
)
_ATTRIBUTE = (
    r"(?:[ \t]+[A-Za-z_:][A-Za-z0-9_.:-]*"
    r"(?:[ \t]*=[ \t]*(?:[^ \t\r\n\"'=<>`]+|'[^']*'|\"[^\"]*\"))?)"
)
_TYPE7 = re.compile(
    r"(?:<([A-Za-z][A-Za-z0-9-]*)" + _ATTRIBUTE + r"*[ \t]*/?>"
    r"|</([A-Za-z][A-Za-z0-9-]*)[ \t]*>)[ \t]*$"
)
_RAW_TAGS = frozenset(("script", "style", "pre", "textarea"))
_END1 = re.compile(r"</(?:script|pre|textarea|style)>", _IA)
_END_STRINGS = {2: "-->", 3: "?>", 4: ">", 5: "]]>"}


def html_block_start(text: str, pos: int, end: int) -> int:
    """The HTML block type (1-7) that `text[pos:end]` (one line, at `<`) starts, or 0."""
    if _TYPE1.match(text, pos, end):
        return 1
    if text.startswith("<!", pos, end):
        if text.startswith("<!--", pos, end):
            return 2
        if text.startswith("<![CDATA[", pos, end):
            return 5
        if pos + 2 < end and text[pos + 2].isascii() and text[pos + 2].isalpha():
            return 4
        return 0
    if text.startswith("<?", pos, end):
        return 3
    if _TYPE6.match(text, pos, end):
        return 6
    m = _TYPE7.match(text, pos, end)
    # 0.31.2: a complete open tag "with any tag name other than pre, script, style, or
    # textarea", or a complete closing tag of any name.
    if m is not None and (m.group(1) is None or m.group(1).lower() not in _RAW_TAGS):
        return 7
    return 0


def html_block_end(text: str, html_type: int, pos: int, end: int) -> int:
    """Where the end condition of an HTML block of type 1-5 occurs in [pos, end), or -1."""
    if html_type == 1:
        m = _END1.search(text, pos, end)
        return m.start() if m is not None else -1
    return text.find(_END_STRINGS[html_type], pos, end)
