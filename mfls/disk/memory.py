"""`MemoryDisk`: a file tree held in memory, read like the real one.

It answers every `Disk` method as `mfls.disk` answers for a tree of regular files and
directories with the same contents: the same listing order and skipped directories, the
same limits, and the same problems, worded the same. There are no links, FIFOs or
permissions in it, so the problems that only those cause never arise.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Collection, Iterable, Iterator, Mapping
from typing import Final

from mfls.disk.listing import MAX_DOCUMENTS, SKIPPED_DIRECTORIES, Collector, Listing
from mfls.disk.problems import GONE, LIMIT, OUTSIDE, DiskProblem
from mfls.disk.reading import MAX_FILE_BYTES, inside, utf8_text

_DIRECTORY: Final = None
"""The value of a directory in the tree (files hold their bytes)."""


def _encoded(content: str | bytes) -> bytes:
    """Bytes as given; text as UTF-8, where a lone surrogate makes the bytes invalid UTF-8
    (as it would be in a file written from it) instead of raising."""
    if isinstance(content, bytes):
        return content
    return content.encode("utf-8", errors="surrogatepass")


class MemoryDisk:
    """An in-memory tree of files (`files`: path -> text or bytes) and directories.

    Relative paths, in `files` and in every call, are taken from `base` (the tree's
    current directory); every ancestor of a file is a directory, and `directories` adds
    empty ones. `put` and `remove` change the tree, as an editor's saves would.
    """

    __slots__ = ("_base", "_children", "_nodes")

    def __init__(
        self,
        files: Mapping[str, str | bytes] | None = None,
        *,
        directories: Iterable[str] = (),
        base: str = os.sep,
    ) -> None:
        self._base = os.path.normpath(os.path.join(os.sep, base))
        self._nodes: dict[str, bytes | None] = {os.sep: _DIRECTORY}
        self._children: dict[str, set[str]] = {os.sep: set()}
        for directory in directories:
            self._make_directory(self._absolute(directory))
        for path, content in (files or {}).items():
            self.put(path, content)

    # -- changing the tree ------------------------------------------------------------

    def put(self, path: str, content: str | bytes) -> None:
        """Write the file `path`, making its directories; a directory there is an error."""
        absolute = self._absolute(path)
        if self._nodes.get(absolute, b"") is _DIRECTORY:
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        self._make_directory(os.path.dirname(absolute))
        self._link(absolute)
        self._nodes[absolute] = _encoded(content)

    def remove(self, path: str) -> None:
        """Delete the file or the whole directory `path`; nothing there is no error."""
        absolute = self._absolute(path)
        if absolute == os.sep or absolute not in self._nodes:
            return
        for gone in list(self._subtree(absolute)):
            del self._nodes[gone]
            self._children.pop(gone, None)
        self._children[os.path.dirname(absolute)].discard(os.path.basename(absolute))

    def _make_directory(self, absolute: str) -> None:
        if self._nodes.get(absolute, b"") is _DIRECTORY:
            return
        if absolute in self._nodes:
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), absolute)
        self._make_directory(os.path.dirname(absolute))
        self._link(absolute)
        self._nodes[absolute] = _DIRECTORY
        self._children[absolute] = set()

    def _link(self, absolute: str) -> None:
        self._children[os.path.dirname(absolute)].add(os.path.basename(absolute))

    def _subtree(self, absolute: str) -> Iterator[str]:
        yield absolute
        for name in self._children.get(absolute, ()):
            yield from self._subtree(os.path.join(absolute, name))

    # -- finding paths ----------------------------------------------------------------

    def _absolute(self, path: str) -> str:
        """The normal absolute form of `path` (links do not exist, so `..` just goes up)."""
        return os.path.normpath(os.path.join(self._base, path))

    def _node(self, path: str) -> tuple[str, bytes | None] | DiskProblem:
        """The absolute path and content (None for a directory) of `path`, or the problem
        the real gateway reports for a path with nothing there."""
        if "\0" in path:
            return DiskProblem(path, "unreadable (its name holds a NUL)")
        absolute = self._absolute(path)
        parent = os.path.dirname(absolute)
        while parent not in self._nodes:
            parent = os.path.dirname(parent)
        if self._nodes[parent] is not _DIRECTORY:
            return DiskProblem(path, f"unreadable ({os.strerror(errno.ENOTDIR)})")
        if absolute not in self._nodes:
            return DiskProblem(path, "it no longer exists", GONE)
        return absolute, self._nodes[absolute]

    def _file(self, path: str, root: str | None) -> bytes | DiskProblem:
        if (
            root is not None
            and "\0" not in path
            and not inside(self._absolute(path), self._absolute(root))
        ):
            return DiskProblem(path, f"it resolves outside the course root {root}", OUTSIDE)
        found = self._node(path)
        if isinstance(found, DiskProblem):
            return found
        content = found[1]
        if content is None:
            return DiskProblem(path, "not a regular file (a directory)")
        return content

    # -- reading ----------------------------------------------------------------------

    def read_bytes(
        self, path: str, root: str | None = None, max_bytes: int = MAX_FILE_BYTES
    ) -> tuple[bytes | None, tuple[DiskProblem, ...]]:
        found = self._file(path, root)
        if isinstance(found, DiskProblem):
            return None, (found,)
        if len(found) > max_bytes:
            return None, (
                DiskProblem(path, f"{len(found)} bytes is over the {max_bytes}-byte limit", LIMIT),
            )
        return found, ()

    def read_prefix(
        self, path: str, root: str | None = None, max_bytes: int = MAX_FILE_BYTES
    ) -> tuple[bytes | None, tuple[DiskProblem, ...]]:
        found = self._file(path, root)
        if isinstance(found, DiskProblem):
            return None, (found,)
        return found[: max_bytes + 1], ()

    def read_text(
        self, path: str, root: str | None = None, max_bytes: int = MAX_FILE_BYTES
    ) -> tuple[str | None, tuple[DiskProblem, ...]]:
        return utf8_text(path, *self.read_bytes(path, root, max_bytes))

    def contains(self, path: str, needle: bytes, root: str | None = None) -> bool | None:
        found = self._file(path, root)
        return None if isinstance(found, DiskProblem) else needle in found

    # -- listing ----------------------------------------------------------------------

    def walk(
        self, root: str, max_files: int = MAX_DOCUMENTS, *, landmarks: Collection[str] = ()
    ) -> tuple[Listing, tuple[DiskProblem, ...]]:
        """The files under `root` in the order and with the limit of `mfls.disk.walk`."""
        collected = Collector(root, max_files, landmarks)
        problems = collected.problems
        pending = [root]
        while pending:
            directory = pending.pop()
            node = self._node(directory)
            if isinstance(node, DiskProblem) or node[1] is not _DIRECTORY:
                problems.append(DiskProblem(directory, f"cannot list it ({_why_unlisted(node)})"))
                continue
            subdirectories: list[str] = []
            for name in sorted(self._children[node[0]]):
                path = os.path.join(directory, name)
                if self._nodes[os.path.join(node[0], name)] is _DIRECTORY:
                    if not name.startswith(".") and name not in SKIPPED_DIRECTORIES:
                        subdirectories.append(path)
                else:
                    collected.add(name, path)
            pending.extend(reversed(subdirectories))
        return collected.result()

    # -- what is where ----------------------------------------------------------------

    def _kind(self, path: str) -> bytes | bool | None:
        """The node at `path` (bytes or `_DIRECTORY`), or False when there is none."""
        found = self._node(path)
        return False if isinstance(found, DiskProblem) else found[1]

    def exists(self, path: str) -> bool:
        return self._kind(path) is not False

    def lexists(self, path: str) -> bool:
        return self.exists(path)

    def is_regular_file(self, path: str) -> bool:
        return isinstance(self._kind(path), bytes)

    def is_directory(self, path: str) -> bool:
        return self._kind(path) is _DIRECTORY

    def can_list(self, path: str) -> bool:
        return self.is_directory(path)

    def nearest_holding(self, directory: str, name: str, boundary: str | None = None) -> str | None:
        """The nearest of `directory` and its ancestors, up to `boundary`, holding a regular
        file called `name`."""
        for candidate in _upwards(directory, boundary):
            if self.is_regular_file(os.path.join(candidate, name)):
                return candidate
        return None

    def real_path(self, path: str) -> str:
        """`path` made absolute (a memory tree has no links)."""
        return self._absolute(path)


def _why_unlisted(node: tuple[str, bytes | None] | DiskProblem) -> str:
    """The reason the real `walk` gives for a directory it cannot list."""
    if not isinstance(node, DiskProblem):
        return os.strerror(errno.ENOTDIR)
    if "\0" in node.path:
        return "embedded null byte"
    if node.reason.endswith(f"({os.strerror(errno.ENOTDIR)})"):
        return os.strerror(errno.ENOTDIR)
    return os.strerror(errno.ENOENT)


def _upwards(directory: str, boundary: str | None) -> Iterator[str]:
    """`directory`, then each parent, while inside `boundary` (up to the top without one)."""
    while boundary is None or inside(directory, boundary):
        yield directory
        parent = os.path.dirname(directory)
        if directory == boundary or parent == directory:
            return
        directory = parent
