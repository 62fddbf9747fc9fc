"""AI-Shifu's button values that gate a lesson: `_sys_pay` and `_sys_login`.

An option's value is what follows its first `//` (`?[Pay now//_sys_pay]`; an option
without `//` is its own value). When a button of the interaction a learner reaches has
the value `_sys_pay` or `_sys_login`, exactly as written, AI-Shifu stops the lesson
there until the learner has paid or logged in, and goes on by itself once they have
(ai-shifu/ai-shifu `src/api/flaskr/service/learn/learn_funcs.py`
`_is_access_gate_interaction` and `context_v2.py`, at commit
b3d3e4c89688539ac2c9f1ee8ba1a9aa968c2171; the values as markdown-flow 0.4.2's
`InteractionParser` reads them: tests/hosts/test_ai_shifu_constructs_sdk.py). Any other
value starting with `_sys_` is no gate: the button is an ordinary answer, which is
reported (`unknown-gate-value`).

Here: where each option's value lies, the completion of the gate values after `//`,
their hover (an option written without `//` is its own value: `?[_sys_pay]` is a gate
too), and the diagnostic. Only under `host = "ai-shifu"`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, NamedTuple

from mfls.features.messages import EN, say
from mfls.syntax.model import Choice, Interaction
from mfls.workspace.index import CourseSnapshot, DocEntry

AI_SHIFU: Final = "ai-shifu"
PREFIX: Final = "_sys_"
GATES: Final = {"_sys_pay": "gate.pay", "_sys_login": "gate.login"}
"""Each gate value and the message id of what it does."""


class Value(NamedTuple):
    """An option's value: its span (from right after `//` to the option's end, or the
    whole option without `//`) and the value as the runtime reads it."""

    start: int
    end: int
    value: str
    choice: Choice
    after_slashes: bool


def gated(course: CourseSnapshot) -> bool:
    return course.host.name == AI_SHIFU


def values(interaction: Interaction) -> Iterator[Value]:
    """The values of `interaction`'s options, in text order."""
    slashes = [op for op in interaction.operators if op.kind == "//"]
    for choice in interaction.choices:
        op = next((o for o in slashes if choice.start <= o.start < choice.end), None)
        if op is None:
            yield Value(choice.start, choice.end, choice.value, choice, False)
        else:
            yield Value(op.end, choice.end, choice.value, choice, True)


def unknown(value: str) -> bool:
    """A value meant as a gate (it starts with `_sys_`, spaces aside) that no gate is."""
    return value.strip().startswith(PREFIX) and value not in GATES


def value_at(interactions: Sequence[Interaction], offset: int) -> Value | None:
    """The option value that holds `offset` (its end included)."""
    for interaction in interactions:
        if interaction.start <= offset < interaction.end:
            for found in values(interaction):
                if found.start <= offset <= found.end:
                    return found
    return None


def describe(value: str, language: str = EN) -> str | None:
    """The hover of a gate value, or of a `_sys_` value that is none; None otherwise."""
    if value in GATES:
        return say(language, "hover.gate", value=value, does=say(language, GATES[value]))
    if unknown(value):
        return say(language, "hover.gate.unknown", value=value)  # as written: spaces make it none
    return None


def completion_span(entry: DocEntry, offset: int) -> tuple[int, int] | None:
    """Where a gate value is completed: the value after `//` that `offset` lies in,
    when what is typed of it before `offset` could still become one."""
    found = value_at(entry.interactions, offset)
    if found is None or not found.after_slashes:
        return None
    typed = entry.text[found.start : offset]
    if typed and not any(gate.startswith(typed) for gate in GATES):
        return None
    return found.start, found.end


def gate_problems(course: CourseSnapshot, entry: DocEntry) -> Iterator[Value]:
    """The option values that start with `_sys_` but are no gate."""
    if not gated(course):
        return
    for interaction in entry.interactions:
        for found in values(interaction):
            if unknown(found.value):
                yield found
