"""`mfls pack DIR EXPORT.json`: a course folder made by `mfls unpack` back into the
AI-Shifu export, every field as it came and each lesson's content from its file.

EXPORT.json is written whole (a temporary file renamed over it), or to standard output
for `-`; it is held to the output rule (`mfls.disk.outputs`): never a file in DIR.
Exit status: 0 written, 2 nothing written (no manifest, a lesson file missing or not
UTF-8, an output refused, a write that failed).
"""

from __future__ import annotations

import argparse
import os
import sys

from mfls import disk
from mfls.cli.exports import MAX_EXPORT_BYTES
from mfls.cli.writing import write_output
from mfls.disk.own_files import OWN_FOLDER, own_path_problem
from mfls.exports.ai_shifu import ExportProblem
from mfls.exports.packing import pack


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", metavar="DIR", help="the course folder")
    parser.add_argument(
        "export", metavar="EXPORT.json", help="the export file to write (- for stdout)"
    )


def run(args: argparse.Namespace) -> int:
    root = os.path.abspath(args.folder)
    if not disk.is_directory(root):
        print(f"mfls pack: {disk.printable(args.folder)} is not a folder", file=sys.stderr)
        return 2

    read_paths: list[str] = []  # as the user would name them

    def read(path: str) -> bytes | ExportProblem:
        parts = path.split("/")
        read_paths.append(os.path.join(args.folder, *parts))
        if parts[0] == OWN_FOLDER:  # the manifest: mfls's own, never read through a link
            refused = own_path_problem(root, parts)
            if refused is not None:
                return ExportProblem(refused.reason)
        data, problems = disk.read_bytes(os.path.join(root, *parts), root, MAX_EXPORT_BYTES)
        if data is None:
            return ExportProblem(problems[0].reason if problems else "unreadable")
        return data

    packed = pack(read)
    if isinstance(packed, ExportProblem):
        print(f"mfls pack: {packed.message}; nothing written", file=sys.stderr)
        return 2
    return write_output("pack", args.export, packed, inputs=read_paths, roots=[args.folder])
