import pytest

from mfls.workspace.globs import matches


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("**/*.md", "a.md", True),
        ("**/*.md", "x/y/a.md", True),
        ("**/*.md", "a.mdx", False),
        ("lessons/*.md", "lessons/a.md", True),
        ("lessons/*.md", "lessons/x/a.md", False),
        ("./lessons/*.md", "lessons/a.md", True),
        ("refs/**", "refs/a/b.md", True),
        ("*.{md,mdflow}", "a.mdflow", True),
        ("[0-9]*.md", "1-intro.md", True),
        ("[!0-9]*.md", "1-intro.md", False),
        ("le?son.md", "lesson.md", True),
        ("a+b.md", "a+b.md", True),
    ],
)
def test_globs(pattern: str, path: str, expected: bool) -> None:
    assert matches(pattern, path) is expected
