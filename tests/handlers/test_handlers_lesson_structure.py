"""AI-Shifu lesson structure, in process: document symbols list the prompt blocks,
folding ranges cover them, semantic tokens mark fixed output. Moved from
tests/e2e/test_e2e_lesson_structure.py."""

from __future__ import annotations

from tests.kit.memory_client import CourseClient, decode_tokens

SHIFU = """
    //- mfcourse.toml
    host = "ai-shifu"
    //- 01.md
    # Welcome

    ?[{{ goal }} Learn | Teach]
    ---
    !===
    Hello {{ goal }}!
    !===
    ---
    ## Prompt

    Talk about {{ goal }}.
    """
MODULE = 2


def test_symbols_folding_and_tokens_show_the_blocks() -> None:
    course = CourseClient(SHIFU)
    assert course.initialized["capabilities"]["foldingRangeProvider"]
    document = {"textDocument": {"uri": course.uri("01.md")}}

    blocks = course.call("textDocument/documentSymbol", document)
    assert [s["name"] for s in blocks] == ["Block 1", "Block 2 (fixed output)", "Block 3"]
    assert {s["kind"] for s in blocks} == {MODULE}
    assert [c["name"] for c in blocks[0].get("children", [])] == ["Welcome"]
    fixed = blocks[1]["range"]
    assert (fixed["start"]["line"], fixed["end"]["line"]) == (4, 6)

    folds = course.call("textDocument/foldingRange", document)
    assert {(f["startLine"], f["endLine"]) for f in folds} >= {(0, 2), (4, 6), (8, 10)}

    legend = course.initialized["capabilities"]["semanticTokensProvider"]["legend"]
    data = course.call("textDocument/semanticTokens/full", document)["data"]
    decoded = decode_tokens(data, legend)
    assert (4, 0, 4, "string", []) in decoded  # the opening !===
    assert (5, 0, 6, "string", []) in decoded  # "Hello "
    (marker,) = [d for d in decoded if d[:2] == (5, 6)]
    assert marker[3] == "variable" and "fixed" in marker[4]
    assert not any("fixed" in d[4] for d in decoded if d[0] in (2, 10))
