"""Document and workspace symbols, rendered whole: a symbol a line, nested by indentation,
with its kind, name, detail and the texts its range and selection cover."""

from mfls.features.symbols import document_symbols, workspace_symbols
from tests.kit.course import course, dedent, outline


def test_headings_nest_and_hold_interactions() -> None:
    text = (
        "# Intro\n\n?[{{ goal }} A | B]\n\n## Details\n\n?[Yes | No]\n\n"
        "# Next\n\n?[{{ level }} ...your level]\n"
    )
    made = course({"a.md": text})
    symbols = document_symbols(made.snapshot, made.uri("a.md"))
    assert outline(text, symbols) == dedent(
        """\
        heading 'Intro': 1:1 to 9:1 at 'Intro'
          interaction 'goal' (single choice: A | B): '?[{{ goal }} A | B]' at 'goal'
            binding 'goal' (binding): '{{ goal }}' at 'goal'
          heading 'Details': 5:1 to 9:1 at 'Details'
            interaction '?[Yes | No]' (single choice): '?[Yes | No]' at '?[Yes | No]'
        heading 'Next': 9:1 to 12:1 at 'Next'
          interaction 'level' (input: ...your level): '?[{{ level }} ...your level]' at 'level'
            binding 'level' (binding): '{{ level }}' at 'level'
        """
    )


def test_workspace_symbols_name_their_course() -> None:
    made = course(
        {
            "one/mfcourse.toml": 'name = "First course"\n',
            "one/a.md": "?[{{ Your goal }} A]\n\n{{ reading only }}\n",
            "two/b.md": "?[{{ your goal }} A]\n",
        },
        folders=["one", "two"],
    )
    found = workspace_symbols(made.snapshot, "goal")
    assert sorted((s.name, s.container) for s in found) == [
        ("Your goal", "First course"),
        ("your goal", "two"),
    ]
    every = workspace_symbols(made.snapshot, "")
    at = [
        (s.name, s.kind, made.name_of(s.uri), made.text(made.name_of(s.uri))[s.start : s.end])
        for s in every
    ]
    assert sorted(at) == [
        ("Your goal", "binding", "one/a.md", "Your goal"),
        ("reading only", "reference", "one/a.md", "reading only"),
        ("your goal", "binding", "two/b.md", "your goal"),
    ]
    assert workspace_symbols(made.snapshot, "zzz") == []
    assert len(workspace_symbols(made.snapshot, "", limit=1)) == 1


def test_symbols_of_a_closed_document() -> None:
    made = course("a.md", "# One\n\n?[{{ k }} A]\n")
    symbols = document_symbols(made.snapshot, made.uri("a.md"))
    assert outline(made.text("a.md"), symbols) == dedent(
        """\
        heading 'One': 1:1 to 4:1 at 'One'
          interaction 'k' (single choice: A): '?[{{ k }} A]' at 'k'
            binding 'k' (binding): '{{ k }}' at 'k'
        """
    )
