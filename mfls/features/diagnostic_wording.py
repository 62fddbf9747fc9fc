"""The one renderer of diagnostics: a rule's `Finding` becomes a `Diagnostic` whose
message (and those of its related places) the catalog words in the language asked for.
No rule words a message itself (tests/architecture/test_one_catalog.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from mfls.features.finding import Counted, Diagnostic, Finding, Related, Said, Words
from mfls.features.scan_rules import hidden, runs_on
from mfls.syntax.model import InvalidMarker
from mfls.workspace.catalog import EN, LANGUAGES, counted, say
from mfls.workspace.config import ConfigProblem
from mfls.workspace.diagnostic_registry import DEFAULT_SEVERITIES
from mfls.workspace.index import CourseSnapshot, Memo

_new_tuple = tuple.__new__


def word(words: Words, language: str = EN) -> str:
    """What `words` say, in `language`."""
    if isinstance(words, Said):
        if not words.args:
            return say(language, words.message_id)
        args = {
            name: word(value, language) if isinstance(value, Said | Counted) else value
            for name, value in words.args
        }
        return say(language, words.message_id, **args)
    if isinstance(words, Counted):
        return counted(language, words.message_id, words.number)
    return words(language)


_WORDED: Final = {language: Memo(f"worded findings {language}") for language in LANGUAGES}


WORDED_KEPT: Final = 50_000


def _kept(previous: dict[Words, str] | None, changed: object) -> dict[Words, str]:
    """The words of the course's previous snapshot: a message's words depend on what is
    said only (up to `WORDED_KEPT` of them)."""
    if previous is None or len(previous) > WORDED_KEPT:
        return {}
    return previous


def worded(
    findings: Iterable[Finding], language: str = EN, course: CourseSnapshot | None = None
) -> list[Diagnostic]:
    """The diagnostics of `findings`, worded in `language`; a message said again (the
    reads of one key) is worded once, once per snapshot of `course` when given."""
    memo: dict[Words, str] = (
        {} if course is None else course.cache.get(_WORDED.get(language, _WORDED[EN]), _kept)
    )
    by_id: dict[int, str] = {}
    related_by_id: dict[int, tuple[Related, ...]] = {}
    severities = DEFAULT_SEVERITIES
    found: list[Diagnostic] = []
    for finding in findings:
        code, start, end, words, related, tags, severity = finding
        message = by_id.get(id(words))
        if message is None:
            if isinstance(words, Said | Counted):
                message = memo.get(words)
                if message is None:
                    message = memo[words] = word(words, language)
            else:
                message = word(words, language)
            by_id[id(words)] = message
        if related:
            places = related_by_id.get(id(related))
            if places is None:
                places = related_by_id[id(related)] = tuple(
                    (uri, a, b, word(r, language)) for uri, a, b, r in related
                )
        else:
            places = ()
        # Plain tuples of the fields: the named tuple's own `__new__` is Python code.
        found.append(
            _new_tuple(
                Diagnostic,
                (code, severity or severities[code], start, end, message, places, tags),
            )
        )
    return found


def hidden_text(marker: InvalidMarker, language: str, message_id: str) -> str:
    """What an unclosed marker hides, as message `message_id.one` or `.both` ("" for
    nothing)."""
    found = hidden(marker, message_id)
    return "" if found is None else word(found, language)


def runs_on_text(marker: InvalidMarker, text: str, language: str = EN) -> str | None:
    """How a line-broken marker runs past its question (`scan_rules.runs_on`), worded."""
    found = runs_on(marker, text)
    return None if found is None else word(found, language)


def config_problem_message(problem: ConfigProblem, language: str = EN) -> str:
    """A problem of a course file (or structure.json), worded in `language`."""
    if language == EN or not problem.id:
        return problem.message
    return say(language, problem.id, **dict(problem.args))
