"""The one renderer of diagnostics: a rule's `Finding` becomes a `Diagnostic` whose
message (and those of its related places) the catalog words in the language asked for.
No rule words a message itself (tests/architecture/test_one_catalog.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final, NamedTuple

from mfls.features.finding import (
    Counted,
    Diagnostic,
    Finding,
    Related,
    RelatedFound,
    Repeated,
    Said,
    Words,
)
from mfls.features.scan_rules import hidden, runs_on
from mfls.syntax.model import InvalidMarker, Marker
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


class _Worded(NamedTuple):
    """What a course's findings said, worded in one language: messages and related
    places (their words depend on what is said only, so they are kept from snapshot to
    snapshot, up to `WORDED_KEPT` of each)."""

    messages: dict[Said | Counted, str]
    related: dict[tuple[RelatedFound, ...], tuple[Related, ...]]


def _kept(previous: _Worded | None, changed: object) -> _Worded:
    if (
        previous is None
        or len(previous.messages) > WORDED_KEPT
        or len(previous.related) > WORDED_KEPT
    ):
        return _Worded({}, {})
    return previous


def worded(
    findings: Iterable[Finding | Repeated],
    language: str = EN,
    course: CourseSnapshot | None = None,
) -> list[Diagnostic]:
    """The diagnostics of `findings`, worded in `language`; a message said again (the
    reads of one key) is worded once, once per course when `course` is given."""
    memo = (
        _Worded({}, {})
        if course is None
        else course.cache.get(_WORDED.get(language, _WORDED[EN]), _kept)
    )
    messages, related_memo = memo
    # By identity, what this call's findings said and its words (each value holds what it
    # was worded from, so that no other object takes its identity meanwhile). Kept for
    # the call only: a course's findings are fresh objects per request, so a memo kept
    # with the snapshot would grow with every request.
    seen: dict[int, tuple[object, Any]] = {}
    severities = DEFAULT_SEVERITIES
    found: list[Diagnostic] = []
    # One marker's findings often say what the previous one said: checked by identity.
    last_words: object = None
    last_related: object = None
    message = ""
    places: tuple[Related, ...] = ()
    markers: list[Marker] | None
    words: Words
    tags: tuple[str, ...]
    severity: str | None
    start = end = 0
    for finding in findings:
        if isinstance(finding, Repeated):
            code, markers, words, related = finding
            tags, severity = (), None
        else:
            code, start, end, words, related, tags, severity = finding
            markers = None
        if words is not last_words:
            last_words = words
            hit = seen.get(id(words))
            if hit is None:
                if isinstance(words, Said | Counted):
                    said_before = messages.get(words)
                    if said_before is None:
                        said_before = messages[words] = word(words, language)
                    message = said_before
                else:
                    message = word(words, language)
                seen[id(words)] = (words, message)
            else:
                message = hit[1]
        if related is not last_related:
            last_related = related
            if related:
                hit = seen.get(id(related))
                if hit is None:
                    worded_places = related_memo.get(related)
                    if worded_places is None:
                        worded_places = related_memo[related] = tuple(
                            (uri, a, b, word(r, language)) for uri, a, b, r in related
                        )
                    seen[id(related)] = (related, worded_places)
                    places = worded_places
                else:
                    places = hit[1]
            else:
                places = ()
        level = severity or severities[code]
        # Plain tuples of the fields: the named tuple's own `__new__` is Python code.
        if markers is None:
            found.append(_new_tuple(Diagnostic, (code, level, start, end, message, places, tags)))
        else:
            found.extend(
                _new_tuple(Diagnostic, (code, level, m.start, m.end, message, places, tags))
                for m in markers
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
