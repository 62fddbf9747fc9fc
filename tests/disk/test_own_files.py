"""`mfls.disk.own_files`: a path of mfls's own under a course root is refused when a link
or a non-folder lies on the way (the file itself included)."""

from __future__ import annotations

import os
from pathlib import Path

from mfls.disk.own_files import OWN_FOLDER, own_folder_problem, own_path_problem
from mfls.disk.problems import OUTSIDE

PARTS = (OWN_FOLDER, "rename-journal.json")


def test_a_missing_folder_or_file_may_be_used(tmp_path: Path) -> None:
    assert own_path_problem(tmp_path, PARTS) is None
    assert own_folder_problem(tmp_path) is None
    (tmp_path / OWN_FOLDER).mkdir()
    assert own_path_problem(tmp_path, PARTS) is None
    (tmp_path / OWN_FOLDER / "rename-journal.json").write_text("{}")
    assert own_path_problem(tmp_path, PARTS) is None
    assert own_folder_problem(tmp_path) is None


def test_a_link_anywhere_on_the_way_is_refused_even_one_pointing_inside(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / OWN_FOLDER).symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    for problem in (own_path_problem(tmp_path, PARTS), own_folder_problem(tmp_path)):
        assert problem is not None and problem.kind == OUTSIDE
        assert "is a link" in problem.reason
    os.unlink(tmp_path / OWN_FOLDER)
    (tmp_path / OWN_FOLDER).mkdir()
    (tmp_path / OWN_FOLDER / "rename-journal.json").symlink_to(tmp_path / "elsewhere" / "x")
    problem = own_path_problem(tmp_path, PARTS)
    assert problem is not None and problem.kind == OUTSIDE
    assert own_folder_problem(tmp_path) is None


def test_a_file_where_the_folder_belongs_is_no_folder(tmp_path: Path) -> None:
    (tmp_path / OWN_FOLDER).write_text("not a folder")
    for problem in (own_path_problem(tmp_path, PARTS), own_folder_problem(tmp_path)):
        assert problem is not None and problem.kind != OUTSIDE
        assert "is not a folder" in problem.reason
