"""Reading an AI-Shifu export named on the command line, through `mfls.disk`."""

from __future__ import annotations

import os
from typing import Final

from mfls import disk
from mfls.exports.ai_shifu import Export, ExportProblem, read_export

MAX_EXPORT_BYTES: Final = 256 * 1024 * 1024
"""Exports hold whole courses: a far higher limit than a document's."""


def load_export(path: str) -> tuple[Export, bytes] | ExportProblem:
    """The export in the file at `path` and its bytes, or the one reason it is unusable."""
    if not disk.is_regular_file(path):
        reason = "no such file" if not disk.lexists(path) else "not a file"
        return ExportProblem(f"cannot read {disk.printable(path)}: {reason}")
    data, problems = disk.read_bytes(path, max_bytes=MAX_EXPORT_BYTES)
    if data is None:
        reason = problems[0].reason if problems else "unreadable"
        return ExportProblem(f"cannot read {disk.printable(path)}: {reason}")
    export = read_export(data)
    if isinstance(export, ExportProblem):
        name = disk.printable(os.path.basename(path))
        return ExportProblem(f"{name} is not a usable AI-Shifu export: {export.message}")
    return export, data
