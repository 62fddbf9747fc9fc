"""A course folder made by `layout.unpack` back into the AI-Shifu export (pure: the
caller hands in a reader of the folder's files).

The manifest's `export` is the export as it came; each `{"mfls_file": path}` in it (an
item's `content` or `llm_system_prompt`, the course's `llm_system_prompt`) is replaced
by the text of that file, and the result, valid by the rules of `ai_shifu.validate`, is
written with the export file's own JSON layout.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from typing import Any

from mfls.exports.ai_shifu import MAX_NESTING, ExportProblem, parse_json, validate
from mfls.exports.layout import (
    CONTENT_FIELD,
    DEFAULT_FORMAT,
    FILE_KEY,
    JSON_FORMATS,
    MANIFEST,
    MANIFEST_KIND,
    MANIFEST_VERSION,
    PROMPT_FIELD,
    decode_text,
    dump_json,
)

Reader = Callable[[str], "bytes | ExportProblem"]
"""Reads a file of the folder by its relative POSIX path: its bytes, or why not."""


def _safe_relative(path: str) -> bool:
    normal = posixpath.normpath(path)
    return (
        bool(path)
        and "\\" not in path
        and "\0" not in path
        and not posixpath.isabs(path)
        and normal == path
        and not normal.startswith("../")
        and normal != ".."
    )


def _fill(table: dict[str, Any], name: str, where: str, read: Reader) -> ExportProblem | None:
    value = table.get(name)
    if not (isinstance(value, dict) and list(value) == [FILE_KEY]):
        return None
    path = value[FILE_KEY]
    if not isinstance(path, str) or not _safe_relative(path):
        return ExportProblem(f"{MANIFEST}: {where}.{name} names no file of the folder")
    data = read(path)
    if isinstance(data, ExportProblem):
        return ExportProblem(f"cannot read {path} ({where}.{name}): {data.message}")
    text = decode_text(data)
    if text is None:
        return ExportProblem(f"{path} is not UTF-8 text")
    table[name] = text
    return None


def pack(read: Reader) -> bytes | ExportProblem:
    """The export of the folder `read` reads, or the one reason it cannot be made."""
    data = read(MANIFEST)
    if isinstance(data, ExportProblem):
        return ExportProblem(f"no {MANIFEST} ({data.message}): not a folder made by `mfls unpack`")
    manifest = parse_json(data, MAX_NESTING + 1)  # the export, one level down
    if isinstance(manifest, ExportProblem):
        return ExportProblem(f"{MANIFEST}: {manifest.message}")
    if not isinstance(manifest, dict) or manifest.get("manifest") != MANIFEST_KIND:
        return ExportProblem(f"{MANIFEST} is not an mfls export manifest")
    if manifest.get("manifest_version") != MANIFEST_VERSION:
        return ExportProblem(
            f"{MANIFEST}: manifest version {manifest.get('manifest_version')!r} is not "
            f"{MANIFEST_VERSION} (made by another mfls version)"
        )
    layout = manifest.get("json_format")
    if layout not in JSON_FORMATS:
        layout = DEFAULT_FORMAT
    export = manifest.get("export")
    if not isinstance(export, dict):
        return ExportProblem(f"{MANIFEST}: no `export` object")
    shifu = export.get("shifu")
    if isinstance(shifu, dict):
        for name in (PROMPT_FIELD, "description"):  # the course-creator layout's too
            problem = _fill(shifu, name, "shifu", read)
            if problem is not None:
                return problem
    items = export.get("outline_items")
    if isinstance(items, list):
        for index, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            for name in (CONTENT_FIELD, PROMPT_FIELD):
                problem = _fill(item, name, f"outline_items[{index}]", read)
                if problem is not None:
                    return problem
    valid = validate(export)
    if isinstance(valid, ExportProblem):
        return ExportProblem(f"the packed export is not valid: {valid.message}")
    return dump_json(export, layout)
