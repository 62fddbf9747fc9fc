"""The `mfls` command line: `main`, and its parser built from one table of subcommands.

Each subcommand is a module of this package with `configure(parser)` and
`run(args) -> exit status`, and one row of `SUBCOMMANDS` (its name, module and help).
Only the module of the command given is imported: `mfls check` does not pay for the
course map's or the exports' modules. Without a command, `mfls` serves LSP over stdio.

Exit statuses mean one thing in every command: 0 clean, 1 problems found, 2 unusable
input, environment or output path, and 2 for an error no command foresaw (`_failed`).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import logging
import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, NamedTuple, NoReturn

from mfls import build


class Subcommand(NamedTuple):
    name: str
    module: str
    help: str
    # It only reads and prints: the program may end without freeing its objects.
    quick_exit: bool = False

    def load(self) -> ModuleType:
        return importlib.import_module(f"mfls.cli.{self.module}")


SUBCOMMANDS: tuple[Subcommand, ...] = (
    Subcommand("serve", "serve", "speak LSP over stdio (the default), TCP or WebSocket"),
    Subcommand("scan", "scan", "print what the scanner reads in one document", True),
    Subcommand("check", "check", "report diagnostics for files and folders", True),
    Subcommand("rename", "rename", "rename a memory key in every document of a course"),
    Subcommand("unpack", "unpack", "unpack an AI-Shifu course export into a course folder"),
    Subcommand("pack", "pack", "pack a course folder made by unpack back into an AI-Shifu export"),
    Subcommand(
        "map",
        "course_map",
        "draw a course's questions: where each is asked and read (HTML, JSON or SVG)",
        True,
    ),
)


class _Version(argparse.Action):
    """--version: the line of `mfls.build.describe`, unwrapped (argparse's own wraps it)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(build.describe())
        parser.exit()


def _named(argv: Sequence[str]) -> str | None:
    """The command `argv` names: its first argument not an option (the global options
    take no value)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg
        if arg == "--":
            return None
    return None


def build_parser(
    subcommands: Sequence[Subcommand] = SUBCOMMANDS, configured: str | None = None
) -> argparse.ArgumentParser:
    """The parser; only the subcommand named `configured` (every one when None, none
    when it names none) gets its arguments, so only its module is imported."""
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
        if configured is None or sub.name == configured:
            module = sub.load()
            module.configure(sub_parser)
            sub_parser.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    named = _named(given)
    known = {sub.name for sub in SUBCOMMANDS}
    if given and given[0] == named and named in known:
        # No global option comes first, so no help lists the commands: the named one
        # is the only parser built (each costs start-up time, gettext lookups included).
        only = [sub for sub in SUBCOMMANDS if sub.name == named]
        parser = build_parser(only, configured=named)
    else:
        parser = build_parser(configured=named if named in known else "")
    args: Any = parser.parse_args(given)
    run: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if run is None:
        from mfls.cli import serve

        run = serve.run
    elif args.default_stdio:
        parser.error(f"--stdio applies to serving LSP, not to the {args.command} command")
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:
        return _failed(args.command or "serve", error)


def _failed(command: str, error: Exception) -> int:
    """A command that failed on an error mfls did not foresee: exit status 2 (1 means
    problems found in the input, and no check was done). Input nested deeper than Python
    recurses, a lack of memory and a failing system call (standard output on a full
    disk) are said in one line; anything else is a fault of mfls, shown with its
    traceback."""
    if isinstance(error, RecursionError):
        reason = "the input is nested too deeply to be read"
    elif isinstance(error, MemoryError):
        reason = "out of memory"
    elif isinstance(error, OSError):
        reason = error.strerror or str(error)
    else:
        import traceback

        traceback.print_exception(error, file=sys.stderr)
        reason = f"internal error ({type(error).__name__}), a fault of mfls: please report it"
    print(f"mfls {command}: {reason}", file=sys.stderr)
    return 2


def entry() -> NoReturn:
    """The `mfls` program: `main`; a command that only reads and prints runs without the
    garbage collector (its objects nearly all live to its end: the collector's passes
    were a tenth of a dense course's check) and ends without freeing its objects one by
    one (another tenth)."""
    given = sys.argv[1:]
    named = _named(given)
    quick = any(sub.quick_exit and sub.name == named for sub in SUBCOMMANDS)
    if quick:
        gc.disable()
    status = main(given)
    if quick:
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing to lose
                stream.flush()
        os._exit(status)
    sys.exit(status)
