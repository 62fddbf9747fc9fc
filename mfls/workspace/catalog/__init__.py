"""The message catalog: every message of mfls (diagnostics, the course file's problems,
hovers, code action titles, inlay hints, lenses), one table per language (`en.py`,
`zh_cn.py`), and how a message is rendered.

Rules find and say what they found with its data (a code or message id and its
arguments); only this catalog words it. Features take a `language` (`EN` or `ZH`,
English by default) and render each message once, with `say`. A message is a
`string.Template`: `${name}` is an argument, every other character (MarkdownFlow's
`{{ }}` included) is literal. A diagnostic message's first sentence carries the point in
at most 80 characters (`first_sentence`); its arguments there are kept short with
`brief`. Message ids: a diagnostic code or `code.variant` (the codes are in
`workspace/diagnostic_registry.py`), `config.` and `structure.` the course file's and
structure.json's problems, `part.` pieces put into other messages, `related.` the
messages of related places, `hover.` hover texts, `action.` code action titles.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from string import Template
from typing import Final

from mfls.workspace.catalog.en import EN_MESSAGES
from mfls.workspace.catalog.zh_cn import ZH_MESSAGES

EN: Final = "en"
ZH: Final = "zh-CN"
LANGUAGES: Final = (EN, ZH)
AUTO: Final = "auto"
FIRST_SENTENCE_LIMIT: Final = 80


def language_of(locale: str | None) -> str:
    """The catalog language for a locale name: a BCP 47 tag (`zh-CN`, `zh-Hant-TW`) or a
    POSIX locale (`zh_CN.UTF-8`). Every Chinese locale gets Simplified Chinese, the only
    Chinese of the catalog; anything else, or none, gets English."""
    if not locale:
        return EN
    name = locale.split(".", 1)[0].split("@", 1)[0].replace("_", "-").lower()
    return ZH if name == "zh" or name.startswith("zh-") else EN


def quoted(key: str) -> str:
    return f"“{key}”"


def brief(key: str, limit: int = 30) -> str:
    """`key` quoted, cut to `limit` characters (ending in `…`) so that a first sentence
    naming it stays short; the later sentences name it whole."""
    return quoted(bare(key, limit))


def bare(key: str, limit: int = 24) -> str:
    """`key` cut like `brief`, unquoted (for a first sentence writing it in a marker)."""
    return key if len(key) <= limit else key[: limit - 1].rstrip() + "…"


_SENTENCE_END: Final = re.compile(r"[.?!](?=\s|$)|[。？！]")
_QUOTED: Final = re.compile(r"`[^`]*`|“[^”]*”")


def first_sentence(message: str) -> str:
    """The message up to its first full stop, question or exclamation mark (one followed
    by a space or the end, or a Chinese one); marks inside `code` or “quotes” do not end
    a sentence."""
    hidden = _QUOTED.sub(lambda m: "x" * len(m.group()), message)
    found = _SENTENCE_END.search(hidden)
    return message if found is None else message[: found.end()]


MESSAGES: Final[Mapping[str, Mapping[str, str]]] = {
    message_id: {EN: text, ZH: ZH_MESSAGES[message_id]} for message_id, text in EN_MESSAGES.items()
}
"""Message id -> language -> template."""

_ARGUMENT: Final = re.compile(r"\$\{(\w+)\}")


def _pieces(template: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`template` as its literal parts and the argument names between them, joined at
    render time (several times faster than `Template.substitute` or `str.format` on
    these long texts); `Template` still checks that it is well formed."""
    names = tuple(_ARGUMENT.findall(template))
    Template(template).substitute(dict.fromkeys(names, ""))
    return tuple(_ARGUMENT.split(template)[::2]), names


_PIECES: Final = {
    EN: {id_: _pieces(text) for id_, text in EN_MESSAGES.items()},
    ZH: {id_: _pieces(text) for id_, text in ZH_MESSAGES.items()},
}


def say(language: str, message_id: str, **args: object) -> str:
    """Message `message_id` in `language` (English for one the catalog lacks)."""
    literals, names = (_PIECES.get(language) or _PIECES[EN])[message_id]
    if not names:
        return literals[0]
    if len(names) == 1:  # the most frequent case, at f-string speed
        return f"{literals[0]}{args[names[0]]}{literals[1]}"
    out = [literals[0]]
    for name, literal in zip(names, literals[1:]):  # noqa: B905 (one more literal)
        out.append(f"{args[name]}")
        out.append(literal)
    return "".join(out)


def counted(language: str, message_id: str, count: int) -> str:
    """`message_id.one` for a count of 1, else `message_id.other`."""
    return say(language, f"{message_id}.{'one' if count == 1 else 'other'}", count=count)
