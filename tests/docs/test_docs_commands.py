"""The commands the documents show are mfls's own: each `mfls ...` of a shell block in
README.md and docs/ parses with the CLI's parser (`mfls.cli.build_parser`, every
subcommand configured), each code span naming a subcommand uses only options it has, and
the README opens with the two set-up commands, the second being the one CI runs. Table
cells of the README and docs/ stay short enough to read in a table, and each row has
as many cells as its header."""

from __future__ import annotations

import re

from tests.docs.markdown_docs import (
    ROOT,
    command_problems,
    documents,
    fenced_commands,
    flag_problems,
    long_cells,
    ragged_rows,
    user_guide,
)

GUIDE_PAGES = (
    "command-line",
    "editors",
    "courses-and-hosts",
    "ai-shifu",
    "diagnostics",
    "course-map",
    "limits-and-safety",
    "performance",
)


def test_the_user_guide_has_a_page_per_task() -> None:
    guide = user_guide()
    assert {f"docs/guide/{page}.md" for page in GUIDE_PAGES} <= set(guide)
    assert len(guide["README.md"].splitlines()) <= 250


def test_every_fenced_mfls_command_parses() -> None:
    docs = documents()
    shown = [c for path, text in docs.items() for c in fenced_commands(text)]
    assert any(c.startswith("mfls check") for c in shown)
    assert command_problems(docs) == []


def test_every_option_of_a_code_span_exists() -> None:
    assert flag_problems(documents()) == []


def test_a_wrong_command_or_option_is_found() -> None:
    planted = {
        "docs/guide/x.md": (
            "```sh\n"
            "mfls check examples/course && mfls check --no-such-flag examples/course\n"
            "mfls nosuch examples/course   # a comment\n"
            "LANG=C mfls map c --format pdf\n"
            "python3 -m mfls rename --course c --resume --undo\n"
            "mfls serve --ws 127.0.0.1:0 --root c \\\n  --max-connections 2\n"
            "```\n\n"
            "```toml\nmfls = 'not a command'\n```\n\n"
            "Prose: `mfls check --jobs N PATH`, `mfls unpack E D [--force]`, `mfls map C --fmt x`,"
            " `mfls server`.\n"
        )
    }
    commands = fenced_commands(planted["docs/guide/x.md"])
    assert commands == [
        "mfls check examples/course",
        "mfls check --no-such-flag examples/course",
        "mfls nosuch examples/course",
        "mfls map c --format pdf",
        "mfls rename --course c --resume --undo",
        "mfls serve --ws 127.0.0.1:0 --root c --max-connections 2",
    ]
    found = command_problems(planted)
    assert [re.sub(r"`: .*", "`", line) for line in found] == [
        "docs/guide/x.md: `mfls check --no-such-flag examples/course`",
        "docs/guide/x.md: `mfls nosuch examples/course`",
        "docs/guide/x.md: `mfls map c --format pdf`",
        "docs/guide/x.md: `mfls rename --course c --resume --undo`",
    ]
    assert "unrecognized arguments: --no-such-flag" in found[0]
    assert "invalid choice: 'pdf'" in found[2]
    assert flag_problems(planted) == [
        "docs/guide/x.md: `mfls map C --fmt x`: map has no option --fmt",
        "docs/guide/x.md: `mfls server`: no command 'server'",
    ]


def test_the_readme_opens_with_the_two_set_up_commands_and_ci_runs_the_second() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    opening = re.match(r"# [^\n]+\n\n```sh\n([^\n]+)\n([^\n]+)\n```\n", readme)
    assert opening is not None, readme[:300]
    main_job, tests = opening.groups()
    assert main_job == "pip install -e . && mfls check examples/course"
    ci = [
        line
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith(("#", "set ", "cd "))
    ]
    assert ci == [tests]
    for script in re.findall(r"bash (\S+)", tests):
        assert (ROOT / script).is_file(), script


def test_table_cells_of_the_readme_and_docs_are_short() -> None:
    # docs/architecture.md is its owners' to keep (it passes today).
    docs = {p: t for p, t in documents().items() if p.startswith(("README", "docs/"))}
    del docs["docs/architecture.md"]
    assert len(docs) > len(user_guide())
    assert long_cells(docs, most=30) == []
    planted = {"README.md": "| a | b |\n|---|---|\n| short | " + "word " * 31 + "|\n"}
    assert long_cells(planted, most=30) == ["README.md: 31 words: " + ("word " * 12)[:60] + "..."]


def test_every_table_row_has_its_headers_cells() -> None:
    assert ragged_rows(documents()) == []
    planted = {"a.md": "| x | y |\n|---|---|\n| `a \\| b` | c |\n| `a | b` | c |\n"}
    assert ragged_rows(planted) == ["a.md:4: 3 cells under a header of 2"]
