"""In-memory courses for feature tests: no file is written or read.

`course("a.md", "?[{{ go$0al }} A]", "b.md", "...", config='host = "ai-shifu"')` or
`course({"a.md": "...", "mfcourse.toml": "..."})` indexes the files as one workspace
folder `/course` on a `MemoryDisk`. `$0` marks the cursor (at most one in the course):
it is taken out of the text and its offset is `.offset`, in the document `.cursor_name`.

`no_disk` puts the real file system out of reach (tests/features/conftest.py runs every
feature test under it).
"""

from __future__ import annotations

import builtins
import io
import os
import posixpath
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import NoReturn

from mfls.disk.memory import MemoryDisk
from mfls.workspace.config import COURSE_FILE
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace

ROOT = "/course"
CURSOR = "$0"


class Course:
    """Files indexed from memory under `root`; `folders` (relative to it) are the
    workspace folders, the root itself when none are given."""

    def __init__(
        self,
        files: Mapping[str, str],
        *,
        folders: Iterable[str] = (),
        root: str = ROOT,
    ) -> None:
        self.root = root
        self.cursor_name: str | None = None
        self._offset: int | None = None
        texts: dict[str, str] = {}
        for name, text in files.items():
            at = text.find(CURSOR)
            if at >= 0:
                if self.cursor_name is not None or CURSOR in text[at + len(CURSOR) :]:
                    raise ValueError(f"more than one cursor mark {CURSOR!r} in the course")
                self.cursor_name, self._offset = name, at
                text = text[:at] + text[at + len(CURSOR) :]
            texts[name] = text
        self.disk = MemoryDisk({self.path(name): text for name, text in texts.items()})
        self.workspace = Workspace(disk=self.disk)
        self.workspace.set_folders([self.path(f) for f in folders] or [root])
        self.workspace.index_all()

    @property
    def snapshot(self) -> WorkspaceSnapshot:
        return self.workspace.snapshot

    @property
    def offset(self) -> int:
        """The offset of the cursor mark, in document `cursor_name`."""
        if self._offset is None:
            raise ValueError(f"the course has no cursor mark {CURSOR!r}")
        return self._offset

    @property
    def cursor_uri(self) -> str:
        """The URI of the document holding the cursor mark."""
        if self.cursor_name is None:
            raise ValueError(f"the course has no cursor mark {CURSOR!r}")
        return self.uri(self.cursor_name)

    def path(self, name: str) -> str:
        return posixpath.join(self.root, name)

    def uri(self, name: str) -> str:
        return path_to_uri(self.path(name))

    def text(self, name: str) -> str:
        """The indexed text of document `name`."""
        found = self.snapshot.entry(self.uri(name))
        assert found is not None, name
        return found[1].text

    def offset_of(self, name: str, needle: str, shift: int = 0) -> int:
        """The offset of the first `needle` in document `name`, plus `shift`."""
        return self.text(name).index(needle) + shift


def course(
    *named: str | Mapping[str, str],
    config: str | None = None,
    folders: Iterable[str] = (),
) -> Course:
    """A course from a mapping of names to texts, or from names and texts in turn;
    `config` is the text of its course file."""
    if len(named) == 1 and isinstance(named[0], Mapping):
        files = dict(named[0])
    else:
        if len(named) % 2 or not all(isinstance(part, str) for part in named):
            raise TypeError("give one mapping, or names and texts in turn")
        texts = [str(part) for part in named]
        files = dict(zip(texts[::2], texts[1::2], strict=True))
    if config is not None:
        if COURSE_FILE in files:
            raise ValueError(f"{COURSE_FILE} given twice")
        files[COURSE_FILE] = config
    return Course(files, folders=folders)


GUARDED = (
    (builtins, "open"),
    (io, "open"),
    (os, "open"),
    (os, "scandir"),
    (os, "listdir"),
    (os, "stat"),
    (os, "lstat"),
    (os, "access"),
    (os, "mkdir"),
    (os, "makedirs"),
    (os, "replace"),
    (os, "rename"),
    (os, "remove"),
    (os, "unlink"),
    (os, "getcwd"),
)
"""Every way to the file system `mfls.disk` and `pathlib` take (`os.path` and `pathlib`
go through `os.stat`, `os.lstat`, `os.scandir` and `os.getcwd`)."""


class DiskTouched(AssertionError):
    """A feature test reached the real file system."""


def _refuse(name: str) -> Callable[..., NoReturn]:
    def refused(*args: object, **kwargs: object) -> NoReturn:
        raise DiskTouched(f"a feature test called {name}{args!r}: build the course in memory")

    return refused


@contextmanager
def no_disk() -> Iterator[None]:
    """The file system out of reach while the block runs."""
    saved = [(module, name, getattr(module, name)) for module, name in GUARDED]
    for module, name, _ in saved:
        setattr(module, name, _refuse(f"{module.__name__}.{name}"))
    try:
        yield
    finally:
        for module, name, original in saved:
            setattr(module, name, original)
