"""The in-memory courses of the feature tests, now `tests.kit.course`: re-exported for
the test modules that still import them by this name."""

from tests.kit.course import (
    CURSOR,
    GUARDED,
    ROOT,
    Course,
    DiskTouched,
    course,
    no_disk,
)

__all__ = ["CURSOR", "GUARDED", "ROOT", "Course", "DiskTouched", "course", "no_disk"]
