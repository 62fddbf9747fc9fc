"""The server's stdout pipe is enlarged, so that a large publish is one write."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from mfls.lsp.wire import PIPE_BYTES, grow_pipe


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="F_SETPIPE_SZ is Linux's")
def test_a_pipe_grows_to_a_megabyte_or_the_system_limit() -> None:
    read, write = os.pipe()
    with os.fdopen(read, "rb") as reader, os.fdopen(write, "wb") as writer:
        limit = int(Path("/proc/sys/fs/pipe-max-size").read_text())
        size = grow_pipe(writer)
        assert size is not None and size >= min(PIPE_BYTES, limit)
        writer.write(b"x" * min(size, PIPE_BYTES))  # fits: would block on a 64 kB pipe
        writer.flush()
        assert len(reader.read1(PIPE_BYTES)) > 0


def test_what_is_no_pipe_is_left_alone(tmp_path: Path) -> None:
    assert grow_pipe(io.BytesIO()) is None
    with open(tmp_path / "file", "wb") as file:
        assert grow_pipe(file) is None
