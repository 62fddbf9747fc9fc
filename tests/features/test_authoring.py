"""Code lenses on bindings, document links in mfcourse.toml, place links in hovers and
interaction snippets after `?[`."""

from __future__ import annotations

import pytest

from mfls.features.code_lens import code_lenses, lens_title
from mfls.features.document_links import course_file_links, glob_strings
from mfls.features.hover import hover
from mfls.features.places import link_label
from mfls.features.snippets import interaction_snippets, plain_text
from mfls.syntax.scanner import scan
from tests.kit.course import Mark, course, course_text, covered, expect, hover_text

# --- code lenses ------------------------------------------------------------------


def test_a_lens_on_each_binding_counts_reads_and_lessons() -> None:
    c = course_text(
        """
        //- a.md
        ?[{{ name }} ...your name]
        %%   ^^^^ lens: asked here · read 3 times in 2 lessons

        ?[{{ goal }} A | B]
        %%   ^^^^ lens: asked here · not read yet

        Hi {{ name }}
        %%    ^^^^ read 0
        //- b.md
        {{ name }} again, {{ name }}
        %% ^^^^ read 1
        %%                   ^^^^ read 2

        ?[{{ name }} ...again]
        %%   ^^^^ lens: asked here · read 3 times in 2 lessons
        """
    )
    marks: list[Mark] = []
    for name in ("a.md", "b.md"):
        for lens in code_lenses(c.snapshot, c.uri(name)):
            marks.append((name, lens.start, lens.end, "lens", lens.title))
            if name == "a.md" and lens.key == "name":
                marks += [
                    (c.name_of(r.uri), r.start, r.end, f"read {n}")
                    for n, r in enumerate(lens.reads)
                ]
    c.check(marks)


def test_lens_titles_and_the_rename_warning_in_chinese() -> None:
    from mfls.features.rename import stored_answers_warning

    assert lens_title(3, 2, True, "zh-CN") == "在此提问 · 在 2 个课时中读取 3 次"
    assert lens_title(0, 0, True, "zh-CN") == "在此提问 · 尚未被读取"
    assert stored_answers_warning("旧", "新", "zh-CN") == (
        "已保存的回答仍留在旧键“旧”下。平台按键保存回答且不会迁移："
        "之前回答过的学员会被重新询问“新”，否则课时会退回到其中写明的默认内容。"
    )
    assert stored_answers_warning("a", "b") == (
        "Stored answers stay under the old key “a”. Hosts store answers by key and do not"
        " migrate them: learners who answered before are asked again for “b”, or the lessons"
        " fall back to their stated default."
    )


def test_singular_and_reference_documents() -> None:
    assert lens_title(1, 1, True) == "asked here · read 1 time in 1 lesson"
    assert lens_title(2, 1, False) == "asked here · read 2 times in 1 document"
    c = course(
        {
            "mfcourse.toml": 'lessons = ["l/*.md"]\nreferences = ["r/*.md"]\n',
            "l/a.md": "?[{{ q }} A | B]\n",
            "r/ref.md": "See {{ q }}. ?[{{ q }} A | B]\n",
        }
    )
    (lens,) = code_lenses(c.snapshot, c.uri("l/a.md"))
    assert lens.title == "asked here · read 1 time in 1 document"
    assert code_lenses(c.snapshot, c.uri("r/ref.md")) == []


def test_no_lens_on_a_binding_the_target_runtime_does_not_save() -> None:
    c = course(
        "a.md",
        "?[{{ q }} A | B]\n\n?[%{{ p }} A | B]\n\n{{ p }}\n",
        config='target = "markdown-flow-0.4"',
    )
    (lens,) = code_lenses(c.snapshot, c.uri("a.md"))
    assert lens.key == "p" and lens.title == "asked here · read 1 time in 1 lesson"


def test_literal_reads_the_host_drops_are_not_counted() -> None:
    c = course(
        "a.md",
        "?[%{{ q }} A | B]\n\n<!-- {{ q }} -->\n\nUse {{ q }}\n",
        config='host = "ai-shifu"',
    )
    (lens,) = code_lenses(c.snapshot, c.uri("a.md"))
    assert lens.title == "asked here · read 1 time in 1 lesson"
    assert len(lens.reads) == 1


# --- place links in hovers --------------------------------------------------------


def test_hover_names_binding_places_as_links() -> None:
    c = course("a b.md", "\n?[{{ q }} A | B]\n", "c.md", "Use {{ q$0 }}\n")
    expect(hover_text(c, hover(c.snapshot, c.cursor_uri, c.offset)), "hover/place_link.md")


def test_link_labels_escape_markdown() -> None:
    assert link_label("a[1]_*.md") == "a\\[1\\]\\_\\*.md"


# --- document links ---------------------------------------------------------------

COURSE_FILE = """name = "C"  # lessons = ["nothing.md"]
lessons = [
  "intro.md",   # the first
  'units/*.md',
  "missing/*.md",
  "\\u0075nits/b.md",
]
references = ["refs/**"]

[diagnostics]
lessons = "not a glob"
"""


def test_glob_strings_are_located_and_decoded() -> None:
    found = glob_strings(COURSE_FILE)
    assert [(g.field, g.value, COURSE_FILE[g.start : g.end]) for g in found] == [
        ("lessons", "intro.md", '"intro.md"'),
        ("lessons", "units/*.md", "'units/*.md'"),
        ("lessons", "missing/*.md", '"missing/*.md"'),
        ("lessons", "units/b.md", '"\\u0075nits/b.md"'),
        ("references", "refs/**", '"refs/**"'),
    ]
    assert glob_strings('lessons = "a.md"\n')[0].value == "a.md"
    assert glob_strings("lessons = [1, 2]\n") == []


def test_each_glob_links_to_its_first_file_in_course_order() -> None:
    c = course(
        {
            "mfcourse.toml": COURSE_FILE,
            "intro.md": "x",
            "units/b.md": "x",
            "units/a.md": "x",
            "refs/r.md": "x",
        }
    )
    links = course_file_links(c.snapshot, c.uri("mfcourse.toml"), COURSE_FILE)
    shown = [(COURSE_FILE[x.start : x.end], x.target, x.tooltip) for x in links]
    assert shown == [
        ('"intro.md"', c.uri("intro.md"), "Open intro.md"),
        (
            "'units/*.md'",
            c.uri("units/a.md"),
            "2 files: units/a.md, units/b.md. Opens the first.",
        ),
        ('"\\u0075nits/b.md"', c.uri("units/b.md"), "Open units/b.md"),
        ('"refs/**"', c.uri("refs/r.md"), "Open refs/r.md"),
    ]
    assert course_file_links(c.snapshot, c.uri("intro.md"), COURSE_FILE) == []


# --- snippets ---------------------------------------------------------------------


def shapes(text: str, config: str | None = None) -> list[str]:
    c = course("a.md", text, config=config)
    found = interaction_snippets(c.snapshot, c.cursor_uri, c.offset)
    assert found is not None
    whole = c.text("a.md")
    return [whole[: found.start] + plain_text(s.snippet) + whole[found.end :] for s in found.items]


@pytest.mark.parametrize(
    ("config", "binding"),
    [
        (None, "{{ question }}"),
        ('target = "markdown-flow-0.4"', "%{{question}}"),
        ('target = "markdown-flow-0.3"', "%{{question}}"),
        # The page version that shows `A || B` as a multiple choice (the default checks
        # 1.0.0-alpha.7 too, which does not, and is offered none: test_handlers_page_bindings).
        ('host = "ai-shifu"\npage = "remark-flow-0.1.6"', "%{{question}}"),
    ],
)
def test_snippets_insert_the_binding_the_target_saves(config: str | None, binding: str) -> None:
    texts = shapes("Pick: ?[$0]\n", config)
    assert texts == [
        f"Pick: ?[{binding} Yes | No]\n",
        f"Pick: ?[{binding} A || B || C]\n",
        f"Pick: ?[{binding} ...hint]\n",
    ]
    single, multiple, typed = (scan(t).interactions[0] for t in texts)
    assert single.binding == multiple.binding == typed.binding == "question"
    assert [c.label for c in single.choices] == ["Yes", "No"] and not single.multiple
    assert [c.label for c in multiple.choices] == ["A", "B", "C"] and multiple.multiple
    assert typed.input == "hint" and not typed.choices


def test_snippet_tab_stops() -> None:
    c = course("a.md", "?[mul$0\n")
    found = interaction_snippets(c.snapshot, c.cursor_uri, c.offset)
    assert found is not None
    assert c.text("a.md")[found.start : found.end] == "mul"
    assert [(s.label, s.snippet) for s in found.items] == [
        ("single choice", "{{ ${1:question} }} ${2:Yes} | ${3:No}]$0"),
        ("multiple choice", "{{ ${1:question} }} ${2:A} || ${3:B} || ${4:C}]$0"),
        ("input", "{{ ${1:question} }} ...${2:hint}]$0"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "no opener$0\n",
        "\\?[$0\n",
        "`?[$0`\n",
        "```\n?[$0\n```\n",
        "    ?[$0\n",
        "?[ $0\n",
        "?[{{ q }}$0\n",
    ],
)
def test_no_snippets_outside_a_fresh_interaction(text: str) -> None:
    c = course("a.md", text)
    assert interaction_snippets(c.snapshot, c.cursor_uri, c.offset) is None


# --- folding: what the issue lists ------------------------------------------------


def test_folds_cover_headings_interactions_code_html_and_comments() -> None:
    from mfls.features.folding import folding_ranges

    text = (
        "# A\n\n?[{{ q }} One\n| Two]\n\n```\ncode\nmore\n```\n\n<div>\nx\n</div>\n\n"
        "<!-- a\nnote -->\n\n## B\n\nend\n"
    )
    c = course("a.md", text)
    folds = folding_ranges(c.snapshot, c.uri("a.md"))
    assert [(f.kind, covered(text, f.start, f.end)) for f in folds] == [
        ("section", "1:1 to 20:4"),
        ("interaction", "3:1 to 4:7"),
        ("code", "6:1 to 9:4"),
        ("html", "11:1 to 13:7"),
        ("comment", "15:1 to 16:9"),
        ("section", "18:1 to 20:4"),
    ]
