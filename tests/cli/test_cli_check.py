"""`mfls check`: output format, exit codes, JSON, and course diagnostics as in the editor."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from tests.kit.cli import mfls

LINE = re.compile(
    r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<sev>error|warning|information|hint) (?P<code>[a-z-]+) (?P<msg>.+)$"
)


def check(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return mfls("check", *args, cwd=cwd)


def parsed(stdout: str) -> list[dict[str, str]]:
    rows = []
    for line in stdout.splitlines():
        match = LINE.match(line)
        assert match, f"not in path:line:col: severity code message form: {line!r}"
        rows.append(match.groupdict())
    return rows


def test_columns_are_code_points_after_emoji_and_crlf(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes("# T\r\n\r\n😀😀 {{ }} and {{ x\r\n".encode())
    done = check("a.md", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    rows = parsed(done.stdout)
    assert [(r["path"], r["line"], r["col"], r["sev"], r["code"]) for r in rows] == [
        ("a.md", "3", "4", "error", "marker-empty"),
        ("a.md", "3", "14", "error", "marker-unclosed"),
    ]


def test_a_clean_course_exits_0_with_no_output(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("?[{{ q }} A | B]\n\nUse {{ q }}.\n")
    done = check(str(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout == ""


def test_warnings_alone_exit_0(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("Use {{ nobody asked }}.\n")
    done = check(str(tmp_path / "a.md"))
    assert done.returncode == 0
    (row,) = parsed(done.stdout)
    assert (row["sev"], row["code"]) == ("warning", "unbound-reference")
    assert "nobody asked" in row["msg"]


def test_folders_are_walked_and_course_diagnostics_cross_files(tmp_path: Path) -> None:
    course = tmp_path / "course"
    (course / "lessons").mkdir(parents=True)
    (course / "mfcourse.toml").write_text(
        'host = "ai-shifu"\nlessons = ["lessons/*.md"]\n'
        '[diagnostics]\nread-before-asked = "warning"\n'
    )
    (course / "lessons" / "01.md").write_text("Hello {{ name }} and {{ sys_user_nickname }}.\n")
    (course / "lessons" / "02.md").write_text("?[%{{name}} ...your name]\n\n?[{{ sys_x }} A | B]\n")
    done = check("course", cwd=tmp_path)
    assert done.returncode == 1
    rows = parsed(done.stdout)
    assert [(r["path"], r["line"], r["col"], r["sev"], r["code"]) for r in rows] == [
        ("course/lessons/01.md", "1", "7", "warning", "read-before-asked"),
        ("course/lessons/02.md", "3", "3", "error", "reserved-key-binding"),
    ]


def test_a_file_inside_a_course_is_checked_against_the_whole_course(tmp_path: Path) -> None:
    (tmp_path / "mfcourse.toml").write_text("")
    (tmp_path / "01.md").write_text("?[{{ name }} ...your name]\n")
    (tmp_path / "02.md").write_text("Hello {{ name }}.\n")
    done = check(str(tmp_path / "02.md"))
    assert done.returncode == 0
    assert done.stdout == ""


def test_a_malformed_course_file_is_reported_and_defaults_apply(tmp_path: Path) -> None:
    (tmp_path / "mfcourse.toml").write_text('name = "open\n')
    (tmp_path / "a.md").write_text("?[{{ q }} A | B]\n")
    done = check(".", cwd=tmp_path)
    assert done.returncode == 1
    (row,) = parsed(done.stdout)
    assert (row["path"], row["line"], row["sev"], row["code"]) == (
        "mfcourse.toml",
        "1",
        "error",
        "course-file-invalid",
    )


def test_an_unclosed_array_in_the_course_file_is_reported_on_its_line(tmp_path: Path) -> None:
    (tmp_path / "mfcourse.toml").write_text('name = "x"\nhost = [\n\n# the end\n')
    (tmp_path / "a.md").write_text("x\n")
    done = check(".", cwd=tmp_path)
    assert done.returncode == 1
    (row,) = parsed(done.stdout)
    assert (row["path"], row["line"], row["col"], row["code"]) == (
        "mfcourse.toml",
        "2",
        "1",
        "course-file-invalid",
    )


def test_unreadable_paths_exit_2_and_the_rest_is_still_checked(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("{{}}\n")
    done = check("missing.md", "a.md", cwd=tmp_path)
    assert done.returncode == 2
    assert "missing.md" in done.stderr
    assert [r["code"] for r in parsed(done.stdout)] == ["marker-empty"]


def test_usage_errors_exit_2() -> None:
    done = check()
    assert done.returncode == 2
    assert "usage" in done.stderr


def test_invalid_utf8_is_read_with_replacement_characters(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_bytes(b"\xff\xfe {{ }}\n")
    done = check("a.md", cwd=tmp_path)
    (row,) = parsed(done.stdout)
    assert (row["line"], row["col"], row["code"]) == ("1", "4", "marker-empty")


def test_json_format(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(
        "x\n\n%{{ old }} {{ }}\n".replace("%{{ old }}", "?[%{{ old }} A]")
    )
    done = check("--format", "json", "a.md", cwd=tmp_path)
    assert done.returncode == 1
    payload = json.loads(done.stdout)
    assert payload["unreadable"] == []
    assert payload["checked"] == 1
    assert [(d["code"], d["severity"], d["line"], d["column"]) for d in payload["diagnostics"]] == [
        ("legacy-binding", "hint", 3, 3),
        ("marker-empty", "error", 3, 17),
    ]
    first = payload["diagnostics"][0]
    assert first["path"] == "a.md"
    assert (first["endLine"], first["endColumn"]) == (3, 13)
    assert "{{ old }}" in first["message"]
