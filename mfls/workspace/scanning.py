"""`Scanner`: texts read from disk made into index documents, and the document type of
open buffers.

A closed document is a `DiskDocument` (its text and `scan_markers`), scanned by `jobs`
processes when there are many (`parallel.scan_texts`); an open buffer is an incremental
`Document` (`mfls.syntax.document`) unless another factory is given, which then makes
the closed documents too.
"""

from __future__ import annotations

from collections.abc import Iterator

from mfls.syntax.scanner import scan_markers
from mfls.workspace.index import DiskDocument, ScannedDocument
from mfls.workspace.open_buffers import DocumentFactory
from mfls.workspace.parallel import scan_texts


def _default_factory() -> DocumentFactory:
    from mfls.syntax.document import Document

    return Document


class Scanner:
    def __init__(self, factory: DocumentFactory | None, jobs: int | None) -> None:
        """`jobs`: how many processes may scan many texts at once; None: as many as pay
        (`parallel.scan_texts`)."""
        self._light = factory is None
        self.factory: DocumentFactory = factory or _default_factory()
        self._jobs = jobs

    def one(self, text: str) -> ScannedDocument:
        if self._light:
            return DiskDocument(text, scan_markers(text))
        return DiskDocument(text, self.factory(text, None).result())

    def many(self, texts: list[str]) -> Iterator[ScannedDocument]:
        """`one` of each of `texts`, in order."""
        if not self._light:
            yield from map(self.one, texts)
            return
        for text, result in zip(texts, scan_texts(texts, self._jobs), strict=True):
            yield DiskDocument(text, result)
