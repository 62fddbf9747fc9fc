"""A request a feature declines: returned as data, never raised."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a feature cannot do what was asked, worded for the author.

    `conflict` marks a rename whose new key is already used in the course (doing it would
    merge two questions); `old_key`/`new_key` name the keys involved when known.
    `stale` marks a refusal because the document changed while the request ran;
    `malformed` one because the request's arguments do not fit (wrong types, missing).
    """

    message: str
    old_key: str | None = None
    new_key: str | None = None
    conflict: bool = False
    stale: bool = False
    malformed: bool = False
