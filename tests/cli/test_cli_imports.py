"""What commands other than `serve` load. None loads the LSP front end (pygls,
lsprotocol); a text `mfls check` loads none of the modules whose import costs start-up
time it does not need (dataclasses, with inspect and ast, takes about 12 ms, each
dataclass another 1.5 ms; ctypes and platform are for the atomic swap of a rename;
hashlib loads OpenSSL for journal hashes; json serves the other formats)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from mfls.cli import SUBCOMMANDS, build_parser, main

FRONT_END = ("pygls", "lsprotocol", "mfls.server", "mfls.lsp")
HEAVY = ("dataclasses", "inspect", "ctypes", "platform", "hashlib", "json")

PROBE = """
import sys
from mfls.cli import main
try:
    main(sys.argv[2:])
except SystemExit:
    pass
watched = sys.argv[1].split(",")
loaded = sorted({w for w in watched for m in sys.modules if m == w or m.startswith(w + ".")})
sys.stderr.write("\\nLOADED " + repr(loaded) + "\\n")
"""


def loaded_by(
    *argv: str, cwd: Path, prelude: str = "", watched: tuple[str, ...] = FRONT_END
) -> list[str]:
    """The `watched` modules (or packages) loaded once `mfls ARGV` has run in `cwd`."""
    done = subprocess.run(
        [sys.executable, "-c", prelude + PROBE, ",".join(watched), *argv],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        timeout=120,
        stdin=subprocess.DEVNULL,  # `serve` reads LSP from it: at its end, it stops
    )
    last = done.stderr.rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith("LOADED "), done.stderr
    found = ast.literal_eval(last.removeprefix("LOADED "))
    assert isinstance(found, list)
    return [str(name) for name in found]


@pytest.fixture
def course(tmp_path: Path) -> Path:
    (tmp_path / "mfcourse.toml").write_text('host = "ai-shifu"\n')
    (tmp_path / "a.md").write_text("?[{{ q }} A | B]\n\nUse {{ q }}, {{ }} and <b>{{ r }}</b>.\n")
    return tmp_path


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "."],
        ["check", "--format", "json", "a.md"],
        ["scan", "--json", "a.md"],
        ["rename", "--course", ".", "q", "r", "--dry-run"],
    ],
)
def test_commands_other_than_serve_do_not_import_the_lsp_front_end(
    course: Path, argv: list[str]
) -> None:
    assert loaded_by(*argv, cwd=course) == []


# What serving over stdio has no use for: the WebSocket transport (and its library), the
# exports, the other commands.
NOT_SERVED_OVER_STDIO = (
    "websockets",
    "mfls.lsp.websocket",
    "mfls.lsp.ws_connection",
    "mfls.lsp.handshake",
    "mfls.exports",
    "mfls.cli.check",
    "mfls.cli.course_map",
)


def test_serving_over_stdio_loads_no_websocket_export_or_command_module(course: Path) -> None:
    assert loaded_by("serve", cwd=course, watched=NOT_SERVED_OVER_STDIO) == []
    assert loaded_by("--stdio", cwd=course, watched=NOT_SERVED_OVER_STDIO) == []


def test_the_probe_would_see_the_websocket_transport(course: Path) -> None:
    prelude = "import mfls.lsp.websocket\n"
    loaded = loaded_by("serve", cwd=course, prelude=prelude, watched=NOT_SERVED_OVER_STDIO)
    assert "mfls.lsp.websocket" in loaded


def test_serve_freezes_the_front_end_it_imported_and_collects_again(course: Path) -> None:
    """The front end is imported with the collector paused and then frozen
    (`serve._import_front_end`): its classes are out of the collector's sight (lsprotocol
    alone makes tens of thousands of objects), and the collector runs again after."""
    probe = (
        "import gc, sys\n"
        "from mfls.cli import main\n"
        "main(['serve'])\n"
        "state = (gc.isenabled(), gc.get_freeze_count(), 'pygls' in sys.modules)\n"
        "sys.stderr.write('\\nSTATE %s %s %s\\n' % state)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        cwd=course,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    last = done.stderr.rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith("STATE "), done.stderr
    enabled, frozen, served = last.split()[1:]
    assert (enabled, served) == ("True", "True"), done.stderr
    assert int(frozen) > 20_000


def test_the_probe_would_see_the_front_end(course: Path) -> None:
    assert "pygls" in loaded_by("scan", "a.md", cwd=course, prelude="import pygls")


def test_a_text_check_loads_none_of_the_heavy_modules(course: Path) -> None:
    assert loaded_by("check", ".", cwd=course, watched=HEAVY) == []


def test_the_json_format_loads_json_only_when_asked(course: Path) -> None:
    assert loaded_by("check", "--format", "json", ".", cwd=course, watched=HEAVY) == ["json"]


def test_the_probe_would_see_them(course: Path) -> None:
    prelude = "import dataclasses, ctypes, hashlib\n"
    assert loaded_by("check", ".", cwd=course, prelude=prelude, watched=HEAVY) == [
        "ctypes",
        "dataclasses",
        "hashlib",
        "inspect",
    ]


@pytest.mark.parametrize(
    "argv",
    [[sub.name, "--help"] for sub in SUBCOMMANDS]
    + [["check"], ["check", "--jobs", "0", "x"], ["check", "--version"], ["rename"]],
)
def test_a_command_named_first_parses_as_with_every_parser_built(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """`main` builds only the named command's parser when it comes first; its help and
    its errors are those of the whole parser."""
    with pytest.raises(SystemExit) as alone:
        main(argv)
    said_alone = capsys.readouterr()
    with pytest.raises(SystemExit) as whole:
        build_parser(configured=argv[0]).parse_args(argv)
    assert (alone.value.code, said_alone) == (whole.value.code, capsys.readouterr())
