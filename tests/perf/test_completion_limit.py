"""A limited completion is the full list filtered by subsequence and cut by sort text."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from mfls.features.completion import Completion, CompletionItem, complete
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace

LETTERS = "aAbBßSs é.-"


def is_subsequence(needle: str, haystack: str) -> bool:
    position = 0
    for char in needle:
        position = haystack.find(char, position) + 1
        if position == 0:
            return False
    return True


def expected(full: Completion, typed: str, limit: int) -> list[CompletionItem]:
    """The full list filtered by what was typed (Neovim 0.11 leaves filtering to the
    server), cut by sort text past `limit`."""
    items = full.items
    needle = typed.strip().casefold()
    if needle:
        items = [i for i in items if is_subsequence(needle, i.key.casefold())]
    if len(items) > limit:
        items = sorted(items, key=lambda i: i.sort_text)[:limit]
    return items


def key(rng: random.Random) -> str:
    return "k" + "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 5))).strip()


@pytest.mark.parametrize("seed", range(6))
def test_limited_completion_matches_the_full_list(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    for n in range(3):
        markers = [
            f"?[{{{{ {key(rng)} }}}} A]" if rng.random() < 0.6 else f"{{{{ {key(rng)} }}}}"
            for _ in range(40)
        ]
        (tmp_path / f"l{n}.md").write_text("\n\n".join(markers) + "\n", encoding="utf-8")
    workspace = Workspace()
    workspace.set_folders([str(tmp_path)])
    workspace.index_all()
    path = tmp_path / "l1.md"
    uri = path_to_uri(str(path))
    base = path.read_text(encoding="utf-8")
    checked = 0
    for _ in range(25):
        typed = "".join(rng.choice(LETTERS) for _ in range(rng.randint(0, 3)))
        text = base + "\n{{ " + typed
        workspace.open(uri, text, 1)
        full = complete(workspace.snapshot, uri, len(text))
        if full is None:
            assert complete(workspace.snapshot, uri, len(text), limit=1) is None
            continue
        assert not full.is_incomplete
        checked += 1
        for limit in (1, 5, 20, len(full.items) - 1, len(full.items)):
            limited = complete(workspace.snapshot, uri, len(text), limit=limit)
            assert limited is not None
            assert limited.items == expected(full, typed, limit)
            filtered = bool(typed.strip())
            assert limited.is_incomplete == (filtered or len(full.items) > limit)
    assert checked > 10
