"""The `mfls` command line: `main`, and its parser built from one table of subcommands.

Each subcommand is a module of this package with `HELP`, `configure(parser)` and
`run(args) -> exit status`, and one row of `SUBCOMMANDS`. Without a command, `mfls`
serves LSP over stdio.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mfls import build
from mfls.cli import check, course_map, pack, rename, scan, serve, unpack


@dataclass(frozen=True)
class Subcommand:
    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


SUBCOMMANDS: tuple[Subcommand, ...] = (
    Subcommand("serve", serve.HELP, serve.configure, serve.run),
    Subcommand("scan", scan.HELP, scan.configure, scan.run),
    Subcommand("check", check.HELP, check.configure, check.run),
    Subcommand("rename", rename.HELP, rename.configure, rename.run),
    Subcommand("unpack", unpack.HELP, unpack.configure, unpack.run),
    Subcommand("pack", pack.HELP, pack.configure, pack.run),
    Subcommand("map", course_map.HELP, course_map.configure, course_map.run),
)


class _Version(argparse.Action):
    """--version: the line of `mfls.build.describe`, unwrapped (argparse's own wraps it)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(build.describe())
        parser.exit()


def build_parser(subcommands: Sequence[Subcommand] = SUBCOMMANDS) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mfls",
        description="MarkdownFlow language server and checker. "
        "Without a command it serves LSP over stdio.",
    )
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        help="show the version, the build (compiled or pure Python) and the Python version",
    )
    parser.add_argument(
        "--stdio",
        action="store_true",
        dest="default_stdio",
        help="serve LSP over standard input and output (what no command does anyway)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for sub in subcommands:
        sub_parser = commands.add_parser(sub.name, help=sub.help, description=sub.help)
        sub.configure(sub_parser)
        sub_parser.set_defaults(run=sub.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args: Any = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = getattr(args, "run", serve.run)
    if args.default_stdio and run is not serve.run:
        parser.error(f"--stdio applies to serving LSP, not to the {args.command} command")
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
