"""One registry per diagnostic code: the docs' tables say what it says, every message is in
both languages, and the quick fixes offered for a code are the ones it lists; a literal
reference gets the fixes the docs promise; a legacy learner-profile binding is one
verdict in every view."""

from __future__ import annotations

import pytest
from course_kit import course as make_course

from mfls.features.code_actions import code_actions
from mfls.features.course_map import course_map, key_table, key_table_markdown
from mfls.features.course_map_svg import shape
from mfls.features.diagnostics import document_diagnostics
from mfls.features.facts import KINDS, LEGEND, PLACE_LEGACY_PROFILE, PROBLEM_CODES, facts_of
from mfls.features.hover import hover
from mfls.features.messages import EN, MESSAGES, ZH
from mfls.workspace.diagnostic_registry import BY_CODE, COURSE_FILE_INVALID, REGISTRY


def test_every_code_has_its_messages_in_both_languages_and_a_short_summary() -> None:
    for info in REGISTRY:
        assert 0 < len(info.summary) <= 80, info.code
        if info.code == COURSE_FILE_INVALID:  # its messages are the course file's problems
            continue
        assert info.message_ids, info.code
        for message_id in info.message_ids:
            assert message_id.split(".")[0] == info.code
            assert MESSAGES[message_id][EN] and MESSAGES[message_id][ZH], message_id
    # Every message of a code is one the registry lists for it.
    listed = {m for info in REGISTRY for m in info.message_ids}
    assert {m for m in MESSAGES if m.split(".")[0] in BY_CODE} == listed


def test_every_fix_of_the_registry_is_an_action_title() -> None:
    fixes = {fix for info in REGISTRY for fix in info.fixes}
    assert fixes == {
        "action.convert-legacy",
        "action.bind-with",
        "action.replace-with",
        "action.ask-for",
        "action.page-rename",
        "action.page-form",
        "action.remove-suppression",
    }
    assert all(fix in MESSAGES for fix in fixes)


def _title_id(title: str, candidates: tuple[str, ...]) -> str:
    """Which of the `candidates` message ids `title` (English) was rendered from."""
    for message_id in candidates:
        literal = MESSAGES[message_id][EN].split("${", 1)[0]
        if title.startswith(literal):
            return message_id
    raise AssertionError(f"{title!r} is none of {candidates}")


FIXTURES = {
    "current": (
        'lessons = ["l*.md"]\n',
        {
            "l1.md": "?[%{{ colour }} Red | Blue]\n\n{{ color }} {{ nowhere }} `{{ nowhere }}`\n",
        },
    ),
    "old target": (
        'lessons = ["l*.md"]\ntarget = "markdown-flow-0.4"\n',
        {"l1.md": "?[{{ colour }} Red | Blue]\n"},
    ),
}


@pytest.mark.parametrize("fixture", sorted(FIXTURES))
def test_the_fixes_offered_for_a_code_are_the_ones_the_registry_lists(fixture: str) -> None:
    config, files = FIXTURES[fixture]
    found = make_course({"mfcourse.toml": config, **files})
    seen: set[tuple[str, str]] = set()
    for name, text in files.items():
        uri = found.uri(name)
        diagnosed = {(d.code, d.start, d.end) for d in document_diagnostics(found.snapshot, uri)}
        for action in code_actions(found.snapshot, uri, 0, len(text)):
            if action.fixes is None:
                continue
            assert action.fixes_range is not None
            assert (action.fixes, *action.fixes_range) in diagnosed, action
            fix = _title_id(action.title, BY_CODE[action.fixes].fixes)
            seen.add((action.fixes, fix))
    expected = {
        "current": {
            ("legacy-binding", "action.convert-legacy"),
            ("near-miss", "action.replace-with"),
            ("near-miss", "action.ask-for"),
            ("unbound-reference", "action.ask-for"),
        },
        "old target": {("runtime-binding-ignored", "action.bind-with")},
    }
    assert seen == expected[fixture]


AI_SHIFU = 'host = "ai-shifu"\ntarget = "current"\n'


def test_a_literal_reference_gets_the_fixes_of_its_diagnostic_and_a_dropped_one_none() -> None:
    text = "?[%{{colour}} Red]\n\nSee `{{ colur }}`.\n\n<!-- {{ colur }} -->\n"
    found = make_course({"mfcourse.toml": AI_SHIFU + 'lessons = ["*.md"]\n', "a.md": text})
    uri = found.uri("a.md")
    literal = text.index("{{ colur }}")
    dropped = text.index("{{ colur }}", literal + 1)
    codes = {d.start: d.code for d in document_diagnostics(found.snapshot, uri)}
    assert codes == {literal: "near-miss"}
    at_literal = code_actions(found.snapshot, uri, literal, literal, course_wide=False)
    fixes = {
        (a.fixes, _title_id(a.title, BY_CODE["near-miss"].fixes)) for a in at_literal if a.fixes
    }
    assert fixes == {("near-miss", "action.replace-with"), ("near-miss", "action.ask-for")}
    assert not any(a.kind.startswith("refactor") for a in at_literal)  # no merge on a literal
    at_dropped = code_actions(found.snapshot, uri, dropped, dropped, course_wide=False)
    assert [a for a in at_dropped if a.fixes] == []


PROFILE = (
    "Hello.\n\n?[%{{sys_user_nickname}}...your name]\n\n?[{{ sys_colour }} Red]\n",
    "Hi {{ sys_user_nickname }}.\n",
)


def test_a_legacy_profile_binding_is_legacy_profile_key_in_every_view() -> None:
    found = make_course(
        {
            "mfcourse.toml": AI_SHIFU + 'lessons = ["l*.md"]\n',
            "l1.md": PROFILE[0],
            "l2.md": PROFILE[1],
        }
    )
    course = found.snapshot.courses["/course"]
    uri = found.uri("l1.md")
    at = PROFILE[0].index("%{{")
    diagnostics = {d.start: d.code for d in document_diagnostics(found.snapshot, uri)}
    assert diagnostics[at] == "legacy-profile-key"
    assert diagnostics[PROFILE[0].index("{{ sys_colour")] == "reserved-key-binding"
    assert list(diagnostics.values()).count("reserved-key-binding") == 1
    the_map = course_map(course)
    lane = next(k for k in the_map.keys if k.key == "sys_user_nickname")
    assert [p.kind for p in lane.asked] == [PLACE_LEGACY_PROFILE]
    assert [(p.code, p.count) for p in lane.problems] == [("legacy-profile-key", 1)]
    assert LEGEND[PLACE_LEGACY_PROFILE] != LEGEND["reserved"]
    assert PROBLEM_CODES[PLACE_LEGACY_PROFILE] == "legacy-profile-key"
    row = next(r for r in key_table(the_map) if r["key"] == "sys_user_nickname")
    assert row["problems"] == [{"code": "legacy-profile-key", "count": 1}]
    markdown = key_table_markdown(the_map)
    line = next(x for x in markdown.splitlines() if x.startswith("| sys\\_user\\_nickname"))
    assert "legacy-profile-key" in line and "reserved-key-binding" not in line
    shown = hover(found.snapshot, uri, at + 5)
    assert shown is not None and "legacy learner-profile" in shown.markdown.lower()
    sys_colour = next(k for k in the_map.keys if k.key == "sys_colour")
    assert [(p.code, p.count) for p in sys_colour.problems] == [("reserved-key-binding", 1)]
    assert facts_of(course) is facts_of(course)  # decided once per snapshot


def test_every_kind_of_place_has_its_own_svg_shape() -> None:
    assert len({shape(kind, 10, 10) for kind in KINDS}) == len(KINDS)
