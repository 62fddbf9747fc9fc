"""`mfls check --jobs N`: worker processes change how long a check takes, never what it
prints or its exit status."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from mfls.workspace.parallel import PARALLEL_MIN_CHARS
from tests.ai_shifu_exports import shared_exports
from tests.kit.cli import mfls_bytes

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

PIECES = (
    "# Lesson {n}\n\n?[%{{{{ goal {n} }}}} Learn//learn | Practise | ...Other]\n\n",
    "Recall {{{{ goal {m} }}}}, {{{{ goal{m} }}}} and {{{{ nobody {n} }}}} in a long line. ",
    'A `{{{{ code {n} }}}}` span, [link]({{{{ url }}}} "{{{{ title {m} }}}}"), {{{{ }}}}.\n\n',
    "- item {{{{ level }}}}\n  > quote {{{{ goal {n} }}}}\n\n",
    "<div>\n{{{{ html {n} }}}}\n</div>\n\n```{{{{ info }}}}\n{{{{ not a marker }}}}\n```\n\n",
    "?[{{{{ level }}}} Beginner || Expert]\r\n\r\n",
    "Spaces {{{{ a\nb }}}} après 😀 {{{{ goal {m} }}}}\n\n",
)


def big_course(root: Path) -> None:
    """A course of more text than `PARALLEL_MIN_CHARS`, with every kind of finding."""
    (root / "mfcourse.toml").write_text('name = "jobs"\n', encoding="utf-8")
    total, n = 0, 0
    while total <= PARALLEL_MIN_CHARS * 1.2:
        parts, size, i = [], 0, 0
        while size < 20_000:
            piece = PIECES[i % len(PIECES)].format(n=n, m=(n * 7 + i) % 300)
            parts.append(piece)
            size += len(piece)
            i += 1
        if n % 50 == 7:
            parts.append("Unclosed {{ at the end")
        text = "".join(parts)
        (root / f"lesson-{n:04d}.md").write_bytes(text.encode("utf-8"))
        total += len(text)
        n += 1


def check(*args: str) -> subprocess.CompletedProcess[bytes]:
    return mfls_bytes("check", *args, timeout=600)


def test_jobs_1_and_2_print_the_same_on_a_big_course(tmp_path: Path) -> None:
    big_course(tmp_path)
    one = check("--jobs", "1", str(tmp_path))
    two = check("--jobs", "2", str(tmp_path))
    assert one.returncode == 1, one.stderr
    assert two.returncode == one.returncode, two.stderr
    assert one.stdout.count(b"\n") > 10_000
    assert two.stdout == one.stdout
    assert two.stderr == one.stderr == b""


@pytest.mark.parametrize("output", ["text", "json"])
def test_jobs_1_and_2_print_the_same_on_the_examples(output: str) -> None:
    one = check("--format", output, "--jobs", "1", str(EXAMPLES))
    two = check("--format", output, "--jobs", "2", str(EXAMPLES))
    default = check("--format", output, str(EXAMPLES))
    assert one.stdout
    assert (two.returncode, two.stdout, two.stderr) == (one.returncode, one.stdout, one.stderr)
    assert (default.returncode, default.stdout) == (one.returncode, one.stdout)


@pytest.mark.parametrize("jobs", ["0", "-1", "two"])
def test_jobs_must_be_a_positive_number(tmp_path: Path, jobs: str) -> None:
    done = check("--jobs", jobs, str(tmp_path))
    assert done.returncode == 2
    assert b"--jobs" in done.stderr


def test_a_small_course_is_checked_without_loading_multiprocessing(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("?[{{ q }} A | B]\n\nUse {{ q }} and {{ }}.\n")
    probe = (
        "import sys\nfrom mfls.cli import main\nstatus = main(['check', sys.argv[1]])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('multiprocessing', 'concurrent')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, timeout=120
    )
    assert done.stdout.splitlines()[-1] == "[]", done.stdout + done.stderr


SILENCING = (
    "<!-- mfls-disable-next-line unbound-reference -->\n"
    "Read {{{{ nobody {n} }}}} and {{{{ goal {n} }}}}.\n\n"
    "<!-- mfls-disable near-miss -->\nRecall {{{{ goal{n} }}}}.\n<!-- mfls-enable near-miss -->\n\n"
    "<!-- mfls-disable-next-line read-before-asked -->\nNothing to silence here.\n\n"
    "?[{{{{ goal {n} }}}} A | B]\n"
)


@pytest.mark.parametrize("output", ["json", "sarif"])
def test_forked_copies_keep_the_suppressed_findings_and_their_order(
    tmp_path: Path, output: str
) -> None:
    (tmp_path / "mfcourse.toml").write_text('name = "silenced"\n', encoding="utf-8")
    for n in range(9):
        (tmp_path / f"l{n}.md").write_text(SILENCING.format(n=n), encoding="utf-8")
    one = check("--format", output, "--jobs", "1", str(tmp_path))
    assert b"suppress" in one.stdout
    for jobs in ("2", "3", "20"):
        more = check("--format", output, "--jobs", jobs, str(tmp_path))
        assert (more.returncode, more.stdout, more.stderr) == (
            one.returncode,
            one.stdout,
            one.stderr,
        )


def test_an_error_only_in_a_copys_documents_is_the_exit_status(tmp_path: Path) -> None:
    """The text report's lines of later documents come from forked copies as text: their
    errors still make the exit status 1."""
    (tmp_path / "mfcourse.toml").write_text('name = "late error"\n', encoding="utf-8")
    for n in range(6):
        (tmp_path / f"l{n}.md").write_text(f"?[{{{{ q{n} }}}} A | B]\n\n{{{{ q{n} }}}}\n")
    (tmp_path / "l9.md").write_text("A marker {{ bad\u0001key }} at the end.\n")
    one = check("--jobs", "1", str(tmp_path))
    assert one.returncode == 1
    assert one.stdout.count(b" error ") == 1
    for jobs in ("2", "4"):
        more = check("--jobs", jobs, str(tmp_path))
        assert (more.returncode, more.stdout, more.stderr) == (1, one.stdout, one.stderr)


def test_an_export_before_a_course_keeps_the_text_report_in_order(tmp_path: Path) -> None:
    """The lines forked copies write come after the findings before them in the report,
    here an export's, checked first."""
    exports = shared_exports()
    if exports is None:
        pytest.skip("the real AI-Shifu exports are not here")
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "mfcourse.toml").write_text('name = "after"\n', encoding="utf-8")
    for n in range(8):
        lesson = tmp_path / "course" / f"l{n}.md"
        lesson.write_text(f"Read {{{{ unknown {n} }}}} and {{{{ other }}}}.\n", encoding="utf-8")
    export = str(sorted(exports.glob("*.json"))[0])
    one = check("--jobs", "1", export, str(tmp_path / "course"))
    assert one.stdout.count(b"unbound-reference") >= 8
    for jobs in ("2", "3"):
        more = check("--jobs", jobs, export, str(tmp_path / "course"))
        assert (more.returncode, more.stdout) == (one.returncode, one.stdout)


IN_COPIES = (
    "import logging, os, sys\n"
    "from mfls.cli import main\n"
    "from mfls.cli import check_documents\n"
    "parent, made = os.getpid(), check_documents.document_findings\n"
)
"""The prelude of a hook on the documents' findings, made in every process."""

COPIES_DIE = IN_COPIES + (
    "def dying(*args, **kwargs):\n"
    "    if os.getpid() != parent:\n"
    "        os._exit(7)\n"
    "    return made(*args, **kwargs)\n"
    "check_documents.document_findings = dying\n"
)


def test_copies_that_die_mid_check_change_nothing_printed(tmp_path: Path) -> None:
    """The copies forked by the scan die before their documents' findings: this process
    makes them, and says that a copy failed."""
    (tmp_path / "mfcourse.toml").write_text('name = "copies die"\n', encoding="utf-8")
    for n in range(8):
        (tmp_path / f"l{n}.md").write_text(f"?[{{{{ q{n} }}}} A | B]\n\n{{{{ q{n + 1} }}}}\n")
    one = check("--jobs", "1", str(tmp_path))
    assert one.stdout.count(b"read-before-asked") == 7
    for jobs in ("2", "3"):
        died = mfls_bytes("check", "--jobs", jobs, str(tmp_path), code=COPIES_DIE)
        assert (died.returncode, died.stdout) == (one.returncode, one.stdout)
        assert died.stderr.count(b"a forked process failed (status 7)") == int(jobs) - 1


COPIES_SPEAK = IN_COPIES + (
    "def speaking(*args, **kwargs):\n"
    "    who = 'parent' if os.getpid() == parent else 'copy'\n"
    "    print(who, 'prints')\n"
    "    os.write(1, who.encode() + b' writes\\n')\n"
    "    os.write(2, who.encode() + b' writes on errors\\n')\n"
    "    logging.getLogger('mfls').warning('%s logs', who)\n"
    "    return made(*args, **kwargs)\n"
    "check_documents.document_findings = speaking\n"
)


def test_copies_write_nothing_on_the_terminal(tmp_path: Path) -> None:
    """A copy's output, its errors and its log (through the handler made before the
    fork) go nowhere: only this process's reach the terminal."""
    (tmp_path / "mfcourse.toml").write_text('name = "copies speak"\n', encoding="utf-8")
    for n in range(4):
        (tmp_path / f"l{n}.md").write_text(f"?[{{{{ q{n} }}}} A | B]\n")
    done = mfls_bytes("check", "--jobs", "3", str(tmp_path), code=COPIES_SPEAK)
    assert done.returncode == 0, done.stderr
    assert b"copy" not in done.stdout + done.stderr
    assert done.stdout.count(b"parent prints") == done.stdout.count(b"parent writes") > 0
    assert done.stderr.count(b"parent logs") == done.stderr.count(b"parent writes on") > 0
