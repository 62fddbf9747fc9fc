"""A document factory for workspace tests that records how documents are made."""

from __future__ import annotations

from mfls.syntax.document import Document as _Base
from mfls.syntax.model import ScanResult


class Recorded:
    """Wraps a document and reports every edit applied to it."""

    def __init__(self, inner: _Base, recorder: Recorder) -> None:
        self._inner = inner
        self._recorder = recorder

    @property
    def text(self) -> str:
        return self._inner.text

    def result(self) -> ScanResult:
        return self._inner.result()

    def edited(self, start: int, end: int, new_text: str, version: int | None = None) -> Recorded:
        self._recorder.edits.append((start, end, new_text))
        return Recorded(self._inner.edited(start, end, new_text, version), self._recorder)


class Recorder:
    """A document factory counting full constructions and edits."""

    def __init__(self) -> None:
        self.created: list[str] = []
        self.edits: list[tuple[int, int, str]] = []

    def __call__(self, text: str, version: int | None) -> Recorded:
        self.created.append(text)
        return Recorded(_Base(text, version), self)
