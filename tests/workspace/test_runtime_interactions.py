"""`runtime_interactions` never raises and keeps its readings inside the text, whatever
the text (it runs on every open lesson of an escaping target)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mfls.syntax.scanner import scan
from mfls.workspace.runtime_interactions import runtime_interactions

PIECES = st.sampled_from(
    ["?[", "]", "\\", "|", "||", "/", "//", ".", "...", "{{ k }}", "%{{ q }}", "a", " ", "\n"]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
def test_any_text_reads_without_error(text: str) -> None:
    result = scan(text)
    for target in ("markdown-flow-0.3.4", "markdown-flow-0.4", "markdown-flow-0.3", "current"):
        found = runtime_interactions(text, result.interactions, result.markers, target)
        assert len(found) == len(result.interactions)
        for interaction, scanned in zip(found, result.interactions, strict=True):
            assert interaction.start == scanned.start and interaction.end >= scanned.end
            assert text[interaction.end - 1] == "]" and interaction.end <= len(text)
            for op in interaction.operators:
                assert interaction.start <= op.start < op.end <= interaction.end
            for choice in interaction.choices:
                assert interaction.start < choice.start < choice.end < interaction.end


def test_only_escaping_targets_change_a_reading() -> None:
    text = "?[%{{ q }} A\\|B]\n"
    result = scan(text)
    for target in ("markdown-flow-0.3", "current"):
        assert runtime_interactions(text, result.interactions, result.markers, target) == (
            result.interactions
        )
    [read] = runtime_interactions(text, result.interactions, result.markers, "markdown-flow-0.4")
    assert [c.label for c in read.choices] == ["A|B"]
