"""Properties of `scan` over hostile text: never raises, every result is well formed,
and the result depends only on the text's structure, not on how it is spelled.

Complements tests/syntax (examples and conformance) with invariants checked on every
generated input: see tests/fuzz/scan_invariants.py for the list.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from mdflow_strategies import any_text, contained_text, hostile_text, mdflow_text

from mfls.syntax.blocks import iter_units
from mfls.syntax.model import ScanResult
from mfls.syntax.scanner import scan, scan_unit
from tests.fuzz.scan_invariants import check_result

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

HAND_PICKED = [
    "",
    "\x00",
    "{{\x00}}",
    "{{a\x00b}}",
    "\ud800{{ \udfff }}",
    "{{ \ud800 }}",
    "?[{{ \udbff }} A|B]",
    "> {{ a\r> b }}",
    "{{\r\n key \r\n}}",
    "- {{ a\n\n  b }}",
    "```\n{{ a }}\n",
    "\r\r\n\n{{ k }}\r",
    "<pre>\n{{ a }}\n\n{{ b }}",
    "{{a}}b}}",
    "?[%{{ q }} A//a || B//b ... hint]",
    "\\{{ x }} \\\\{{ y }}",
    "`{{a}}` ``{{b}}`` $${{c}}$$ $x{{d}}$",
    "[t]({{u}} '{{v}}') <{{w}}> <http://{{x}}>",
    "\u2028{{ a }}\u2029{{\u2028b}}",
    "\x85{{\x85}}",
    "\ufeff{{\ufeff}}",
]


def _scan_checked(text: str) -> ScanResult:
    result = scan(text)
    check_result(text, result)
    return result


@SETTINGS
@given(any_text)
def test_arbitrary_text_scans_to_a_well_formed_result(text: str) -> None:
    _scan_checked(text)


@SETTINGS
@given(mdflow_text)
def test_markdownflow_shaped_text_scans_to_a_well_formed_result(text: str) -> None:
    _scan_checked(text)


@SETTINGS
@given(contained_text())
def test_text_in_quotes_and_lists_scans_to_a_well_formed_result(text: str) -> None:
    _scan_checked(text)


def test_hand_picked_hostile_inputs_scan_to_well_formed_results() -> None:
    for text in HAND_PICKED:
        _scan_checked(text)


@SETTINGS
@given(hostile_text)
def test_scanning_is_deterministic(text: str) -> None:
    copy = "".join(list(text))  # an equal string, usually not the same object
    assert scan(text) == scan(copy) == scan(text)


@SETTINGS
@given(hostile_text)
def test_the_scan_contract_is_always_json(text: str) -> None:
    payload = scan(text).to_json()
    decoded = json.loads(json.dumps(payload))
    assert decoded == payload


@SETTINGS
@given(hostile_text)
def test_units_partition_the_text_and_scan_alone_to_the_same_result(text: str) -> None:
    units = list(iter_units(text))
    whole = scan(text)
    position = 0
    markers, invalid, interactions = [], [], []
    for unit in units:
        assert unit.start == position, f"gap or overlap before unit at {unit.start}"
        assert unit.end >= unit.start
        position = unit.end
        part = scan_unit(text, unit)
        markers.extend(part.markers)
        invalid.extend(part.invalid)
        interactions.extend(part.interactions)
    assert position == len(text)
    assert tuple(markers) == whole.markers
    assert tuple(invalid) == whole.invalid
    assert tuple(interactions) == whole.interactions


@SETTINGS
@given(hostile_text, st.sampled_from(["\r\n", "\r"]))
@example("{{\n key \n}}\n?[{{ q }} A |\n B]\n", "\r\n")
@example("> {{ a }}\n>\n> {{ b\n> c }}", "\r")
def test_line_ending_style_does_not_change_what_is_read(text: str, ending: str) -> None:
    """LF, CRLF and CR are the same line break (docs/syntax.md rule 1)."""
    if "\r" in text:
        text = text.replace("\r", "")
    respelled = text.replace("\n", ending)
    before, after = scan(text), scan(respelled)

    def shape(result: ScanResult) -> tuple[object, ...]:
        return (
            [(m.key, m.role, m.legacy, m.literal) for m in result.markers],
            [(i.reason, i.legacy) for i in result.invalid],
            [(x.binding, x.multiple, len(x.choices), x.input is None) for x in result.interactions],
            [(b.kind, b.level, b.setext) for b in result.blocks],
        )

    assert shape(before) == shape(after)


@SETTINGS
@given(hostile_text, hostile_text)
def test_text_after_a_blank_line_and_paragraph_break_does_not_change_what_precedes(
    head: str, tail: str
) -> None:
    """A thematic break between two blank lines closes every block before it.

    Only when the head ends outside any raw HTML block or fence, which could run on; so
    the head is wrapped to close both: a blank line ends HTML blocks of types 6-7, and
    the head is kept free of openers that a blank line does not close.
    """
    if any(s in head for s in ("```", "~~~", "<", "    ", "\t")) or any(s in tail for s in ("[",)):
        return
    separator = "\n\n***\n\n"
    alone = scan(head)
    joined = scan(head + separator + tail)
    cut = len(head)
    assert [m for m in joined.markers if m.end <= cut] == list(alone.markers)
    assert [i for i in joined.invalid if i.end <= cut] == list(alone.invalid)
    assert [x for x in joined.interactions if x.end <= cut] == list(alone.interactions)
