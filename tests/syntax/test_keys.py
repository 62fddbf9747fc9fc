"""Key normalization: docs/syntax.md section E's table, trimming set, reasons (rules 5, 6, 23)."""

from __future__ import annotations

import pytest

from mfls.syntax.keys import (
    WHITESPACE,
    check_new_key,
    is_valid_key,
    key_problem,
    marker_text,
    normalize_key,
    trim,
)
from mfls.syntax.model import Reason

SEED_WHITESPACE = (
    list(range(0x09, 0x0E))
    + list(range(0x1C, 0x21))
    + [0x85, 0xA0, 0x1680]
    + list(range(0x2000, 0x200B))
    + [0x2028, 0x2029, 0x202F, 0x205F, 0x3000]
)


def test_whitespace_set_is_exactly_the_seed_list() -> None:
    assert {ord(c) for c in WHITESPACE} == set(SEED_WHITESPACE)
    assert "\ufeff" not in WHITESPACE
    assert "\u200b" not in WHITESPACE


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ("user_name", "user_name"),
        (" name ", "name"),
        ("user name", "user name"),
        ("user  name", "user  name"),
        ("What is your gender?", "What is your gender?"),
        ("🚀 rocket", "🚀 rocket"),
        ("a{b}c", "a{b}c"),
        (" a} ", "a}"),
        ("outer{{inner", "outer{{inner"),
        ('"name"', '"name"'),
        ("path\\", "path\\"),
        ("name[0]", "name[0]"),
        ("user.name", "user.name"),
        (" What would you like to learn? ", "What would you like to learn?"),
        (" Which [path] | level//hint...? ", "Which [path] | level//hint...?"),
        ("\n key \n", "key"),
        ("\r\n key\r", "key"),
        ("\ufeffkey", "\ufeffkey"),
        ("key\ufeff", "key\ufeff"),
        ("Name", "Name"),
        ("a\u00a0b", "a\u00a0b"),
        ("a\u3000\u3000b", "a\u3000\u3000b"),
        ("\u3000\u2028\u0085k\u1680\u205f", "k"),
    ],
)
def test_valid_keys(body: str, key: str) -> None:
    assert normalize_key(body) == (key, None)
    assert is_valid_key(key) or "}}" in key


@pytest.mark.parametrize("cp", SEED_WHITESPACE)
def test_every_whitespace_character_is_trimmed_at_both_ends(cp: int) -> None:
    assert normalize_key(f"{chr(cp)}k{chr(cp)}") == ("k", None)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("", Reason.EMPTY),
        (" ", Reason.EMPTY),
        ("\n\t \u3000", Reason.EMPTY),
        ("a\nb", Reason.LINE_BREAK),
        ("a\rb", Reason.LINE_BREAK),
        ("a\r\nb", Reason.LINE_BREAK),
        ("a\u0085b", Reason.LINE_BREAK),
        ("a\u2028b", Reason.LINE_BREAK),
        ("a\u2029b", Reason.LINE_BREAK),
        ("a\x00b", Reason.CONTROL_CHARACTER),
        ("a\tb", Reason.CONTROL_CHARACTER),
        ("a\x0bb", Reason.CONTROL_CHARACTER),
        ("a\x1cb", Reason.CONTROL_CHARACTER),
        ("a\x1fb", Reason.CONTROL_CHARACTER),
        ("a\x7fb", Reason.CONTROL_CHARACTER),
        ("a\x9fb", Reason.CONTROL_CHARACTER),
        ("\x01", Reason.CONTROL_CHARACTER),
        ("a\x01b\nc", Reason.LINE_BREAK),
        ("a\nb\x01c", Reason.LINE_BREAK),
    ],
)
def test_invalid_keys(body: str, reason: Reason) -> None:
    assert normalize_key(body) == (None, reason)


def test_trim_returns_offsets() -> None:
    assert trim("  ab  ") == (2, 4)
    assert trim("xx  ab  yy", 2, 8) == (4, 6)
    assert trim("   ") == (3, 3)
    assert trim("a\ufeff ") == (0, 2)
    long = "\u3000" * 70 + "k" * 70 + "\n" * 70
    assert trim(long) == (70, 140)
    assert trim(long, 1, 139) == (70, 139)
    assert trim(" " * 100) == (100, 100)
    assert trim("abc", 2, 2) == (2, 2)


def test_check_new_key() -> None:
    assert check_new_key(" new name ") == ("new name", None)
    assert check_new_key("") == (None, "empty")
    assert check_new_key("a\nb") == (None, "line-break")
    assert check_new_key("a\x00b") == (None, "control-character")
    assert check_new_key("a}}b") == (None, "closing-sequence")
    assert check_new_key("a}") == ("a}", None)
    assert check_new_key(" a\udc00b ") == (None, "not-utf8")
    assert check_new_key("\ud800\n") == (None, "not-utf8")
    assert check_new_key("\U0001f600") == ("\U0001f600", None)


def test_key_problem_of_trimmed_keys() -> None:
    assert key_problem("") is Reason.EMPTY
    assert key_problem("a\u2028b") is Reason.LINE_BREAK
    assert key_problem("a\x85") is Reason.LINE_BREAK
    assert key_problem("a\x80") is Reason.CONTROL_CHARACTER
    assert key_problem("a b") is None


def test_is_valid_key() -> None:
    assert is_valid_key("a b")
    assert not is_valid_key(" a")
    assert not is_valid_key("")
    assert not is_valid_key("a}}")
    assert not is_valid_key("a\x01")


def test_marker_text_round_trips() -> None:
    for key in ["a}", "{a", "user name", "x"]:
        text = marker_text(key)
        assert text.startswith("{{ ") and text.endswith(" }}")
        assert normalize_key(text[2:-2]) == (key, None)
