"""`Notices`: what the server tells the author in a message (`window/showMessage`), once
while it lasts: each course file problem (a course over a limit as an error) and each
pending rename journal's message (an interrupted `mfls rename`, with how to finish or
undo it)."""

from __future__ import annotations

from collections.abc import Callable

from lsprotocol import types as t

from mfls.features import diagnostics
from mfls.workspace.index import WorkspaceSnapshot


class Notices:
    def __init__(self, show: Callable[[t.MessageType, str], None]) -> None:
        self._show = show
        self._shown: set[str] = set()
        self.journals: list[str] = []
        """The messages of the pending rename journals found by the last indexing."""

    def report(self, snapshot: WorkspaceSnapshot, language: str) -> None:
        """Show what is new among the course problems of `snapshot` and `journals`."""
        said = diagnostics.config_problem_message
        current: set[str] = set()
        errors: set[str] = set()
        for course in snapshot.courses.values():
            for problem in course.problems:
                text = f"{course.config_path or course.id}: {said(problem, language)}"
                current.add(text)
                if problem.over_limit:
                    errors.add(text)
        current.update(self.journals)
        for text in sorted(current - self._shown):
            kind = t.MessageType.Error if text in errors else t.MessageType.Warning
            self._show(kind, f"mfls: {text}")
        self._shown = current


def pending_journals(
    snapshot: WorkspaceSnapshot, pending_journal: Callable[[str], str | None]
) -> list[str]:
    """The message of each pending rename journal of an indexed course. Read on the
    worker."""
    roots = sorted({c.root for c in snapshot.courses.values() if c.root is not None})
    found = (pending_journal(root) for root in roots)
    return [message for message in found if message is not None]
