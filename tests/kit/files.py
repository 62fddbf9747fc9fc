"""Laying files out for a test: a folder's files from a mapping of names to contents."""

from __future__ import annotations

from pathlib import Path


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    """Write each file under `root` (its folders made), text as UTF-8."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
