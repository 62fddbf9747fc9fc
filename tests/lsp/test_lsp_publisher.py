"""`Publisher` without a client or a server: a hand-turned clock, a source of plain dicts,
and a list of what was sent."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from mfls.lsp.publisher import Publisher, Stage

DELAY = 0.15
COURSE_FILE = "file:///c/mfcourse.toml"


@dataclass
class Timer:
    when: float
    callback: Callable[..., Any]
    args: tuple[Any, ...]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class Clock:
    now: float = 0.0
    timers: list[Timer] = field(default_factory=list)
    soon: deque[tuple[Callable[..., Any], tuple[Any, ...]]] = field(default_factory=deque)

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Timer:
        timer = Timer(self.now + delay, callback, args)
        self.timers.append(timer)
        return timer

    def call_soon(self, callback: Callable[..., Any], *args: Any) -> None:
        self.soon.append((callback, args))

    def advance(self, seconds: float) -> None:
        """Let time pass: the timers that fall due run (not what they schedule soon)."""
        self.now += seconds
        due = [t for t in self.timers if t.when <= self.now and not t.cancelled]
        self.timers = [t for t in self.timers if t not in due]
        for timer in due:
            timer.callback(*timer.args)

    def turn(self) -> None:
        """One turn: the first callback waiting runs."""
        callback, args = self.soon.popleft()
        callback(*args)

    def settle(self) -> None:
        while self.soon:
            self.turn()


@dataclass
class Source:
    open: dict[str, int] = field(default_factory=dict)  # uri -> version
    found: dict[str, list[str]] = field(default_factory=dict)  # uri -> diagnostics
    files: list[tuple[str, bool]] = field(default_factory=list)
    closed: list[str] = field(default_factory=list)  # reported closed documents
    kept: set[str] = field(default_factory=set)
    not_ready: set[str] = field(default_factory=set)
    asked: list[str] = field(default_factory=list)
    closed_asked: list[tuple[bool, list[str]]] = field(default_factory=list)
    versions: bool = False  # the client drops diagnostics of an older version

    def delay(self) -> float:
        return DELAY

    def open_documents(self) -> Iterable[str]:
        return list(self.open)

    def version(self, uri: str) -> int | None:
        return self.open.get(uri)

    def ready(self, uri: str) -> bool:
        return uri not in self.not_ready

    def diagnostics(self, uri: str) -> list[str]:
        self.asked.append(uri)
        if uri == "file:///broken.md":
            raise RuntimeError("a fault in a rule")
        return self.found.get(uri, [])

    def course_files(self) -> Iterable[tuple[str, bool]]:
        return self.files

    def closed_documents(self, everything: bool, edited: Sequence[str]) -> Iterable[str]:
        self.closed_asked.append((everything, list(edited)))
        return self.closed

    def keeps_closed(self, uri: str) -> bool:
        return uri in self.kept

    def checks_versions(self) -> bool:
        return self.versions


Sent = tuple[str, list[str], int | None]


def publisher(source: Source) -> tuple[Publisher, Clock, list[Sent]]:
    clock = Clock()
    sent: list[Sent] = []
    return Publisher(source, clock, lambda *one: sent.append(one)), clock, sent


def test_changes_are_debounced_into_one_round_edited_first() -> None:
    source = Source(open={"a": 1, "b": 1, "c": 1}, found={"a": ["A"], "b": ["B"], "c": ["C"]})
    pub, clock, sent = publisher(source)
    pub.changed("c")
    clock.advance(DELAY / 2)
    pub.changed("b")  # within the delay: the timer starts again
    clock.advance(DELAY / 2)
    assert sent == [] and not clock.soon
    clock.advance(DELAY / 2)
    clock.settle()
    assert sent == [("c", ["C"], 1), ("b", ["B"], 1), ("a", ["A"], 1)]
    assert [uri for uri, _, _ in sent][:2] == ["c", "b"]  # the edited ones, in the order edited
    sent.clear()
    source.found["a"] = ["A2"]
    pub.changed("a")
    clock.advance(DELAY)
    clock.settle()
    assert sent == [("a", ["A2"], 1)]  # unchanged lists are not sent again


def test_a_change_during_a_round_stops_it_and_the_next_takes_over() -> None:
    source = Source(open={"a": 1, "b": 1, "c": 1}, found={"a": ["A"], "b": ["B"], "c": ["C"]})
    pub, clock, _ = publisher(source)
    pub.changed("c")
    clock.advance(DELAY)
    assert source.asked == ["c"]  # the first step runs when the round begins
    pub.changed("b")
    clock.settle()  # the stopped round's next step does nothing
    assert source.asked == ["c"]
    clock.advance(DELAY)
    clock.settle()
    assert source.asked == ["c", "b", "a", "c"]
    assert source.closed_asked == [(False, ["b", "c"])]  # this round did the first's work


def test_stages_course_files_closed_documents_then_clearing() -> None:
    source = Source(
        open={"a": 3},
        found={"a": ["A"], COURSE_FILE: ["F"], "x": ["X"], "y": []},
        files=[(COURSE_FILE, True), ("file:///d/mfcourse.toml", False)],
        closed=["x", "y", "a", COURSE_FILE],
        kept={"x"},
    )
    pub, clock, sent = publisher(source)
    pub.changed(None)
    clock.advance(DELAY)
    clock.settle()
    # the open document; the course file with problems (not the one without); closed
    # documents, an empty list never sent for one published nothing before
    assert sent == [("a", ["A"], 3), (COURSE_FILE, ["F"], None), ("x", ["X"], None)]
    assert source.closed_asked == [(True, [])]
    sent.clear()
    source.kept = set()  # "x" is no longer in a course
    source.files = [(COURSE_FILE, False)]
    source.found[COURSE_FILE] = []
    pub.changed(None)
    clock.advance(DELAY)
    clock.settle()
    assert sent == [(COURSE_FILE, [], None), ("x", [], None)]  # published before: emptied
    assert "x" not in pub.published


def test_a_round_goes_one_document_per_turn() -> None:
    source = Source(open={"a": 1, "b": 1}, found={"a": ["A"], "b": ["B"]})
    pub, clock, sent = publisher(source)
    seen: list[Stage] = []
    step = pub._step

    def watched(round_: int, queue: list[tuple[str, bool]], stage: Stage) -> None:
        seen.append(stage)
        step(round_, queue, stage)

    pub._step = watched  # type: ignore[method-assign]
    pub.changed("a")
    clock.advance(DELAY)
    assert sent == [("a", ["A"], 1)]
    clock.turn()
    assert len(sent) == 2
    clock.settle()
    assert seen == [Stage.OPEN, Stage.OPEN, Stage.OPEN, Stage.COURSE_FILES, Stage.CLOSED]


def test_nothing_before_the_course_is_ready_and_a_fault_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    source = Source(open={"a": 1, "file:///broken.md": 1, "b": 1}, found={"a": ["A"], "b": ["B"]})
    source.not_ready = {"a"}
    pub, clock, sent = publisher(source)
    pub.changed("a")
    clock.advance(DELAY)
    clock.settle()
    assert sent == [("b", ["B"], 1)]
    assert "diagnostics failed for file:///broken.md" in caplog.text


def test_opening_and_closing_send_again() -> None:
    source = Source(open={"a": 1}, found={"a": ["A"]}, closed=["a"], kept={"a"})
    pub, _, sent = publisher(source)
    pub.publish("a")
    pub.publish("a")
    assert sent == [("a", ["A"], 1)]
    del source.open["a"]
    pub.publish("a")  # closed: the same list, without a version
    assert sent[-1] == ("a", ["A"], None)
    pub.clear("a")
    assert sent[-1] == ("a", [], None)
    pub.clear("a")  # nothing published any more: nothing sent
    assert len(sent) == 3


def test_a_client_that_checks_versions_gets_an_unchanged_list_again_for_a_newer_version() -> None:
    # The client is at version 3 while the server publishes for version 2 (the list
    # changed there): the client drops it. Version 3 leaves the list as version 2 made it;
    # unless it is sent again, the client keeps version 1's list.
    source = Source(open={"a": 1}, found={"a": ["A"]}, versions=True)
    pub, clock, sent = publisher(source)
    pub.changed("a")
    clock.advance(DELAY)
    clock.settle()
    source.open["a"], source.found["a"] = 2, ["A", "B"]
    pub.changed("a")
    clock.advance(DELAY)
    clock.settle()
    source.open["a"] = 3
    pub.changed("a")
    clock.advance(DELAY)
    clock.settle()
    assert sent == [("a", ["A"], 1), ("a", ["A", "B"], 2), ("a", ["A", "B"], 3)]
    # A round that finds the version where it was sends nothing.
    pub.changed(None)
    clock.advance(DELAY)
    clock.settle()
    assert len(sent) == 3
    # Closed: the same list is sent again, without a version.
    del source.open["a"]
    pub.publish("a")
    assert sent[-1] == ("a", ["A", "B"], None)


def test_a_client_that_ignores_versions_gets_a_list_only_when_it_changes() -> None:
    source = Source(open={"a": 0}, found={"a": ["A"]})
    pub, clock, sent = publisher(source)
    pub.changed("a")
    clock.advance(DELAY)
    clock.settle()
    source.open["a"] = 1
    pub.changed("a")
    clock.advance(DELAY)
    clock.settle()
    assert sent == [("a", ["A"], 0)]
    del source.open["a"]  # closed: sent again, without a version (0 is not "closed")
    pub.publish("a")
    assert sent[-1] == ("a", ["A"], None)
