"""mfls.features.code_actions: quick fixes, merges and source actions over real courses."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from rename_support import applied, indexed, uri

from mfls.features import code_actions as ca
from mfls.features.code_actions import CodeAction

L1 = """# Lesson one

?[%{{goal}} Job | Fun]

?[{{What would you like to learn?}} Python | Go]

> A quote that reads {{ pace }} late:
> ?[%{{ level }} Easy | Hard]
"""

L2 = """Intro line.

Use {{ What would you like to lern? }} and {{goal}}.

- Item one
- Item with {{ pace }} inside
"""


@pytest.fixture
def course(make_course: Callable[..., Path]) -> Path:
    return make_course({"l1.md": L1, "l2.md": L2})


def _actions(root: Path, name: str, text: str, needle: str, **kwargs: object) -> list[CodeAction]:
    snapshot = indexed(root).snapshot
    at = text.index(needle) + 3
    return ca.code_actions(snapshot, uri(root / name), at, at, **kwargs)  # type: ignore[arg-type]


def _titled(actions: list[CodeAction], start: str) -> CodeAction:
    found = [a for a in actions if a.title.startswith(start)]
    assert len(found) == 1, [a.title for a in actions]
    return found[0]


def test_legacy_binding_quick_fix(course: Path) -> None:
    action = _titled(_actions(course, "l1.md", L1, "%{{goal}}"), "Convert legacy binding")
    assert action.kind == ca.QUICKFIX
    assert action.fixes == "legacy-binding"
    assert action.preferred
    assert applied(action.change) == {uri(course / "l1.md"): L1.replace("%{{goal}}", "{{ goal }}")}


def test_pad_quick_fix(course: Path) -> None:
    actions = _actions(course, "l2.md", L2, "{{goal}}")
    action = _titled(actions, "Pad marker to {{ goal }}")
    assert applied(action.change) == {uri(course / "l2.md"): L2.replace("{{goal}}", "{{ goal }}")}
    padded = _actions(course, "l1.md", L1, "{{ pace }}")
    assert not [a for a in padded if a.title.startswith("Pad marker")]


def test_near_miss_quick_fix_replaces_the_key(course: Path) -> None:
    actions = _actions(course, "l2.md", L2, "{{ What would you like to lern? }}")
    action = _titled(actions, "Replace with {{ What would you like to learn? }}")
    assert action.fixes == "near-miss"
    assert applied(action.change) == {uri(course / "l2.md"): L2.replace("lern? }}", "learn? }}")}


def test_unbound_reference_inserts_a_binding_snippet_before_the_first_use(course: Path) -> None:
    actions = _actions(course, "l2.md", L2, "{{ pace }}")
    action = _titled(actions, "Ask for “pace”")
    assert action.fixes == "unbound-reference"
    # The first use in course order is in the block quote of l1.md: inserted inside it.
    expected = L1.replace(
        "> A quote that reads",
        "> ?[{{ pace }} Option A | Option B | ...Other]\n>\n> A quote that reads",
    )
    assert applied(action.change) == {uri(course / "l1.md"): expected}
    assert action.snippet_change is not None
    snippet = action.snippet_change.documents[0].changes[0].new_text
    assert snippet == "?[{{ pace \\}\\} ${1:Option A} | ${2:Option B} | ...${3:Other}]\n>\n> "


def test_unbound_reference_in_a_list_item_and_at_a_heading(
    make_course: Callable[..., Path],
) -> None:
    text = "# Use {{ x }} here\n\n- Item with {{ y }}\n"
    root = make_course({"l.md": text})
    x = _titled(_actions(root, "l.md", text, "{{ x }}"), "Ask for “x”")
    assert applied(x.change)[uri(root / "l.md")].startswith(
        "?[{{ x }} Option A | Option B | ...Other]\n\n# Use {{ x }}"
    )
    y = _titled(_actions(root, "l.md", text, "{{ y }}"), "Ask for “y”")
    assert applied(y.change)[uri(root / "l.md")] == (
        "# Use {{ x }} here\n\n- ?[{{ y }} Option A | Option B | ...Other]\n\n  Item with {{ y }}\n"
    )


def test_merge_is_offered_for_near_misses_and_requested_keys(course: Path) -> None:
    actions = _actions(course, "l2.md", L2, "{{ What would you like to lern? }}")
    merge = _titled(actions, "Merge key “What would you like to lern?” into")
    assert merge.kind == ca.MERGE
    assert merge.change.annotation is not None
    assert "will not follow" in merge.change.annotation.description
    assert applied(merge.change) == {uri(course / "l2.md"): L2.replace("lern? }}", "learn? }}")}
    requested = _actions(course, "l2.md", L2, "{{goal}}", merge_targets={"goal": ["pace"]})
    into_pace = _titled(requested, "Merge key “goal” into “pace”")
    texts = applied(into_pace.change)
    assert "?[%{{ pace }} Job | Fun]" in texts[uri(course / "l1.md")]
    assert "and {{ pace }}." in texts[uri(course / "l2.md")]


def test_document_source_actions_change_only_markers(course: Path) -> None:
    actions = _actions(course, "l1.md", L1, "# Lesson", course_wide=False)
    convert = _titled(actions, "Convert every legacy binding in this document")
    assert convert.kind == ca.CONVERT_LEGACY
    assert applied(convert.change) == {
        uri(course / "l1.md"): L1.replace("%{{goal}}", "{{ goal }}").replace(
            "%{{ level }}", "{{ level }}"
        )
    }
    pad = _titled(actions, "Pad every marker in this document")
    assert pad.kind == ca.PAD_MARKERS
    assert applied(pad.change) == {
        uri(course / "l1.md"): L1.replace("%{{goal}}", "%{{ goal }}").replace(
            "{{What would you like to learn?}}", "{{ What would you like to learn? }}"
        )
    }
    assert not [a for a in actions if a.kind.endswith(".course")]


def test_course_source_actions_cover_every_document(course: Path) -> None:
    actions = _actions(course, "l1.md", L1, "# Lesson")
    pad = _titled(actions, "Pad every marker in this course")
    assert pad.kind == ca.PAD_MARKERS_COURSE
    texts = applied(pad.change)
    assert texts[uri(course / "l2.md")] == L2.replace("{{goal}}", "{{ goal }}")
    convert = _titled(actions, "Convert every legacy binding in this course")
    assert set(applied(convert.change)) == {uri(course / "l1.md")}


def test_no_actions_outside_markers_but_source_ones(course: Path) -> None:
    actions = _actions(course, "l2.md", L2, "Intro line", course_wide=False)
    assert [a.kind for a in actions] == [ca.PAD_MARKERS]
