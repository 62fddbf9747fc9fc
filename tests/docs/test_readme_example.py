"""The README's example course, checked: the lessons it shows, written where it says, give
exactly the problems it shows (each line up to its `…`) when `mfls check course` runs."""

from __future__ import annotations

import re
from pathlib import Path

from tests.docs.markdown_docs import ROOT
from tests.kit.cli import mfls

SECTION = re.compile(r"^## A course, checked\n(.*?)^## ", re.S | re.M)
LESSON = re.compile(r"`(course/[\w.-]+\.md)`:\n\n```markdown\n(.*?)```\n", re.S)
OUTPUT = re.compile(r"`mfls check course`[^\n]*\n\n```\n(.*?)```\n", re.S)


def test_the_readme_example_gives_the_problems_it_shows(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = SECTION.search(readme)
    assert section is not None
    lessons = LESSON.findall(section.group(1))
    assert [name for name, _ in lessons] == ["course/01-welcome.md", "course/02-next.md"]
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "mfcourse.toml").write_text('name = "Demo"\n', encoding="utf-8")
    for name, text in lessons:
        (tmp_path / name).write_text(text, encoding="utf-8")
    shown = OUTPUT.search(section.group(1))
    assert shown is not None
    # as a user runs it (in-process, `check` would leave its log handler on the closed
    # stream of this test's capture, for the next test to write to)
    done = mfls("check", "course", cwd=tmp_path)
    assert done.returncode == 0, done.stderr  # warnings and information only
    printed = done.stdout.splitlines()
    expected = shown.group(1).splitlines()
    assert len(printed) == len(expected)
    for line, abridged in zip(printed, expected, strict=True):
        assert abridged.endswith(" …")
        assert line.startswith(abridged.removesuffix(" …")), (line, abridged)
