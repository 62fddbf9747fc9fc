"""`mfls scan --json`: the scan contract, byte for byte from standard input or a file.

Every expectation below was worked out by hand from the rules of docs/syntax.md.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.kit.cli import mfls_bytes


def run_mfls(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return mfls_bytes(*args, input=stdin)


def scan_stdin(data: bytes) -> dict[str, Any]:
    done = run_mfls("scan", "--json", "-", stdin=data)
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout.decode("utf-8"))


def marker(
    start: int,
    end: int,
    key: str,
    role: str = "reference",
    context: str | None = None,
    **flags: bool,
) -> dict:
    return {
        "start": start,
        "end": end,
        "key": key,
        "role": role,
        "legacy": flags.get("legacy", False),
        "literal": flags.get("literal", False),
        "context": context,
    }


def choices(*labels: str) -> list[dict[str, str]]:
    return [{"label": label, "value": label} for label in labels]


def test_binding_and_reference_across_crlf_lines() -> None:
    # "?[{{ q }} A|B]" is 0-14; CRLF at 14-16; "Use " 16-20; "{{ q }}" 20-27.
    result = scan_stdin(b"?[{{ q }} A|B]\r\nUse {{ q }}\r\n")
    assert result == {
        "version": 2,
        "markers": [marker(2, 9, "q", "binding"), marker(20, 27, "q")],
        "invalid": [],
        "interactions": [
            {
                "start": 0,
                "end": 14,
                "binding": "q",
                "multiple": False,
                "choices": choices("A", "B"),
                "input": None,
            }
        ],
    }


def test_crlf_inside_an_input_hint_is_kept_as_written() -> None:
    result = scan_stdin(b"?[...first\r\nsecond]")
    assert [x["input"] for x in result["interactions"]] == ["first\r\nsecond"]


def test_cr_alone_is_a_line_ending_and_is_kept() -> None:
    # A lone CR ends lines: "a", a blank line, then a new paragraph; the choice keeps its CR.
    result = scan_stdin(b"a {{ x\r\r?[A|B\rC]")
    assert result["invalid"] == [{"start": 2, "end": 6, "reason": "unclosed"}]
    assert result["interactions"][0]["start"] == 8
    assert result["interactions"][0]["choices"] == choices("A", "B\rC")


def test_invalid_utf8_reads_as_one_replacement_character_per_bad_sequence() -> None:
    # b"\xe4\xb8" is a truncated three-byte sequence: one U+FFFD, so the marker starts at 1.
    result = scan_stdin(b"\xe4\xb8{{ a }} {{ b\xffc }}")
    assert result["markers"] == [marker(1, 8, "a"), marker(9, 18, "b\ufffdc")]


def test_output_is_utf8_without_ascii_escapes() -> None:
    done = run_mfls("scan", "--json", "-", stdin="{{🚀 rocket}}".encode())
    assert done.returncode == 0
    assert "🚀 rocket".encode() in done.stdout
    assert json.loads(done.stdout)["markers"] == [marker(0, 12, "🚀 rocket")]


def test_a_leading_bom_stays_text_and_counts_as_a_code_point() -> None:
    result = scan_stdin(b"\xef\xbb\xbf{{ a }}")
    assert result["markers"] == [marker(1, 8, "a")]


def test_a_bom_inside_a_key_is_key_content() -> None:
    result = scan_stdin("{{\ufeffa}}".encode())
    assert result["markers"] == [marker(0, 6, "\ufeffa")]


def test_nul_in_a_key_is_a_control_character() -> None:
    result = scan_stdin(b"{{a\x00b}}")
    assert result["markers"] == []
    assert result["invalid"] == [{"start": 0, "end": 7, "reason": "control-character"}]


def test_reading_a_file_gives_the_same_bytes_as_standard_input(tmp_path: Path) -> None:
    data = b"# T\r\n\r\n?[%{{ old }} Yes//y | No//n | ...other]\r\n"
    path = tmp_path / "lesson.md"
    path.write_bytes(data)
    from_file = run_mfls("scan", "--json", str(path))
    from_stdin = run_mfls("scan", "--json", "-", stdin=data)
    assert from_file.returncode == 0
    assert from_file.stdout == from_stdin.stdout
    result = json.loads(from_file.stdout)
    # "# T" 0-3, CRLF, CRLF, the interaction starts at 7; "%{{ old }}" is 9-19.
    assert result["markers"] == [marker(9, 19, "old", "binding", legacy=True)]
    assert result["interactions"] == [
        {
            "start": 7,
            "end": 46,
            "binding": "old",
            "multiple": False,
            "choices": [{"label": "Yes", "value": "y"}, {"label": "No", "value": "n"}],
            "input": "other",
        }
    ]


def test_output_is_one_json_object_and_a_newline() -> None:
    done = run_mfls("scan", "--json", "-", stdin=b"{{ a }}")
    assert done.stdout.endswith(b"}\n")
    assert done.stdout.count(b"\n") == 1


def test_without_json_a_readable_listing() -> None:
    done = run_mfls("scan", "-", stdin="x\n?[{{ q }} A//a | B]\n\n😀 {{ }}".encode())
    assert done.returncode == 0
    listing = done.stdout.decode()
    assert 'markers: 1\n  2:3-2:10  "q"  (binding)' in listing
    assert "invalid: 1\n  4:3-4:8  empty" in listing
    assert 'choice "A" -> "a"' in listing
    assert 'choice "B"\n' in listing


@pytest.mark.parametrize("args", [["scan", "--json", "/no/such/file.md"]])
def test_an_unreadable_path_exits_2_with_a_message(args: list[str]) -> None:
    done = run_mfls(*args)
    assert done.returncode == 2
    assert b"/no/such/file.md" in done.stderr
    assert done.stdout == b""
