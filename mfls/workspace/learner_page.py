"""The AI-Shifu learner page's reading of an interaction line.

AI-Shifu's backend sends each interaction line to the learner's browser as text, and the
page reads it again with the npm package remark-flow, inside markdown-flow-ui's
`ContentRender` (remark-parse, remark-gfm, remark-math, then remark-flow's `remarkFlow`
plugin on each text node). remark-flow reads far less than markdown-flow does. This module
is mfls's model of that reading for each remark-flow version tests/hosts runs in Node
(`tests/hosts/remark_flow`, `test_learner_page.py` compares this model with the packages
line for line):

- `remark-flow-0.1.6` (markdown-flow-ui 0.1.x pins `^0.1.6`): a binding is `%{{key}}`
  right after `?[`, unpadded, the key `[A-Za-z0-9_]`, CJK (U+4E00-U+9FA5) or kana;
  anything else makes the line buttons without a variable, the marker in the first label.
  `||` first makes a multiple choice.
- `remark-flow-1.0.0-alpha.7`: the binding may be padded, the key
  `[A-Za-z_\\u4e00-\\u9fa5][A-Za-z0-9_\\u4e00-\\u9fa5]*`; a line with any other `%{` is
  left as raw text. No multiple choice; the full-width `｜` splits options too.

Both split an option `label//value` at the first `//` and take `...` as the input hint,
after Markdown has read the line: a backslash before ASCII punctuation is dropped first
(`a\\|b` is two options). What the model does not read is the rest of Markdown's inline
syntax (emphasis, code, links, autolinks, math, character references): a line using any
of it gets `None` from `read_line`, and mfls says nothing about it.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Container, Sequence
from functools import cache, lru_cache
from typing import Final, NamedTuple

from mfls.workspace.config import PAGES, CourseConfig

REMARK_FLOW_016: Final = PAGES[0]
REMARK_FLOW_100A7: Final = PAGES[1]
PAGE_VERSIONS: Final[tuple[str, ...]] = PAGES
"""The learner page versions mfls checks: every remark-flow release tests/hosts runs."""
PAGE_HOST: Final = "ai-shifu"

# JavaScript's `\s` and `String.prototype.trim` (WhiteSpace and LineTerminator).
_JS_SPACE: Final = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_S: Final = "[" + re.escape(_JS_SPACE) + "]"
# JavaScript's `.` without the s flag: anything but a line terminator.
_DOT: Final = "[^\n\r\u2028\u2029]"

_CJK: Final = "\u4e00-\u9fa5"
_KANA_RANGES: Final = "\u3040-\u309f\u30a0-\u30ff"
# Patterns with these ranges take milliseconds to compile: compiled when first used
# (`_compiled`), not on every `mfls check` that imports this module.
_KEY_016: Final = f"[a-zA-Z0-9_{_CJK}{_KANA_RANGES}]+"
_KEY_100A7: Final = f"[a-zA-Z_{_CJK}][a-zA-Z0-9_{_CJK}]*"

_INTERACTION: Final = re.compile(r"\?\[([^\]]*)\](?!\()")
_VARIABLE_016: Final = f"%\\{{\\{{([a-zA-Z0-9_{_CJK}{_KANA_RANGES}]+)\\}}\\}}({_DOT}*)\\Z"
_VARIABLE_100A7: Final = (
    f"%\\{{\\{{{_S}*([a-zA-Z_{_CJK}][a-zA-Z0-9_{_CJK}]*){_S}*\\}}\\}}({_DOT}*)\\Z"
)
_ELLIPSIS: Final = re.compile(f"({_DOT}*?)\\.\\.\\.({_DOT}*)")
_BUTTON_VALUE: Final = re.compile(f"({_DOT}+?)//({_DOT}+)\\Z")
_SINGLE_PIPE: Final = re.compile(r"(?<!\|)\|(?!\|)")
_PIPES_100A7: Final = re.compile("[|\uff5c]")


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _trim(text: str) -> str:
    return text.strip(_JS_SPACE)


class PageElement(NamedTuple):
    """One interaction as the page renders it: the properties remark-flow gives the
    page's `custom-variable` component (None where it gives none)."""

    variable: str | None = None
    labels: tuple[str, ...] | None = None
    values: tuple[str, ...] | None = None
    hint: str | None = None
    multiple: bool | None = None

    @property
    def choices(self) -> tuple[tuple[str, str], ...]:
        """(label, value) of each button."""
        return tuple(zip(self.labels or (), self.values or (), strict=True))

    def to_properties(self) -> dict[str, object]:
        """The element as remark-flow's `hProperties` (for the differential test)."""
        properties: dict[str, object] = {}
        if self.variable is not None:
            properties["variableName"] = self.variable
        if self.labels is not None:
            properties["buttonTexts"] = list(self.labels)
        if self.values is not None:
            properties["buttonValues"] = list(self.values)
        if self.hint is not None:
            properties["placeholder"] = self.hint
        if self.multiple is not None:
            properties["isMultiSelect"] = self.multiple
        return properties


class PageReading(NamedTuple):
    """A line as the page shows it: its interactions, and the text around them (all of
    the line when the page makes no interaction of it)."""

    elements: tuple[PageElement, ...]
    text: str

    @property
    def interaction(self) -> PageElement | None:
        return self.elements[0] if self.elements else None


def page_versions(config: CourseConfig) -> tuple[str, ...]:
    """The learner page versions a course targets: its `page` setting, else every checked
    version on AI-Shifu; none on other hosts."""
    if config.host != PAGE_HOST:
        return ()
    return config.page if config.page is not None else PAGE_VERSIONS


def key_readable(key: str, padded: bool, version: str) -> bool:
    """Whether `version` reads `%{{key}}` (`%{{ key }}` when padded) as a binding of key."""
    if version == REMARK_FLOW_016:
        return not padded and _compiled(_KEY_016).fullmatch(key) is not None
    return _compiled(_KEY_100A7).fullmatch(key) is not None


def bound_key(binding: str, version: str) -> str | None:
    """The key `version` reads from the binding text `binding` (`%{{...}}` as written
    right after `?[`), or None when it reads no binding there."""
    pattern = _compiled(_VARIABLE_016 if version == REMARK_FLOW_016 else _VARIABLE_100A7)
    found = pattern.match(binding)
    if found is None or found.group(2):
        return None
    return _trim(found.group(1))


def binding_readable(key: str, padded: bool, versions: Sequence[str]) -> bool:
    """Whether every version in `versions` reads `?[%{{key}} A | B]` (`%{{ key }}` when
    padded) as a binding of `key`."""
    return all(key_readable(key, padded, version) for version in versions)


def binding_text(key: str, versions: Sequence[str]) -> str:
    """The binding mfls writes for `key`: unpadded where remark-flow 0.1.6 is targeted
    (it reads no other), else the padded form mfls writes on every host."""
    if REMARK_FLOW_016 in versions:
        return "%{{" + key + "}}"
    return "%{{ " + key + " }}"


def multiple_choice_shown(versions: Sequence[str]) -> bool:
    """Whether every version in `versions` shows `?[%{{k}} A || B]` as a multiple choice."""
    return all(_shows_multiple(version) for version in versions)


@cache
def _shows_multiple(version: str) -> bool:
    reading = read_line("?[%{{k}} A || B]", version)
    element = reading.interaction if reading is not None else None
    return element is not None and bool(element.multiple)


def padding_readable(versions: Sequence[str]) -> bool:
    """Whether every version in `versions` reads a padded binding."""
    return REMARK_FLOW_016 not in versions


# --- page_key: a key every checked version reads, derived from one none reads.

_KEY_CHAR: Final = f"[a-z0-9_{_CJK}]"
_KEY_LIMIT: Final = 48
_HANGUL_BASE: Final = 0xAC00
_HANGUL_INITIALS: Final = (
    *("g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss"),
    *("", "j", "jj", "ch", "k", "t", "p", "h"),
)
_HANGUL_VOWELS: Final = (
    *("a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae"),
    *("oe", "yo", "u", "wo", "we", "wi", "yu", "eu", "ui", "i"),
)
_HANGUL_FINALS: Final = (
    *("", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l"),
    *("p", "l", "m", "p", "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t"),
)
_KANA: Final = (
    "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよ"
    "らりるれろわをんがぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽぁぃぅぇぉゃゅょ"
)
_ROMAJI: Final = (
    *("a", "i", "u", "e", "o", "ka", "ki", "ku", "ke", "ko", "sa", "shi", "su", "se"),
    *("so", "ta", "chi", "tsu", "te", "to", "na", "ni", "nu", "ne", "no", "ha", "hi"),
    *("fu", "he", "ho", "ma", "mi", "mu", "me", "mo", "ya", "yu", "yo", "ra", "ri"),
    *("ru", "re", "ro", "wa", "wo", "n", "ga", "gi", "gu", "ge", "go", "za", "ji"),
    *("zu", "ze", "zo", "da", "ji", "zu", "de", "do", "ba", "bi", "bu", "be", "bo"),
    *("pa", "pi", "pu", "pe", "po", "a", "i", "u", "e", "o", "ya", "yu", "yo"),
)
_KANA_ROMAJI: Final = dict(zip(_KANA, _ROMAJI, strict=True))


def _romanized(char: str) -> str | None:
    """A Latin spelling of a Hangul syllable or a kana (katakana read as hiragana)."""
    code = ord(char)
    if 0xAC00 <= code <= 0xD7A3:
        index = code - _HANGUL_BASE
        initial, rest = divmod(index, 21 * 28)
        vowel, final = divmod(rest, 28)
        return _HANGUL_INITIALS[initial] + _HANGUL_VOWELS[vowel] + _HANGUL_FINALS[final]
    if 0x30A1 <= code <= 0x30F6:
        char = chr(code - 0x60)
    return _KANA_ROMAJI.get(char)


def page_key(key: str, taken: Container[str]) -> str:
    """A key every checked page version reads, derived from `key`, which some cannot:
    words in lower case joined by `_` (accents dropped, Hangul and kana spelled in Latin
    letters, CJK kept), `_` before a leading digit, and a number after it when `taken`
    holds it already. Deterministic; never empty."""
    words: list[str] = []
    word: list[str] = []
    for whole in unicodedata.normalize("NFKC", key):
        spelled = _romanized(whole)
        if spelled is not None:
            word.append(spelled)
            continue
        for char in unicodedata.normalize("NFD", whole):
            if unicodedata.combining(char):
                continue
            lowered = char.lower()
            if _compiled(_KEY_CHAR).fullmatch(lowered) and lowered != "_":
                word.append(lowered)
                continue
            if word:
                words.append("".join(word))
                word = []
    if word:
        words.append("".join(word))
    base = "_".join(words)[:_KEY_LIMIT].rstrip("_")
    if not base:
        base = f"answer_{zlib.crc32(key.encode('utf-8')):08x}"
    elif base[0].isdigit():
        base = "_" + base
    candidate = base
    number = 2
    while candidate in taken:
        candidate = f"{base}_{number}"
        number += 1
    return candidate


# --- read_line: the page's reading of a whole line.

# Markdown constructs that split a line's text into other nodes, or change it, which the
# model does not read: code, emphasis (`*`), strikethrough, math, HTML and autolinks,
# links and images, character references, GFM's literal autolinks.
_UNMODELLED: Final = re.compile(
    r"[`*~$<\r\n\x00]|\]\(|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]*);"
    r"|@"
)
_AUTOLINK: Final = re.compile(r"(?i:www\.|https?://[^\s|\]]*\.|mailto:|xmpp:)|@")
# A backslash before ASCII punctuation: Markdown keeps the punctuation only.
_ESCAPE: Final = re.compile(r"\\([!-/:-@\[-`{-~])")


def _markdown_text(line: str) -> str | None:
    """The text node Markdown makes of `line` (one paragraph), or None when it makes
    more or other nodes than the model reads."""
    indent = len(line) - len(line.lstrip(" \t"))
    if indent and line[:indent].expandtabs(4).count(" ") >= 4:
        return None
    text = line.strip(" \t")
    if not text.startswith("?[") or _UNMODELLED.search(text):
        return None
    if text.count("[") != text.count("?["):
        return None
    if "_" in text and _underscore_emphasis(text):
        return None
    decoded = _ESCAPE.sub(r"\1", text) if "\\" in text else text
    # GFM's literal autolinks are found in the text after its escapes are read.
    return None if _AUTOLINK.search(decoded) else decoded


def _kind(char: str) -> str:
    if not char or char.isspace() or char in _JS_SPACE:
        return "space"
    if unicodedata.category(char)[0] in "PS":
        return "punctuation"
    return "other"


def _underscore_emphasis(text: str) -> bool:
    """Whether some run of `_` could open emphasis before one that could close it
    (CommonMark's flanking rules); if not, every `_` is text."""
    opened = False
    for run in re.finditer("_+", text):
        before = _kind(text[run.start() - 1] if run.start() else "")
        after = _kind(text[run.end()] if run.end() < len(text) else "")
        left = after != "space" and (after != "punctuation" or before in ("space", "punctuation"))
        right = before != "space" and (before != "punctuation" or after in ("space", "punctuation"))
        if opened and right and (not left or after == "punctuation"):
            return True
        if left and (not right or before == "punctuation"):
            opened = True
    return False


@lru_cache(maxsize=4096)
def read_line(line: str, version: str) -> PageReading | None:
    """The page's reading of an interaction line (`?[...]` first on the line), or None
    where Markdown makes of it what the model does not read."""
    text = _markdown_text(line)
    if text is None:
        return None
    elements: list[PageElement] = []
    shown: list[str] = []
    while True:
        found = _INTERACTION.search(text)
        if found is None:
            break
        if version == REMARK_FLOW_016:
            element: PageElement | None = _read_016(found.group(1))
        else:
            element = _read_100a7(found.group(1))
        if element is None:
            break
        elements.append(element)
        shown.append(text[: found.start()])
        text = text[found.end() :]
    shown.append(text)
    return PageReading(tuple(elements), "".join(shown))


def _split_value(option: str) -> tuple[str, str]:
    option = _trim(option)
    found = _BUTTON_VALUE.match(option)
    if found is None:
        return option, option
    return _trim(found.group(1)), _trim(found.group(2))


def _buttons(options: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    pairs = [_split_value(option) for option in options if _trim(option)]
    return tuple(label for label, _ in pairs), tuple(value for _, value in pairs)


def _buttons_016(content: str) -> tuple[tuple[str, ...], tuple[str, ...], bool]:
    first = content.find("|")
    multiple = first != -1 and content.find("||") == first
    parts = content.split("||") if multiple else _SINGLE_PIPE.split(content)
    labels, values = _buttons(parts)
    if not labels and _trim(content) not in ("", "|", "||"):
        labels = values = (_trim(content),)
    return labels, values, multiple


def _read_016(inner: str) -> PageElement:
    variable = _compiled(_VARIABLE_016).match(inner)
    if variable is None:
        if not inner:
            return PageElement(labels=("",), values=("",))
        if "|" in inner:
            labels, values, _ = _buttons_016(inner)
            return PageElement(labels=labels, values=values)
        label, value = _split_value(inner)
        return PageElement(labels=(label,), values=(value,))
    key, content = variable.group(1), _trim(variable.group(2))
    ellipsis = _ELLIPSIS.match(content)
    if ellipsis is not None:
        before, hint = _trim(ellipsis.group(1)), _trim(ellipsis.group(2))
        if not before:
            return PageElement(key, hint=hint, multiple=False)
        labels, values, multiple = _buttons_016(before)
        return PageElement(key, labels, values, hint, multiple)
    if "|" in content:
        labels, values, multiple = _buttons_016(content)
        return PageElement(key, labels, values, multiple=multiple)
    if content:
        label, value = _split_value(content)
        return PageElement(key, (label,), (value,), multiple=False)
    return PageElement(key, hint="", multiple=False)


def _read_100a7(inner: str) -> PageElement | None:
    variable = _compiled(_VARIABLE_100A7).match(inner)
    if variable is None:
        if "%{" in inner or not inner:
            return None
        if _PIPES_100A7.search(inner):
            labels, values = _buttons(_PIPES_100A7.split(inner))
            return PageElement(labels=labels, values=values)
        label, value = _split_value(inner)
        return PageElement(labels=(label,), values=(value,))
    key, content = _trim(variable.group(1)), _trim(variable.group(2))
    ellipsis = _ELLIPSIS.match(content)
    if ellipsis is not None:
        before, hint = _trim(ellipsis.group(1)), _trim(ellipsis.group(2))
        if not before:
            return PageElement(key, hint=hint)
        labels, values = _buttons(_PIPES_100A7.split(before))
        return PageElement(key, labels, values, hint)
    if _PIPES_100A7.search(content):
        labels, values = _buttons(_PIPES_100A7.split(content))
        return PageElement(key, labels, values)
    if content:
        label, value = _split_value(content)
        return PageElement(key, (label,), (value,))
    return PageElement(key, hint="")
