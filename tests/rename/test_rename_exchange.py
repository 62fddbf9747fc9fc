"""mfls.disk.exchange: the atomic swap and its fallback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mfls.disk import exchange


@pytest.mark.parametrize("atomic", [True, False])
def test_swap_exchanges_two_names_and_never_creates_a_missing_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, atomic: bool
) -> None:
    if not atomic:
        monkeypatch.setattr(exchange, "_exchange_call", lambda: None)
    elif not exchange.exchange_available():
        pytest.skip("no atomic exchange on this system")
    first, second = tmp_path / "first", tmp_path / "second"
    first.write_bytes(b"one")
    second.write_bytes(b"two")
    second.chmod(0o604)
    assert exchange.swap(first, second) is atomic
    assert (first.read_bytes(), second.read_bytes()) == (b"two", b"one")
    assert first.stat().st_mode & 0o777 == 0o604, "the inode moves with its name"
    with pytest.raises(FileNotFoundError):
        exchange.swap(first, tmp_path / "gone")
    assert not (tmp_path / "gone").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first", "second"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_linux_has_the_atomic_exchange() -> None:
    assert exchange.exchange_available()
