"""The disk gateway: every file-system read, listing and write of every layer.

Nothing here blocks on a FIFO or device, raises for a bad file, or logs: each function
returns its value with the problems met, `DiskProblem`s naming each skipped path and
why. Callers decide what to log or show. Modules: `problems` (the data), `reading`
(one file), `listing` (`walk`), `replacing` (all-or-nothing replacement of files, never
over a save made meanwhile), `exchange` (the swap it is built on), `journal` (the rename
journal, so an interrupted rename can be finished or undone), `appending`
(`append_line`: one durable line added to a file, e.g. the rename records), `gateway` (`Disk`, the
reads as an object: `REAL_DISK`), `memory` (`MemoryDisk`, a file tree in memory read
the same way) and `system_load` (how many threads run now, from /proc/loadavg).
"""

from mfls.disk.appending import append_line
from mfls.disk.gateway import REAL_DISK, Disk, RealDisk
from mfls.disk.listing import MAX_DOCUMENTS, SKIPPED_DIRECTORIES, Listing, walk
from mfls.disk.problems import DiskProblem, ReplaceFailure, printable
from mfls.disk.reading import (
    MAX_FILE_BYTES,
    can_list,
    contains,
    exists,
    inside,
    is_directory,
    is_regular_file,
    lexists,
    nearest_holding,
    read_bytes,
    read_prefix,
    read_text,
    real_path,
)
from mfls.disk.replacing import FileChange, Replaced, apply_file_changes, replace_files

__all__ = [
    "MAX_DOCUMENTS",
    "MAX_FILE_BYTES",
    "REAL_DISK",
    "SKIPPED_DIRECTORIES",
    "Disk",
    "DiskProblem",
    "FileChange",
    "Listing",
    "RealDisk",
    "ReplaceFailure",
    "Replaced",
    "append_line",
    "apply_file_changes",
    "can_list",
    "contains",
    "exists",
    "inside",
    "is_directory",
    "is_regular_file",
    "lexists",
    "nearest_holding",
    "printable",
    "read_bytes",
    "read_prefix",
    "read_text",
    "real_path",
    "replace_files",
    "walk",
]
