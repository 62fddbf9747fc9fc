"""`mfls map COURSE [-o FILE] [--format html|json|svg|global-variable-table]`: the course's
memory picture, or the course tool's `global_variable_table` of it
(`features/variable_table.py`).

COURSE is a course folder (or a file inside one), or an AI-Shifu export (`.json`,
mapped as the course `mfls unpack` would make of it: a place is named
`EXPORT.json#<lesson title>:line:column`). Without `-o`, or with `-o -`, the map goes to
standard output. FILE is held to the output rule (`mfls.disk.outputs`): never the export
read, nor a file in the course mapped. Exit status: 0 written, 2 the course could not be
read or the file not written.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
from dataclasses import replace

from mfls import disk
from mfls.cli.exports import load_export
from mfls.cli.output import configure_stderr, say, write_stdout
from mfls.cli.sources import Unusable, classify
from mfls.cli.writing import STDOUT, write_output
from mfls.exports.ai_shifu import ExportProblem
from mfls.exports.checking import export_course
from mfls.features.course_map import CourseMap, course_map
from mfls.features.course_map_html import map_html
from mfls.features.course_map_svg import map_svg
from mfls.features.variable_table import global_variable_table
from mfls.workspace.course_root import nearest_course_root
from mfls.workspace.loading import load_course

TABLE = "global-variable-table"

FORMATS = ("html", "json", "svg", TABLE)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("course", metavar="COURSE", help="a course folder or an AI-Shifu export")
    parser.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="html (default; or from FILE's suffix); global-variable-table: the course tool's "
        "variable table as JSON",
    )


Located = tuple[CourseMap, list[tuple[str, str | None]]]


def map_of(raw: str) -> Located | str:
    """The map of the course named `raw` and how each lesson's places are named (and
    which file an editor link opens), or why there is none."""
    path = os.path.abspath(raw)
    kind = classify(path)
    if isinstance(kind, Unusable):
        return f"cannot read {raw}: {kind.reason}"
    if kind == "file" and path.lower().endswith(".json"):
        return _export_map(raw, path)
    folder = path if kind == "folder" else os.path.dirname(path)
    root = nearest_course_root(folder) or folder
    loaded = load_course(root)
    if loaded.course is None:
        return f"cannot read {raw}: not a course folder"
    found = course_map(loaded.course)
    shown = [
        (os.path.relpath(lesson.path) if lesson.path else lesson.uri, lesson.path)
        for lesson in found.lessons
    ]
    return found, shown


def _export_map(raw: str, path: str) -> Located | str:
    loaded = load_export(path)
    if isinstance(loaded, ExportProblem):
        return loaded.message
    export, source = loaded
    indexed = export_course(export, source, os.path.basename(path))
    for place, reason in indexed.skipped:
        # As the unpacked folder's file would be: left out of the map, with a warning.
        part = "" if place.field == "content" else f" [{place.field}]"
        say("map", f"warning: skipped {raw}#{' '.join(place.title.split())}{part}: {reason}")
    course = indexed.course
    if course is None:
        return f"cannot map {raw}: the export holds no course"
    titles = {uri: placed.title for uri, placed in indexed.by_uri.items()}
    found = replace(course_map(course, titles), root=None)
    shown: list[tuple[str, str | None]] = []
    for lesson in found.lessons:
        placed = indexed.by_uri.get(lesson.uri)
        title = placed.title if placed is not None else lesson.title
        part = "" if placed is None or placed.field == "content" else f" [{placed.field}]"
        shown.append((f"{raw}#{title}{part}", None))
    return found, shown


def render(located: Located, form: str) -> str:
    found, shown = located
    if form == "json":
        data = found.to_json()
        for lesson, (where, _) in zip(data["lessons"], shown, strict=True):
            lesson["location"] = where
        return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if form == "svg":
        return map_svg(found)
    if form == TABLE:
        return json.dumps(global_variable_table(found), ensure_ascii=False, indent=2) + "\n"
    return map_html(found, shown)


def run(args: argparse.Namespace) -> int:
    configure_stderr(logging.WARNING)
    form = args.format
    if form is None:
        suffix = os.path.splitext(args.output or "")[1].lower().lstrip(".")
        form = suffix if suffix in FORMATS else "html"
    located = map_of(args.course)
    if isinstance(located, str):
        say("map", located)
        return 2
    text = render(located, form)
    if args.output is None or args.output == STDOUT:
        write_stdout(text)
        return 0
    found, shown = located
    inputs = [args.course, *(where for where, path in shown if path is not None)]
    roots = [] if found.root is None else [os.path.relpath(found.root)]
    data = text.encode("utf-8", "surrogatepass")
    if write_output("map", args.output, data, inputs=inputs, roots=roots) != 0:
        return 2
    say("map", f"{found.figures.sentence()}: {disk.printable(args.output)}")
    return 0
