"""How one marker is rewritten: padded whole, or only its key when padding is unsafe."""

from __future__ import annotations

from mfls.features.rename import can_pad, is_padded, marker_changes, padded
from mfls.syntax.model import Marker, Role
from mfls.text.edits import apply_changes


def _marker(text: str, key: str, *, legacy: bool = False, literal: bool = False) -> Marker:
    start = text.index("%{{" if legacy else "{{")
    end = text.index("}}", start) + 2
    key_start = text.index(key, start)
    role = Role.BINDING if legacy else Role.REFERENCE
    return Marker(start, end, key, key_start, key_start + len(key), role, legacy, literal)


def _rewrite(text: str, marker: Marker, new_key: str, *, legacy: bool) -> str:
    return apply_changes(text, marker_changes(text, marker, new_key, legacy=legacy))


def test_surrounding_marker_is_written_padded() -> None:
    text = "Use {{q}} now"
    assert _rewrite(text, _marker(text, "q"), "new key", legacy=False) == "Use {{ new key }} now"


def test_legacy_percent_is_kept_or_dropped_on_request() -> None:
    text = "?[%{{goal}} A | B]"
    marker = _marker(text, "goal", legacy=True)
    assert _rewrite(text, marker, "aim", legacy=True) == "?[%{{ aim }} A | B]"
    assert _rewrite(text, marker, "goal", legacy=False) == "?[{{ goal }} A | B]"


def test_padding_across_lines_is_joined_in_plain_paragraphs() -> None:
    text = "?[{{\n  Which path?\n}} A | B]"
    marker = _marker(text, "Which path?")
    assert can_pad(text, marker)
    assert _rewrite(text, marker, "Which path?", legacy=False) == "?[{{ Which path? }} A | B]"


def test_block_quote_markers_between_lines_are_kept() -> None:
    text = "> ?[{{\n> Which path?\n> }} A | B]"
    marker = _marker(text, "Which path?")
    assert not can_pad(text, marker)
    assert _rewrite(text, marker, "Route", legacy=False) == "> ?[{{\n> Route\n> }} A | B]"


def test_key_only_rewrite_keeps_a_closing_brace_key_closed() -> None:
    text = "> {{\n> key}}"
    marker = _marker(text, "key")
    assert _rewrite(text, marker, "a}", legacy=False) == "> {{\n> a} }}"


def test_literal_markers_keep_their_own_padding() -> None:
    text = "[x]({{q}})"
    marker = _marker(text, "q", literal=True)
    assert not can_pad(text, marker)
    assert _rewrite(text, marker, "r", legacy=False) == "[x]({{r}})"


def test_padded_form_and_its_detection() -> None:
    assert padded("a}", False) == "{{ a} }}"
    assert padded("k", True) == "%{{ k }}"
    text = "x {{ k }} y {{k }}"
    assert is_padded(text, _marker(text, "k"))
    second = text.rindex("{{")
    other = Marker(second, second + 6, "k", second + 2, second + 3)
    assert not is_padded(text, other)
    assert marker_changes(text, _marker(text, "k"), "k", legacy=False) == []


def test_legacy_marker_across_quote_lines_drops_only_the_percent() -> None:
    text = "> ?[%{{\n> goal\n> }} A | B]"
    marker = _marker(text, "goal", legacy=True)
    assert not can_pad(text, marker)
    assert _rewrite(text, marker, "goal", legacy=False) == "> ?[{{\n> goal\n> }} A | B]"
    assert _rewrite(text, marker, "aim", legacy=True) == "> ?[%{{\n> aim\n> }} A | B]"
