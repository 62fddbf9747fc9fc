"""`mfls unpack EXPORT.json DIR [--force] [--layout mfls|course-creator]`: an AI-Shifu
export as a course folder.

The layout is `mfls.exports.layout`'s, or with `--layout course-creator` the folder the
platform's course tool writes (`mfls.exports.course_creator`). DIR must not exist or
be empty, unless `--force` (then it is replaced whole); it is held to the output rule
(`mfls.disk.outputs`): never a link, nor a folder holding the export read. Exit status:
0 written, 2 nothing written (a broken export, DIR not empty or refused, a write that
failed).
"""

from __future__ import annotations

import argparse
import os
import sys

from mfls import disk
from mfls.cli.exports import load_export
from mfls.cli.writing import refused
from mfls.disk.trees import write_tree
from mfls.exports.ai_shifu import ExportProblem
from mfls.exports.course_creator import LAYOUT, unpack_course_creator
from mfls.exports.layout import unpack


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("export", metavar="EXPORT.json", help="the exported course")
    parser.add_argument("folder", metavar="DIR", help="the course folder to make")
    parser.add_argument("--force", action="store_true", help="replace DIR even if it is not empty")
    parser.add_argument(
        "--layout",
        choices=("mfls", LAYOUT),
        default="mfls",
        help="the folder's layout: mfls's own (default), or the AI-Shifu course tool's "
        "(structure.json, lessons/lesson-NN.md)",
    )


def run(args: argparse.Namespace) -> int:
    loaded = load_export(args.export)
    if isinstance(loaded, ExportProblem):
        print(f"mfls unpack: {loaded.message}", file=sys.stderr)
        return 2
    export, source = loaded
    make = unpack_course_creator if args.layout == LAYOUT else unpack
    folder = make(export, source, os.path.basename(args.export))
    problem = write_tree(args.folder, folder.files, replace=args.force, inputs=[args.export])
    if problem is not None:
        return refused("unpack", problem)
    lessons = sum(1 for p in folder.placed if p.lesson)
    print(
        f"mfls unpack: {disk.printable(export.shifu['title'])}: {lessons} "
        f"{'lesson' if lessons == 1 else 'lessons'} in {disk.printable(args.folder)}",
        file=sys.stderr,
    )
    return 0
