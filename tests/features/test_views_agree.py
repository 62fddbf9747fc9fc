"""Every view tells one story of a course (the facts' verdicts, `features/facts.py`):
for every marker that asks or reads a key, the diagnostic codes at it, the map's place
kind (and further problem kinds), the hover's verdict sentence, and per key the map's
problem counts, the key table and the course figures agree.

Checked over the example course, both shared AI-Shifu exports (unpacked in memory by
`mfls.exports`), an AI-Shifu course-creator folder and the conformance corpus, and on
small courses that reproduce the divergences issue 30 lists (each failed before the
facts answered them).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from mfls.exports.ai_shifu import ExportProblem, read_export
from mfls.exports.layout import decode_text, unpack
from mfls.features.course_info import course_figures
from mfls.features.course_map import CourseMap, KeyLane, course_map, key_table
from mfls.features.diagnostics import Diagnostic, entry_diagnostics
from mfls.features.facts import (
    PLACE_ASKED,
    PLACE_LEGACY_PROFILE,
    PLACE_NEAR_MISS,
    PLACE_PROVIDED,
    PLACE_READ,
    PLACE_READ_BEFORE_ASKED,
    PLACE_REFERENCE_BINDING,
    PLACE_RESERVED,
    PLACE_UNBOUND,
    PROBLEM_CODES,
    facts_of,
)
from mfls.features.hover import hover
from mfls.features.inlay_hints import inlay_hints
from mfls.features.messages import EN, say
from mfls.features.variable_table import global_variable_table
from mfls.workspace import catalog
from mfls.workspace.index import CourseSnapshot
from tests.ai_shifu_exports import shared_exports
from tests.kit.course import Course, course, expect, hover_text

ROOT = Path(__file__).resolve().parents[2]
KEY_CODES = frozenset(PROBLEM_CODES.values())


def _texts(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): path.read_text(encoding="utf-8")
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _unpacked(path: Path) -> dict[str, str]:
    data = path.read_bytes()
    export = read_export(data)
    assert not isinstance(export, ExportProblem), export
    folder = unpack(export, data, path.name)
    texts = {name: decode_text(body) for name, body in folder.files.items()}
    return {name: text for name, text in texts.items() if text is not None}


def _conformance() -> dict[str, str]:
    files: dict[str, str] = {}
    for corpus in sorted((ROOT / "tests" / "conformance").glob("*.json")):
        for number, case in enumerate(json.loads(corpus.read_text(encoding="utf-8"))["cases"]):
            text = case.get("input")
            if isinstance(text, str) and "$0" not in text:
                files[f"{corpus.stem}/{number:03d}.md"] = text
    return files


COURSE_CREATOR = {
    "README.md": "# A course\n",
    "course-prompt.md": "Teach {{ sys_user_nickname }} towards {{ goal }}.\n",
    "structure.json": '{"chapters": [{"title": "One", "lessons": [\n'
    '  {"file": "lesson-02.md", "title": "Two"},\n'
    '  {"file": "lesson-01.md", "title": "One"}\n]}]}\n',
    "lessons/lesson-01.md": "?[%{{ goal }}...Your goal]\n{{ sys_user_style }} {{ gaol }}\n",
    "lessons/lesson-02.md": "Aim for {{ goal }}, {{ level }}.\n?[{{ sys_custom }} A | B]\n",
}

ONE_IGNORED_THEN_READ = "?[{{ x }} A | B]\n\nUse {{ x }}.\n"
"""A binding the runtime of ai-shifu's default target ignores, then a read."""

SILENCED_IN_A_REFERENCE = {
    "mfcourse.toml": 'lessons = ["lessons/*.md"]\nreferences = ["ref.md"]\n',
    "ref.md": "<!-- mfls-disable-next-line binding-in-reference -->\n?[{{ level }} A | B]\n",
    "lessons/one.md": "At {{ level }}.\n",
}
"""A binding in a reference document whose binding-in-reference is suppressed."""

SILENCED_PROFILE_KEY_IN_A_REFERENCE = {
    "mfcourse.toml": 'host = "ai-shifu"\nlessons = ["one.md"]\nreferences = ["ref.md"]\n',
    "ref.md": (
        "<!-- mfls-disable-next-line legacy-profile-key -->\n?[%{{ sys_user_style }} A | B]\n"
    ),
    "one.md": "Hello.\n",
}
"""A legacy profile key bound in a reference document, its legacy-profile-key suppressed."""

# Read at collection: the feature tests run where the file system is out of reach.
COURSES: dict[str, dict[str, str]] = {
    "example": _texts(ROOT / "examples" / "course"),
    "course-creator": COURSE_CREATOR,
    "conformance": _conformance(),
    "silenced binding in a reference": SILENCED_IN_A_REFERENCE,
    "silenced profile key in a reference": SILENCED_PROFILE_KEY_IN_A_REFERENCE,
    "ignored binding then read": {
        "mfcourse.toml": 'host = "ai-shifu"\n',
        "one.md": ONE_IGNORED_THEN_READ,
    },
}
_EXPORTS = shared_exports()
for _export in sorted(_EXPORTS.glob("*.json")) if _EXPORTS is not None else ():
    COURSES[f"export {_export.stem}"] = _unpacked(_export)


def _course(files: dict[str, str]) -> Course:
    return course(files)


def _the_course(made: Course) -> CourseSnapshot:
    (found,) = made.snapshot.courses.values()
    return found


def _start(message_id: str, **args: object) -> str:
    """The words of message `message_id` up to its first argument."""
    return say(EN, message_id, **{name: "\0" for name in args} | {"more": 0}).split("\0")[0]


NOT_BOUND = say(EN, "hover.not-bound")
NOT_A_BINDING = _start("hover.binding.ignored", runtime=1)
"""A `{{ key }}` binding of a reserved key under an old target: its runtime binds nothing."""


def verdict_sentence(kind: str, lane: KeyLane, host: str, standing: str) -> str:
    """The sentence of a hover that says the verdict of a place of kind `kind` (of a key
    whose standing in the course is `standing`)."""
    if kind == PLACE_PROVIDED:
        return say(EN, "hover.provided", host=host)
    if kind == PLACE_LEGACY_PROFILE:
        return say(EN, "hover.legacy-profile", host=host)
    if kind == PLACE_RESERVED:  # a binding the host rejects: it saves no answer
        return say(EN, "hover.binding.reserved", legacy="")
    if lane.asked_in or standing == PLACE_RESERVED:  # a reserved key's binding saves nothing
        return _start("hover.bound-in", places=1)
    if lane.bound_in_references:
        return _start("hover.bound-in-references", places=1)
    return NOT_BOUND


def read_sentence(lane: KeyLane, drawn: CourseMap, course_name: str) -> str:
    """The sentence of a hover that says how often the key is read: the map's reads."""
    reads = lane.reads
    if not reads:
        return say(EN, "hover.not-read", course=course_name)
    documents = len({drawn.lessons[p.lesson].uri for p in reads})
    times = catalog.counted(EN, "hover.times", len(reads))
    in_documents = catalog.counted(EN, "hover.documents", documents)
    return say(EN, "hover.read", times=times, documents=in_documents, course=course_name)


def disagreements(made: Course) -> Iterator[str]:
    """Where the views of the course `made` tell different stories."""
    snapshot = made.snapshot
    the_course = _the_course(made)
    facts = facts_of(the_course)
    drawn: CourseMap = course_map(the_course)
    severities_off = {c for c, s in the_course.config.severities.items() if s == "off"}
    # Every key problem the diagnostics give, by document and span.
    given: dict[str, Counter[tuple[int, int, str]]] = {}
    for entry in the_course.docs.values():
        found: list[Diagnostic] = entry_diagnostics(the_course, entry)
        given[entry.uri] = Counter((d.start, d.end, d.code) for d in found if d.code in KEY_CODES)
    placed: dict[str, Counter[tuple[int, int, str]]] = {uri: Counter() for uri in given}
    lessons = drawn.lessons
    for lane in drawn.keys:
        counted: Counter[str] = Counter()
        for place in lane.places:
            uri = lessons[place.lesson].uri
            kinds = (place.kind, *place.also)
            problems = [
                PROBLEM_CODES[k] for k in kinds if k in PROBLEM_CODES and k not in place.silenced
            ]
            placed[uri].update((place.start, place.end, code) for code in problems)
            counted.update(problems)
            # The hover at the marker says the place's verdict.
            shown = hover(snapshot, uri, place.start, EN)
            standing = facts.standing(lane.key)
            sentence = verdict_sentence(place.kind, lane, facts.host_name, standing)
            said = "" if shown is None else shown.markdown
            ignored = place.kind == PLACE_RESERVED and NOT_A_BINDING in said
            if sentence not in said and not ignored:
                yield f"{lane.key} at {uri}:{place.line}: hover lacks {sentence!r}"
            unbound = facts.standing(lane.key) in (PLACE_UNBOUND, PLACE_NEAR_MISS)
            if shown is not None and (NOT_BOUND in shown.markdown) != unbound:
                yield f"{lane.key} at {uri}:{place.line}: hover's 'not bound' is not its standing"
            if place.kind in (PLACE_UNBOUND, PLACE_NEAR_MISS) and lane.asked_in:
                yield f"{lane.key}: {place.kind} read though askedIn {lane.asked_in}"
            if (
                place.kind in (PLACE_READ, PLACE_READ_BEFORE_ASKED, PLACE_ASKED)
                and not lane.asked_in
                and standing != PLACE_RESERVED  # bound in a lesson; the error is there
            ):
                yield f"{lane.key}: {place.kind} though no lesson asks it"
            if place.kind == PLACE_RESERVED and not facts.reserved(lane.key):
                yield f"{lane.key}: reserved on the map, not reserved by the facts"
        counts = Counter({problem.code: problem.count for problem in lane.problems})
        if counts != counted:
            yield f"{lane.key}: the map counts {dict(counts)}, its places {dict(counted)}"
        # Every marker of the key (a place or not) hovers with the map's count of reads.
        said_reads = read_sentence(lane, drawn, the_course.name)
        for occurrence in the_course.occurrences(lane.key):
            shown = hover(snapshot, occurrence.uri, occurrence.marker.start, EN)
            if shown is not None and said_reads not in shown.markdown:
                yield f"{lane.key} at {occurrence.uri}: hover lacks {said_reads!r}"
    for uri, codes in given.items():
        kept = Counter({k: n for k, n in placed[uri].items() if k[2] not in severities_off})
        if codes != kept:
            only_given = dict(codes - kept)
            only_placed = dict(kept - codes)
            yield f"{uri}: diagnostics only {only_given}, map only {only_placed}"
    for row in global_variable_table(drawn):
        if not next(lane for lane in drawn.keys if lane.key == row["name"]).asked_in:
            yield f"{row['name']}: the variable table collects it, though no lesson asks it"
    rows = key_table(drawn)
    if [row["key"] for row in rows] != [lane.key for lane in drawn.keys]:
        yield "the key table's rows are not the map's lanes"
    for row, lane in zip(rows, drawn.keys, strict=False):
        if {lessons[i].title for i in lane.asked_in} != {a["lesson"] for a in row["asked"]}:
            yield f"{lane.key}: the key table asks it in {row['asked']}, the map in askedIn"
    if course_figures(the_course).questions != len(drawn.keys):
        yield "the course figures count other questions than the map's lanes"


@pytest.mark.parametrize("name", sorted(COURSES))
def test_every_view_tells_the_facts_story(name: str) -> None:
    assert COURSES[name], name
    assert list(disagreements(_course(COURSES[name]))) == []


def test_the_shared_exports_are_checked() -> None:
    if _EXPORTS is None:
        pytest.skip("the shared AI-Shifu exports are not beside this checkout")
    assert len([n for n in COURSES if n.startswith("export ")]) >= 2


# -- the divergences of issue 30, each in a small course --------------------------------


def _places(made: Course, key: str) -> list[tuple[str, tuple[str, ...]]]:
    drawn = course_map(_the_course(made))
    (lane,) = [lane for lane in drawn.keys if lane.key == key]
    return [(drawn.lessons[p.lesson].title, (p.kind, *p.also)) for p in lane.places]


def _lane(made: Course, key: str) -> dict[str, object]:
    drawn = course_map(_the_course(made))
    (lane,) = [lane.to_json() for lane in drawn.keys if lane.key == key]
    return lane


def test_a_course_prompt_reading_a_key_asked_later_is_read_before_asked_on_the_map() -> None:
    made = _course(COURSE_CREATOR)
    assert _places(made, "goal")[0] == ("course-prompt.md", (PLACE_READ_BEFORE_ASKED,))
    assert list(disagreements(made)) == []


def test_a_key_bound_only_in_a_reference_is_unbound_in_every_view() -> None:
    made = course(
        {
            "mfcourse.toml": 'lessons = ["lessons/*.md"]\nreferences = ["ref.md"]\n',
            "ref.md": "?[%{{ level }} A | B]\n",
            "lessons/one.md": "At {{ level }}.\n",
        }
    )
    lane = _lane(made, "level")
    assert (lane["askedIn"], lane["boundInReferences"]) == ([], [1])
    shown = hover(made.snapshot, made.uri("lessons/one.md"), 5, EN)
    expect(hover_text(made, shown, "lessons/one.md"), "hover/bound_only_in_a_reference.md")
    assert list(disagreements(made)) == []


def test_an_ignored_reserved_binding_under_the_default_target_is_on_the_map() -> None:
    made = course({"mfcourse.toml": 'host = "ai-shifu"\n', "one.md": "?[{{ sys_custom }} A | B]\n"})
    assert _the_course(made).config.runtime_target == "markdown-flow-0.3.4"
    assert _places(made, "sys_custom") == [("one.md", (PLACE_RESERVED,))]
    assert _lane(made, "sys_custom")["problems"] == [{"code": "reserved-key-binding", "count": 1}]
    assert list(disagreements(made)) == []


def test_a_legacy_profile_binding_in_a_reference_counts_both_problems() -> None:
    made = course(
        {
            "mfcourse.toml": 'host = "ai-shifu"\nlessons = ["one.md"]\nreferences = ["ref.md"]\n',
            "ref.md": "?[%{{ sys_user_style }} A | B]\n",
            "one.md": "Hello.\n",
        }
    )
    assert _places(made, "sys_user_style") == [
        ("ref.md", (PLACE_LEGACY_PROFILE, PLACE_REFERENCE_BINDING))
    ]
    problems = _lane(made, "sys_user_style")["problems"]
    assert problems == [
        {"code": "legacy-profile-key", "count": 1},
        {"code": "binding-in-reference", "count": 1},
    ]
    # Nothing collects the answer: no variable table row, no "asked here" inlay hint.
    assert global_variable_table(course_map(_the_course(made))) == []
    assert inlay_hints(made.snapshot, made.uri("ref.md")) == []
    assert list(disagreements(made)) == []


def test_a_suppression_silences_a_problem_and_leaves_what_the_key_is() -> None:
    made = course(SILENCED_IN_A_REFERENCE)
    assert _places(made, "level") == [
        ("one.md", (PLACE_UNBOUND,)),
        ("ref.md", (PLACE_REFERENCE_BINDING,)),
    ]
    lane = _lane(made, "level")
    assert (lane["askedIn"], lane["problems"]) == ([], [{"code": "unbound-reference", "count": 1}])
    assert lane["places"][1]["silenced"] == [PLACE_REFERENCE_BINDING]
    assert global_variable_table(course_map(_the_course(made))) == []
    assert list(disagreements(made)) == []
    made = course(SILENCED_PROFILE_KEY_IN_A_REFERENCE)
    assert _places(made, "sys_user_style") == [
        ("ref.md", (PLACE_LEGACY_PROFILE, PLACE_REFERENCE_BINDING))
    ]
    problems = _lane(made, "sys_user_style")["problems"]
    assert problems == [{"code": "binding-in-reference", "count": 1}]
    assert global_variable_table(course_map(_the_course(made))) == []
    assert list(disagreements(made)) == []


def test_a_binding_the_runtime_ignores_is_not_a_read_in_the_hover() -> None:
    # Under the default target of ai-shifu, `?[{{ x }} ...]` saves nothing and reads
    # nothing: the one read is `{{ x }}`, as the map and the diagnostics say.
    made = course({"mfcourse.toml": 'host = "ai-shifu"\n', "one.md": ONE_IGNORED_THEN_READ})
    assert _lane(made, "x")["reads"] == 1
    shown = hover(made.snapshot, made.uri("one.md"), 3, EN)
    expect(hover_text(made, shown, "one.md"), "hover/ignored_binding_then_read.md")
    assert list(disagreements(made)) == []


def test_a_read_after_a_reserved_binding_is_read_and_the_binding_asks_nothing() -> None:
    # The host rejects the binding (saves nothing: not in askedIn); its reads are read
    # after it, as the diagnostics say: the one problem is the binding's error.
    made = course(
        {
            "mfcourse.toml": 'host = "ai-shifu"\ntarget = "current"\n',
            "a.md": "?[%{{ sys_colour }} Red]\n\nUse {{ sys_colour }}.\n",
        }
    )
    assert _places(made, "sys_colour") == [("a.md", (PLACE_RESERVED,)), ("a.md", (PLACE_READ,))]
    lane = _lane(made, "sys_colour")
    assert (lane["askedIn"], lane["problems"]) == (
        [],
        [{"code": "reserved-key-binding", "count": 1}],
    )
    assert list(disagreements(made)) == []
