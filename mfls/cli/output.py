"""What the command line writes: standard output as UTF-8, log lines on stderr, and
places in a text as a terminal shows them (1-based lines, code point columns).

Every path the command line prints goes through `shown` (and every message line through
`say` or `shown`): a file name holding a line break, a carriage return, an escape
sequence or another C0/C1 control, or bytes that are not UTF-8, is printed with escapes,
so no name can forge an output line or send a control sequence to the terminal."""

from __future__ import annotations

import logging
import sys

from mfls.disk import printable
from mfls.text.line_index import Encoding, LineIndex


def shown(text: str) -> str:
    """A path, or a one-line message naming paths, safe for the terminal: control
    characters, line breaks and undecodable bytes escaped (`\\n`, `\\x1b`, `\\xff`)."""
    return printable(text)


def decoded(text: str) -> str:
    """`text` with each undecodable byte (a lone surrogate, as `os.fsdecode` keeps it)
    written `\\xNN`, and nothing else changed: safe to encode as UTF-8 in JSON."""
    if not any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        return text
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        if 0xDC80 <= code <= 0xDCFF:
            out.append(f"\\x{code - 0xDC00:02x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def say(command: str, message: str) -> None:
    """`mfls COMMAND: message` on stderr, as one escaped line."""
    print(f"mfls {command}: {shown(message)}", file=sys.stderr)


class _EscapingFormatter(logging.Formatter):
    """Log lines whose message (which may name paths) is escaped like `shown`."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = shown(record.message)
        return super().formatMessage(record)


class _StderrHandler(logging.StreamHandler):
    """The one handler `configure_stderr` adds, however often it is called."""


def write_stdout(text: str) -> None:
    """`text` on standard output in UTF-8; a lone surrogate is written as it came in."""
    sys.stdout.buffer.write(text.encode("utf-8", errors="surrogatepass"))
    sys.stdout.buffer.flush()


def write_stdout_bytes(data: bytes) -> None:
    """`data` (UTF-8 text already) on standard output as it is."""
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def configure_stderr(level: int) -> None:
    """stderr for mfls at `level`; pygls's own chatter at WARNING. Never stdout."""
    root = logging.getLogger()
    if not any(isinstance(h, _StderrHandler) for h in root.handlers):
        handler = _StderrHandler(sys.stderr)
        handler.setFormatter(_EscapingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
    root.setLevel(logging.WARNING)
    logging.getLogger("mfls").setLevel(level)
    logging.getLogger("pygls").setLevel(logging.WARNING)


def place(index: LineIndex, offset: int) -> tuple[int, int]:
    """The 1-based line and 1-based code point column of `offset`."""
    line, column = index.position(offset, Encoding.UTF32)
    return line + 1, column + 1
