"""`mfls scan [--json] PATH`: what the scanner reads in one document.

`--json` prints the scan contract as one JSON object; without it, a readable listing
with 1-based line:column spans in code points. `-` reads standard input.
"""

from __future__ import annotations

import argparse
import json

from mfls.cli.output import place, say, write_stdout
from mfls.cli.sources import Unusable, course_root_of, read_source, warn_pending_renames
from mfls.syntax.model import ScanResult
from mfls.text.line_index import LineIndex


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="a Markdown file, or - for standard input")
    parser.add_argument(
        "--json", action="store_true", help="print the scan contract as one JSON object"
    )


def run(args: argparse.Namespace) -> int:
    from mfls.syntax.scanner import scan

    root = course_root_of(args.path)
    warn_pending_renames("scan", [] if root is None else [root])
    text = read_source(args.path)
    if isinstance(text, Unusable):
        say("scan", f"cannot read {args.path}: {text.reason}")
        return 2
    result = scan(text)
    if args.json:
        write_stdout(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
    else:
        write_stdout(scan_listing(text, result))
    return 0


def _span(index: LineIndex, start: int, end: int) -> str:
    start_line, start_column = place(index, start)
    end_line, end_column = place(index, end)
    return f"{start_line}:{start_column}-{end_line}:{end_column}"


def scan_listing(text: str, result: ScanResult) -> str:
    """A readable listing of a scan: 1-based line:column spans in code points."""
    index = LineIndex(text)
    lines: list[str] = []
    lines.append(f"markers: {len(result.markers)}")
    for marker in result.markers:
        notes = [marker.role.value]
        if marker.legacy:
            notes.append("legacy")
        if marker.literal:
            notes.append("literal")
        key = json.dumps(marker.key, ensure_ascii=False)
        lines.append(f"  {_span(index, marker.start, marker.end)}  {key}  ({', '.join(notes)})")
    lines.append(f"invalid: {len(result.invalid)}")
    for invalid in result.invalid:
        lines.append(f"  {_span(index, invalid.start, invalid.end)}  {invalid.reason.value}")
    lines.append(f"interactions: {len(result.interactions)}")
    for interaction in result.interactions:
        binding = (
            "no binding"
            if interaction.binding is None
            else f"binds {json.dumps(interaction.binding, ensure_ascii=False)}"
        )
        mode = "multiple choice" if interaction.multiple else "single choice"
        lines.append(f"  {_span(index, interaction.start, interaction.end)}  {binding}, {mode}")
        for choice in interaction.choices:
            label = json.dumps(choice.label, ensure_ascii=False)
            value = json.dumps(choice.value, ensure_ascii=False)
            lines.append(
                f"    choice {label}" + ("" if choice.value == choice.label else f" -> {value}")
            )
        if interaction.input is not None:
            lines.append(f"    input {json.dumps(interaction.input, ensure_ascii=False)}")
    return "\n".join(lines) + "\n"
