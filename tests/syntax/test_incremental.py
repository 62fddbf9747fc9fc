"""Random edit sequences: the incremental document always equals a fresh scan."""

from __future__ import annotations

from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mfls.syntax import document
from mfls.syntax.blocks import iter_units
from mfls.syntax.document import Document
from mfls.syntax.scanner import scan

_LINES = [
    "Hello {{ name }}, welcome.",
    "?[{{ level }} Beginner | Expert//pro | ...Other]",
    "?[A||B||C]",
    "Use {{ level }} to pick `{{ code }}` examples.",
    "# Lesson {{ title }}",
    "Title",
    "===",
    "---",
    "- item {{ a }}",
    "  continued ?[x|y]",
    "1. first",
    "> quoted {{ q }}",
    "> ?[{{ b }} yes|no]",
    "```",
    "```py {{ info }}",
    "    indented {{ not }}",
    "<div>",
    "<div title='{{ t }}'>{{ inner }}</div>",
    "<!-- {{ hidden }}",
    "-->",
    "<script>",
    "</script>",
    "[ref]: /url '{{ r }}'",
    "{{ unclosed",
    "text }} after",
    "%{{ legacy }} ?[%{{ legacy }} a|b]",
    "$x = {{ m }}$",
    "",
    "",
]
_PIECES = [
    "\n", "\r\n", "\r", "{{", "}}", "?[", "]", "|", "```", "~~~", "> ", "- ", "1. ", "\n\n",
    "<div>", "</div>", "<!--", "-->", "<pre>", "`", "``", "\\", "    ", "\t", "#", "===",
    "{{ k }}", "x", " ", "[a]: /u", "%{{ b }}", "...", "//",
]  # fmt: skip

_documents = st.lists(
    st.tuples(st.sampled_from(_LINES), st.sampled_from(["\n", "\n", "\r\n", "\r"])),
    max_size=25,
).map(lambda lines: "".join(line + eol for line, eol in lines))

_insert = st.one_of(
    st.sampled_from(_PIECES),
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=4).map("".join),
    st.sampled_from(_LINES).map(lambda line: line + "\n"),
    st.text(max_size=3),
)
_edit = st.tuples(st.floats(0, 1), st.integers(0, 12), _insert, st.booleans())


def _apply(doc: Document, text: str, edit: tuple[float, int, str, bool]) -> tuple[Document, str]:
    where, length, insert, replace = edit
    start = int(where * len(text))
    end = min(start + length, len(text)) if replace or not insert else start
    new_doc = doc.edited(start, end, insert)
    return new_doc, text[:start] + insert + text[end:]


@settings(
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    _documents,
    st.lists(_edit, min_size=1, max_size=12),
    st.tuples(
        st.sampled_from([2, 3, 64]), st.sampled_from([0, 1, 7, 4096]), st.sampled_from([2, 5, 16])
    ),
)
def test_random_edits_match_a_fresh_scan(text: str, edits: list, sizes: tuple) -> None:
    # Small chunks, windows and piece limits, so that these short documents cross chunk
    # boundaries, reparse through growing windows and keep their texts as pieces.
    chunk, window, pieces = sizes
    with (
        patch.object(document, "_CHUNK", chunk),
        patch.object(document, "_WINDOW", window),
        patch.object(document, "_MAX_PIECES", pieces),
    ):
        doc = Document(text)
        assert doc.result() == scan(text)
        for k, edit in enumerate(edits):
            doc, text = _apply(doc, text, edit)
            assert doc.length == len(text)
            if k % 3 == 2:
                assert doc.text == text
            assert doc.result() == scan(text)
            spans = [(view.start, view.end) for view in doc.units()]
            assert spans == [(unit.start, unit.end) for unit in iter_units(text)]
        assert doc.text == text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents, st.lists(_edit, min_size=1, max_size=6))
def test_old_documents_are_unchanged_by_edits(text: str, edits: list) -> None:
    docs = [Document(text)]
    texts = [text]
    for edit in edits:
        doc, text = _apply(docs[-1], texts[-1], edit)
        docs.append(doc)
        texts.append(text)
    for doc, expected in zip(docs, texts, strict=True):
        assert doc.text == expected
        assert doc.result() == scan(expected)


@settings(max_examples=200, deadline=None)
@given(_documents, st.integers(-5, 2000), st.integers(-5, 2000), _insert)
def test_out_of_range_edits_are_clamped(text: str, start: int, end: int, insert: str) -> None:
    doc = Document(text).edited(start, end, insert)
    a = min(max(start, 0), len(text))
    b = min(max(end, a), len(text))
    assert doc.text == text[:a] + insert + text[b:]
    assert doc.result() == scan(doc.text)


_any_char = st.one_of(
    st.characters(codec=None),
    st.sampled_from(["\ud800", "\0", "\t", " ", "\r", "\n", "\r\n", "{{", "}}", "?[", "]"]),
    st.sampled_from(list("#`~*+_=<>-0123456789[]:()\"'\\!?/|%.")),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(_any_char, max_size=60).map("".join),
    st.lists(
        st.tuples(
            st.floats(0, 1),
            st.integers(0, 6),
            st.lists(_any_char, max_size=4).map("".join),
            st.booleans(),
        ),
        min_size=1,
        max_size=8,
    ),
)
def test_edits_of_arbitrary_text(text: str, edits: list) -> None:
    with patch.object(document, "_WINDOW", 1), patch.object(document, "_CHUNK", 2):
        doc = Document(text)
        for edit in edits:
            doc, text = _apply(doc, text, edit)
            assert doc.result() == scan(text)
        assert doc.text == text
