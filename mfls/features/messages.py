"""The catalog's words as the features name them: `mfls.workspace.catalog` holds every
message (one table per language) and renders it; this module holds no text."""

from __future__ import annotations

from mfls.workspace.catalog import (
    AUTO,
    EN,
    FIRST_SENTENCE_LIMIT,
    LANGUAGES,
    MESSAGES,
    ZH,
    bare,
    brief,
    counted,
    first_sentence,
    language_of,
    quoted,
    say,
)

__all__ = [
    "AUTO",
    "EN",
    "FIRST_SENTENCE_LIMIT",
    "LANGUAGES",
    "MESSAGES",
    "ZH",
    "bare",
    "brief",
    "counted",
    "first_sentence",
    "language_of",
    "quoted",
    "say",
]
