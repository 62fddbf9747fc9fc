"""Code lenses: above each binding of a lesson, how often the course reads its answer."""

from __future__ import annotations

from dataclasses import dataclass

from mfls.features.facts import facts_of
from mfls.features.messages import EN, counted, say
from mfls.features.navigation import Location
from mfls.workspace.index import WorkspaceSnapshot


@dataclass(frozen=True)
class Lens:
    start: int  # the binding's key
    end: int
    key: str
    title: str
    reads: tuple[Location, ...]  # the references counted in `title`, in course order


def lens_title(reads: int, documents: int, all_lessons: bool, language: str = EN) -> str:
    """`asked here · read 3 times in 2 lessons` (`documents` when a reference document
    reads it too); `asked here · not read yet` when nothing reads it."""
    if reads == 0:
        return say(language, "lens.unread")
    where = counted(language, "lens.lessons" if all_lessons else "lens.documents", documents)
    return say(language, "lens.read", times=counted(language, "lens.times", reads), where=where)


def code_lenses(snapshot: WorkspaceSnapshot, uri: str, language: str = EN) -> list[Lens]:
    """One lens per binding (one the course target's runtime saves) of a lesson. The
    reads are the references the host substitutes, as hover counts them."""
    found = snapshot.entry(uri)
    if found is None:
        return []
    course, entry = found
    if entry.kind != "lesson":
        return []
    substituted = facts_of(course).substituted
    lenses: list[Lens] = []
    summaries: dict[str, tuple[str, tuple[Location, ...]]] = {}
    for key, markers in entry.keys.bindings.items():
        summary = summaries.get(key)
        if summary is None:
            reads = sorted(
                (o for o in course.references.get(key, ()) if substituted(o.marker)),
                key=course.position,
            )
            documents = {o.uri for o in reads}
            all_lessons = all(course.docs[d].kind == "lesson" for d in documents)
            summary = (
                lens_title(len(reads), len(documents), all_lessons, language),
                tuple(Location(o.uri, o.marker.key_start, o.marker.key_end) for o in reads),
            )
            summaries[key] = summary
        title, locations = summary
        lenses.extend(Lens(m.key_start, m.key_end, key, title, locations) for m in markers)
    lenses.sort(key=lambda lens: lens.start)
    return lenses
