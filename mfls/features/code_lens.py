"""Code lenses: above each binding of a lesson, how often the course reads its answer."""

from __future__ import annotations

from dataclasses import dataclass

from mfls.features.facts import facts_of
from mfls.features.messages import EN, counted, say
from mfls.features.navigation import Location
from mfls.workspace.index import CourseSnapshot, WorkspaceSnapshot


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


@dataclass(frozen=True)
class Reads:
    """The reads of a key's answer: the references the host substitutes, as hover counts
    them, in course order."""

    places: tuple[Location, ...]
    documents: int  # how many documents hold them
    all_lessons: bool  # every one of those documents is a lesson


def reads_of(course: CourseSnapshot, key: str) -> Reads:
    reads = sorted(facts_of(course).reading(key), key=course.position)
    documents = {o.uri for o in reads}
    return Reads(
        tuple(Location(o.uri, o.marker.key_start, o.marker.key_end) for o in reads),
        len(documents),
        all(course.docs[d].kind == "lesson" for d in documents),
    )


def code_lenses(snapshot: WorkspaceSnapshot, uri: str, language: str = EN) -> list[Lens]:
    """One lens per binding (one the course target's runtime saves) of a lesson, counting
    its key's reads (`reads_of`)."""
    found = snapshot.entry(uri)
    if found is None:
        return []
    course, entry = found
    if entry.kind != "lesson":
        return []
    lenses: list[Lens] = []
    summaries: dict[str, tuple[str, tuple[Location, ...]]] = {}
    for key, markers in entry.keys.bindings.items():
        summary = summaries.get(key)
        if summary is None:
            reads = reads_of(course, key)
            title = lens_title(len(reads.places), reads.documents, reads.all_lessons, language)
            summary = summaries[key] = (title, reads.places)
        title, locations = summary
        lenses.extend(Lens(m.key_start, m.key_end, key, title, locations) for m in markers)
    lenses.sort(key=lambda lens: lens.start)
    return lenses
