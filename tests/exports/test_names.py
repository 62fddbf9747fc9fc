"""Titles become distinct, portable file names."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mfls.exports.names import MAX_STEM_BYTES, UniqueNames, fold, safe_stem

WINDOWS_FORBIDDEN = set('<>:"/\\|?*')


@pytest.mark.parametrize(
    ("title", "stem"),
    [
        ("Quick start", "Quick start"),
        ("../../etc/passwd", "_.._etc_passwd"),
        ("a/b\\c", "a_b_c"),
        ("line one\nline two\r\n", "line one line two"),
        ("tab\there\x00nul\x7fdel", "tab here nul del"),
        (".hidden", "hidden"),
        ("...", "untitled"),
        ("", "untitled"),
        ("   ", "untitled"),
        ("trailing. . ", "trailing"),
        ("CON", "CON_"),
        ("nul.txt", "nul.txt_"),
        ("com1", "com1_"),
        ("LPT9 ", "LPT9_"),
        ("CONSOLE", "CONSOLE"),
        ("What? *Really*: <yes> | no", "What_ _Really__ _yes_ _ no"),
        ("{{ key }} [x]", "__ key __ _x_"),
        ("🎉 Welcome 🎉", "🎉 Welcome 🎉"),
        ("bidi\u202eevil\u200b", "bidievil"),
        ("e\u0301", "é"),
    ],
)
def test_safe_stem(title: str, stem: str) -> None:
    assert safe_stem(title) == stem


def test_long_titles_are_cut_at_a_character_boundary() -> None:
    stem = safe_stem("é" * 200)
    assert len(stem.encode("utf-8")) <= MAX_STEM_BYTES
    assert stem == "é" * (MAX_STEM_BYTES // 2)
    emoji = safe_stem("👩‍👩‍👧‍👦" * 40)
    assert len(emoji.encode("utf-8")) <= MAX_STEM_BYTES
    assert not emoji.endswith("\u200d")
    marks = safe_stem("a" * (MAX_STEM_BYTES - 1) + "e\u0301\u0301")
    assert not unicodedata.category(marks[-1]).startswith("M")


@given(st.text())
def test_every_stem_is_portable(title: str) -> None:
    stem = safe_stem(title)
    assert stem
    assert len(stem.encode("utf-8")) <= MAX_STEM_BYTES
    assert not (set(stem) & WINDOWS_FORBIDDEN)
    assert all(unicodedata.category(ch) not in ("Cc", "Cs") for ch in stem)
    assert stem[0] not in ". " and stem[-1] not in ". "
    assert stem == unicodedata.normalize("NFC", stem)
    stem.encode("utf-8")  # no lone surrogate


def test_unique_names_fold_case_and_normalization() -> None:
    names = UniqueNames()
    assert names.take("Intro", ".md") == "Intro.md"
    assert names.take("intro", ".md") == "intro (2).md"
    assert names.take("INTRO", ".md") == "INTRO (3).md"
    assert names.take("Intro") == "Intro"
    assert fold("Cafe\u0301") == fold("CAFÉ")
