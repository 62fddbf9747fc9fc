"""`running_now` reads Linux's count of runnable threads, and says None without it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mfls.disk import system_load
from mfls.disk.system_load import running_now


@pytest.mark.skipif(not os.path.exists("/proc/loadavg"), reason="no /proc/loadavg here")
def test_this_thread_is_running() -> None:
    found = running_now()
    assert found is not None and found >= 1


def test_no_file_or_an_odd_one_is_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(system_load, "LOADAVG", str(tmp_path / "missing"))
    assert running_now() is None
    odd = tmp_path / "loadavg"
    odd.write_bytes(b"0.5 0.4 0.3 many/100 42\n")
    monkeypatch.setattr(system_load, "LOADAVG", str(odd))
    assert running_now() is None
    odd.write_bytes(b"0.5 0.4 0.3 3/100 42\n")
    assert running_now() == 3
