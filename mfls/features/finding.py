"""What a diagnostic rule finds, as data, and the diagnostic it becomes once worded.

A rule (`scan_rules`, `key_rules`, `document_rules`, `course_file_rules`) yields a
`Finding`: its code, its span, and what to say as a message id with its arguments
(`Said`); only `diagnostic_wording` turns a finding into a `Diagnostic`, its words from
the one catalog (`mfls.workspace.catalog`) in the language asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from mfls.syntax.model import Marker


class Said(NamedTuple):
    """Message `message_id` of the catalog with its arguments (each a value, or a `Said`
    or `Counted` worded first)."""

    message_id: str
    args: tuple[tuple[str, object], ...] = ()


def said(message_id: str, **args: object) -> Said:
    return Said(message_id, tuple(args.items()))


class Counted(NamedTuple):
    """Message `message_id.one` for a count of 1, else `message_id.other`."""

    message_id: str
    number: int


Words = Said | Counted | Callable[[str], str]
"""What a finding says: a message of the catalog, or (the learner page's descriptions,
`features/page_checks.py`) a function of the language that words it from the catalog."""

RelatedFound = tuple[str, int, int, Said]
"""A related place: URI, start and end offsets, what is said of it."""


class Finding(NamedTuple):
    """One problem a rule finds at `[start, end)` of a document's text; `severity` None
    is the code's default (a tuple: a dense course makes them by the ten thousand)."""

    code: str
    start: int
    end: int
    said: Words
    related: tuple[RelatedFound, ...] = ()
    tags: tuple[str, ...] = ()
    severity: str | None = None


class Repeated(NamedTuple):
    """One problem found at each of `markers` (the reads of one key in a document), said
    once."""

    code: str
    markers: list[Marker]
    said: Said
    related: tuple[RelatedFound, ...] = ()


Related = tuple[str, int, int, str]
DEPRECATED = "deprecated"
UNNECESSARY = "unnecessary"


class Diagnostic(NamedTuple):
    """One problem at `[start, end)` of a document's text, worded (a tuple: a dense course
    makes them by the ten thousand)."""

    code: str
    severity: str  # error | warning | information | hint
    start: int
    end: int
    message: str
    related: tuple[Related, ...] = ()
    tags: tuple[str, ...] = ()
