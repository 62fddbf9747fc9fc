"""Verdicts and near-miss answers kept from one snapshot to the next are those a fresh
index gives: a run of edits, each compared with the same texts indexed anew."""

from __future__ import annotations

import random

from mfls.features.diagnostics import document_diagnostics
from tests.kit.course import course

INTRO = "# Intro\n\n?[{{ topic }} A | B]\n\n?[{{ learning goal }} A | B]\n"
LESSON = (
    "# Lesson\n\nRead {{ topc }}, {{ learning goals }}, {{ nothing }} and {{ later one }}.\n\n"
    "?[{{ here now }} A | B]\n\nThen {{ here nwo }} and {{ Topic }}.\n"
)
LATER = "# Later\n\n?[{{ later one }} A | B]\n"
EDITS = [
    "?[{{ topic }} X | Y]\n\n",  # moves the lesson's markers, binds a near key here
    "?[{{ learning goalz }} X | Y]\n\n",
    "{{ new reference }} ",
    "?[{{ nothing }} X | Y]\n\n",  # binds what was unbound
    "?[{{ nothin }} X | Y]\n\n",
    "\n",
]


def _files(intro: str, lesson: str) -> dict[str, str]:
    return {"01-intro.md": intro, "02-lesson.md": lesson, "03-later.md": LATER}


def test_diagnostics_after_each_edit_are_those_of_a_fresh_index() -> None:
    rng = random.Random(5)
    c = course(_files(INTRO, LESSON))
    lesson, intro = c.uri("02-lesson.md"), c.uri("01-intro.md")
    texts = {lesson: LESSON, intro: INTRO}
    for uri, text in texts.items():
        c.workspace.open(uri, text, 1)
    for uri in texts:
        document_diagnostics(c.snapshot, uri)
    for version in range(2, 40):
        uri = rng.choice(sorted(texts))
        text = texts[uri]
        if rng.random() < 0.7 or len(text) < 40:
            at = rng.choice([m for m in range(len(text) + 1) if text.startswith("\n", m)] or [0])
            start, end, new = at, at, rng.choice(EDITS)
        else:
            start = rng.randrange(len(text) - 20)
            end, new = start + rng.randint(1, 20), ""
        texts[uri] = text[:start] + new + text[end:]
        c.workspace.change(uri, [(start, end, new)], version)
        fresh = course(_files(texts[intro], texts[lesson]))
        for each, text in texts.items():
            fresh.workspace.open(each, text, 1)
        for each in texts:
            assert document_diagnostics(c.snapshot, each) == document_diagnostics(
                fresh.snapshot, each
            ), (version, each, texts[each])
