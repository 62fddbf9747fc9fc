"""`PublishSource`: what the publisher (`mfls.lsp.publisher.Source`) asks, answered from
the server's state and its course gate.

Each answer reads the live state once: a round's question is answered from one moment's
workspace snapshot, never from two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from mfls.lsp import to_proto
from mfls.lsp.course_gate import CourseGate
from mfls.lsp.diagnostic_memo import reported_documents, structure_uri
from mfls.lsp.state import ServerState


class PublishSource:
    def __init__(self, state: Callable[[], ServerState], gate: CourseGate) -> None:
        self._state = state  # the server's, which a test may replace
        self._gate = gate

    @property
    def state(self) -> ServerState:
        return self._state()

    def delay(self) -> float:
        return self.state.settings.diagnostic_delay

    def open_documents(self) -> Iterable[str]:
        return list(self.state.buffers)

    def version(self, uri: str) -> int | None:
        buffer = self.state.buffers.get(uri)
        return None if buffer is None else buffer.version

    def ready(self, uri: str) -> bool:
        return self._gate.ready(self.state.workspace.snapshot, uri)

    def diagnostics(self, uri: str) -> list[str]:
        return self.state.snapshot().diagnostics(uri)

    def course_files(self) -> Iterable[tuple[str, bool]]:
        for course in self.state.workspace.snapshot.courses.values():
            uri = to_proto.course_file_uri(course)
            if uri is not None:
                yield uri, bool(course.problems)
            structure = structure_uri(course)  # an AI-Shifu course folder's
            if structure is not None:
                yield structure

    def closed_documents(self, everything: bool, edited: Sequence[str]) -> Iterable[str]:
        """The documents of the courses that changed, when `diagnostics.closedDocuments`
        asks for closed documents."""
        if not self.state.settings.closed_documents:
            return []
        snapshot = self.state.workspace.snapshot
        course_of = snapshot.course_of
        changed = None if everything else [course_of[u] for u in edited if u in course_of]
        return reported_documents(snapshot, changed)

    def keeps_closed(self, uri: str) -> bool:
        state = self.state
        return state.settings.closed_documents and state.workspace.snapshot.entry(uri) is not None

    def checks_versions(self) -> bool:
        return self.state.caps.diagnostic_versions
