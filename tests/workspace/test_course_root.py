import os
from pathlib import Path

from mfls.workspace.course_root import nearest_course_root


def test_nearest_course_root(tmp_path: Path) -> None:
    (tmp_path / "c" / "d").mkdir(parents=True)
    (tmp_path / "c" / "mfcourse.toml").write_text("")
    folder = str(tmp_path / "c" / "d")
    assert nearest_course_root(folder, str(tmp_path)) == str(tmp_path / "c")
    assert nearest_course_root(str(tmp_path), str(tmp_path)) is None


def test_the_search_starts_at_the_directory_itself_and_stops_at_the_boundary(
    tmp_path: Path,
) -> None:
    (tmp_path / "c" / "d").mkdir(parents=True)
    (tmp_path / "c" / "mfcourse.toml").write_text("")
    assert nearest_course_root(str(tmp_path / "c")) == str(tmp_path / "c")
    assert nearest_course_root(str(tmp_path / "c" / "d")) == str(tmp_path / "c")
    assert nearest_course_root(str(tmp_path / "c" / "d"), str(tmp_path / "c" / "d")) is None
    assert nearest_course_root(str(tmp_path), str(tmp_path / "c")) is None


def test_a_fifo_named_like_the_course_file_is_no_course(tmp_path: Path) -> None:
    (tmp_path / "c" / "d").mkdir(parents=True)
    (tmp_path / "c" / "mfcourse.toml").write_text("")
    os.mkfifo(tmp_path / "c" / "d" / "mfcourse.toml")
    assert nearest_course_root(str(tmp_path / "c" / "d")) == str(tmp_path / "c")
