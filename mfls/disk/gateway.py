"""`Disk`: the gateway as an object, so a caller can be handed another file tree.

The workspace reads through a `Disk` it is given: `REAL_DISK` (the functions of
`mfls.disk`) by default, or a `mfls.disk.memory.MemoryDisk` holding a course in memory.
Each method has the signature and meaning of the module function of the same name.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final, Protocol

from mfls.disk import listing, reading
from mfls.disk.listing import MAX_DOCUMENTS, Listing
from mfls.disk.problems import DiskProblem
from mfls.disk.reading import MAX_FILE_BYTES


class Disk(Protocol):
    """What can be read and listed of a file tree; nothing raises for a bad file."""

    def read_bytes(
        self, path: str, root: str | None = None, max_bytes: int = MAX_FILE_BYTES
    ) -> tuple[bytes | None, tuple[DiskProblem, ...]]: ...

    def read_prefix(
        self, path: str, root: str | None = None, max_bytes: int = MAX_FILE_BYTES
    ) -> tuple[bytes | None, tuple[DiskProblem, ...]]: ...

    def read_text(
        self, path: str, root: str | None = None, max_bytes: int = MAX_FILE_BYTES
    ) -> tuple[str | None, tuple[DiskProblem, ...]]: ...

    def contains(self, path: str, needle: bytes, root: str | None = None) -> bool | None: ...

    def walk(
        self, root: str, max_files: int = MAX_DOCUMENTS, *, landmarks: Collection[str] = ()
    ) -> tuple[Listing, tuple[DiskProblem, ...]]: ...

    def exists(self, path: str) -> bool: ...

    def lexists(self, path: str) -> bool: ...

    def is_regular_file(self, path: str) -> bool: ...

    def is_directory(self, path: str) -> bool: ...

    def can_list(self, path: str) -> bool: ...

    def nearest_holding(
        self, directory: str, name: str, boundary: str | None = None
    ) -> str | None: ...

    def real_path(self, path: str) -> str: ...


class RealDisk:
    """The real file system, through the functions of `mfls.disk`."""

    __slots__ = ()

    read_bytes = staticmethod(reading.read_bytes)
    read_prefix = staticmethod(reading.read_prefix)
    read_text = staticmethod(reading.read_text)
    contains = staticmethod(reading.contains)
    walk = staticmethod(listing.walk)
    exists = staticmethod(reading.exists)
    lexists = staticmethod(reading.lexists)
    is_regular_file = staticmethod(reading.is_regular_file)
    is_directory = staticmethod(reading.is_directory)
    can_list = staticmethod(reading.can_list)
    nearest_holding = staticmethod(reading.nearest_holding)
    real_path = staticmethod(reading.real_path)


REAL_DISK: Final[Disk] = RealDisk()
"""The gateway every caller uses unless it is handed another `Disk`."""
