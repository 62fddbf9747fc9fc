"""The course tool's `global_variable_table` of a course, computed from its map.

The AI-Shifu course tool (the `ai-shifu-course-creator` skill of ai-shifu/skills) defines
it in `skills/ai-shifu-course-creator/references/data-contracts.md`, section "Variable
Table", read at commit 00fa8e150426b80e3b3f4773c39395c230407d18: an array of

    {"name": ..., "collected_in": ..., "used_in": [...], "effect_scope": ...}

- `name`: the variable, as `{{var}}` / `?[%{{var}} ...]` name it;
- `collected_in`: the `lesson_id` where it is first collected;
- `used_in`: every lesson that references it through `{{var}}`, plus `course_prompt`
  when the course prompt references it; the collecting lesson only if it references the
  variable after collecting it;
- `effect_scope`: `local` or `cross_lesson` (`cross_lesson` whenever the course prompt
  references it).

Only variables some lesson collects are rows ("Only named variables belong"; an
interaction without a variable makes none): a key the map shows asked (an interaction
saves the answer: kinds `asked` and `legacy-profile`), never one only read (unbound, a
near miss, a value the host provides) or asked where no answer is saved (a reference
document, even for a legacy profile key; a reserved key). Uses are the map's reads of
the key. A lesson is named by `CourseMap.lesson_ids` (`course_map.lesson_id`). Rows in
the map's key order; `used_in` in course order. `effect_scope` is `cross_lesson` when a
document other than the collecting lesson uses the variable, else `local` (the contract
says when, not how, a variable is cross-lesson; this is its definition here).
"""

from __future__ import annotations

from typing import Any, Final

from mfls.features.course_map import COURSE_PROMPT_ID, CourseMap, KeyLane
from mfls.features.facts import ASKING, PLACE_REFERENCE_BINDING, SAVES_ANSWER

SPEC: Final = (
    "ai-shifu/skills skills/ai-shifu-course-creator/references/data-contracts.md "
    "at 00fa8e150426b80e3b3f4773c39395c230407d18"
)
LOCAL: Final = "local"
CROSS_LESSON: Final = "cross_lesson"


def global_variable_table(found: CourseMap) -> list[dict[str, Any]]:
    """The rows of the course's `global_variable_table`, as the spec's JSON items."""
    ids = found.lesson_ids or tuple(lesson.title for lesson in found.lessons)
    rows: list[dict[str, Any]] = []
    for lane in found.keys:
        row = _row(lane, ids)
        if row is not None:
            rows.append(row)
    return rows


def _row(lane: KeyLane, ids: tuple[str, ...]) -> dict[str, Any] | None:
    collecting = [
        p for p in lane.places if p.kind in SAVES_ANSWER and PLACE_REFERENCE_BINDING not in p.also
    ]
    if not collecting:
        return None
    first = collecting[0]
    used: set[int] = set()
    for place in lane.places:
        if place.kind in ASKING:
            continue
        if place.lesson == first.lesson and place.start < first.start:
            continue  # read in the collecting lesson before it collects
        used.add(place.lesson)
    collected_in = ids[first.lesson]
    used_in = list(dict.fromkeys(ids[lesson] for lesson in sorted(used)))
    cross = any(name != collected_in for name in used_in)
    return {
        "name": lane.key,
        "collected_in": collected_in,
        "used_in": used_in,
        "effect_scope": CROSS_LESSON if cross or COURSE_PROMPT_ID in used_in else LOCAL,
    }
