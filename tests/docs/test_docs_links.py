"""Every relative link and `#anchor` of README.md, docs/ and the editors' READMEs leads
somewhere: the file exists inside the repository, and the anchor is one GitHub makes for
a heading of it."""

from __future__ import annotations

from pathlib import Path

from tests.docs.markdown_docs import anchors, documents, link_problems, links, slug


def test_every_relative_link_and_anchor_resolves() -> None:
    docs = documents()
    assert {"README.md", "docs/guide/command-line.md", "editors/README.md"} <= set(docs)
    assert link_problems(docs) == []


def test_headings_make_githubs_anchors() -> None:
    assert slug("Courses: `mfcourse.toml`") == "courses-mfcoursetoml"
    assert slug("A web page: CodeMirror 6 over WebSocket (`mfls serve --ws`)") == (
        "a-web-page-codemirror-6-over-websocket-mfls-serve---ws"
    )
    assert slug("The platform's documented rules") == "the-platforms-documented-rules"
    assert slug("Messages in 简体中文_too") == "messages-in-简体中文_too"
    text = '# Top\n\n## Same\n\n## Same\n\n```\n# not a heading\n```\n\n<a id="here"></a>\n'
    assert anchors(text) == {"top", "same", "same-1", "here"}


def test_a_broken_link_or_anchor_is_found(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Its heading\n\nline 3\n", encoding="utf-8")
    (tmp_path / "docs" / "code.py").write_text("one = 1\ntwo = 2\nthree = 3\n", encoding="utf-8")
    (tmp_path / "picture.png").write_bytes(b"")
    planted = {
        "README.md": (
            "# Title\n\n"
            "[fine](docs/other.md#its-heading) [fine](#title) ![fine](picture.png)\n"
            "[fine](docs/code.py#L2-L3) [web](https://example.com/x.md) `[code](nowhere.md)`\n"
            "[gone](docs/missing.md) [no anchor](#nothing) [bad anchor](docs/other.md#nope)\n"
            "[outside](../elsewhere.md) [past the end](docs/code.py#L9)\n"
            "[no line](docs/code.py#top)\n"
        ),
    }
    assert len(links(planted["README.md"])) == 11
    found = link_problems(planted, root=tmp_path)
    assert found == [
        "README.md: (docs/missing.md) no such file",
        "README.md: (#nothing) no heading makes #nothing",
        "README.md: (docs/other.md#nope) no heading makes #nope",
        "README.md: (../elsewhere.md) leaves the repository",
        "README.md: (docs/code.py#L9) the file has 3 lines",
        "README.md: (docs/code.py#top) #top is no anchor of a .py",
    ]
