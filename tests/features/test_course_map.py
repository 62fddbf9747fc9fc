import json
import re
from xml.etree import ElementTree

import pytest
from course_kit import Course
from course_kit import course as make_course

from mfls.features.course_map import SYSTEM_GROUP, KeyLane, course_map, key_table
from mfls.features.course_map_html import embedded_json, map_html
from mfls.features.course_map_svg import map_svg
from mfls.features.diagnostics import document_diagnostics
from mfls.features.facts import (
    KINDS,
    LEGEND,
    PLACE_ASKED,
    PLACE_NEAR_MISS,
    PLACE_PROVIDED,
    PLACE_READ,
    PLACE_READ_BEFORE_ASKED,
    PLACE_REFERENCE_BINDING,
    PLACE_RESERVED,
    PLACE_UNBOUND,
)

CONFIG = (
    'host = "ai-shifu"\ntarget = "current"\nlessons = ["lessons/*.md"]\n'
    'references = ["ref/*.md"]\nsystem-keys = ["course_title"]\n'
)


@pytest.fixture
def course() -> Course:
    return make_course(
        {
            "lessons/01-start.md": (
                "# Start here\n\nHello {{ sys_user_nickname }} of {{ course_title }}.\n\n"
                "Use {{ project }} early.\n\n"
                "?[{{ goal }} Learn//learn || Build || Ship || ...Other]\n\n"
                "Read {{ goal }} and {{ goel }} and {{ nowhere at all }}.\n"
            ),
            "lessons/02-next.md": (
                "No heading here.\n\n?[{{ project }} A | B]\n\n?[{{ sys_colour }} Red]\n"
                "Again {{ goal }}, `{{ goal }}`.\n"
            ),
            "ref/terms.md": "# Terms\n\n?[{{ refkey }} X]\n{{ goal }}\n",
        },
        config=CONFIG,
    )


def lane(found: tuple[KeyLane, ...], key: str) -> KeyLane:
    return next(item for item in found if item.key == key)


def test_lessons_in_course_order_with_titles_and_groups(course: Course) -> None:
    found = course_map(course.snapshot.courses["/course"])
    # A lesson is named by its file, as in every message, whatever its first heading.
    assert [(x.title, x.kind, x.group) for x in found.lessons] == [
        ("01-start.md", "lesson", "lessons"),
        ("02-next.md", "lesson", "lessons"),
        ("terms.md", "reference", "ref"),
    ]
    assert [x.uri for x in found.lessons] == [
        course.uri("lessons/01-start.md"),
        course.uri("lessons/02-next.md"),
        course.uri("ref/terms.md"),
    ]


def test_each_kind_of_place(course: Course) -> None:
    keys = course_map(course.snapshot.courses["/course"]).keys
    goal = lane(keys, "goal")
    assert [(p.lesson, p.kind) for p in goal.places] == [
        (0, PLACE_ASKED),
        (0, PLACE_READ),
        (1, PLACE_READ),
        (1, PLACE_READ),
        (2, PLACE_READ),
    ]
    asked = goal.places[0]
    assert asked.choices == ("Learn", "Build", "Ship")
    assert asked.input == "Other"
    assert asked.multiple
    assert (asked.line, asked.column) == (7, 3)
    assert asked.text.startswith("?[{{ goal }}")
    assert [p.kind for p in lane(keys, "project").places] == [PLACE_READ_BEFORE_ASKED, PLACE_ASKED]
    assert [p.kind for p in lane(keys, "goel").places] == [PLACE_NEAR_MISS]
    assert lane(keys, "goel").suggestion == "goal"
    assert [p.kind for p in lane(keys, "nowhere at all").places] == [PLACE_UNBOUND]
    assert [p.kind for p in lane(keys, "sys_colour").places] == [PLACE_RESERVED]
    assert [p.kind for p in lane(keys, "course_title").places] == [PLACE_PROVIDED]
    assert [p.kind for p in lane(keys, "sys_user_nickname").places] == [PLACE_PROVIDED]
    assert [p.kind for p in lane(keys, "refkey").places] == [PLACE_REFERENCE_BINDING]


def test_keys_in_course_order_host_keys_in_their_own_group(course: Course) -> None:
    keys = course_map(course.snapshot.courses["/course"]).keys
    assert [k.key for k in keys] == [
        "project",
        "goal",
        "goel",
        "nowhere at all",
        "refkey",
        "sys_user_nickname",
        "course_title",
        "sys_colour",
    ]
    assert {k.key for k in keys if k.group == SYSTEM_GROUP} == {
        "sys_user_nickname",
        "course_title",
        "sys_colour",
    }


def test_places_agree_with_the_diagnostics(course: Course) -> None:
    """Each problem place of the map is a diagnostic of that code at that marker."""
    snapshot = course.snapshot
    found = course_map(snapshot.courses["/course"])
    codes = {
        PLACE_READ_BEFORE_ASKED: "read-before-asked",
        PLACE_UNBOUND: "unbound-reference",
        PLACE_NEAR_MISS: "near-miss",
        PLACE_RESERVED: "reserved-key-binding",
        PLACE_REFERENCE_BINDING: "binding-in-reference",
    }
    expected = set()
    for key in found.keys:
        for p in key.places:
            if p.kind in codes:
                expected.add((found.lessons[p.lesson].uri, p.start, p.end, codes[p.kind]))
    diagnosed = {
        (lesson.uri, d.start, d.end, d.code)
        for lesson in found.lessons
        for d in document_diagnostics(snapshot, lesson.uri)
        if d.code in codes.values()
    }
    assert expected == diagnosed
    assert len(expected) == 5


def test_problems_and_counts(course: Course) -> None:
    keys = course_map(course.snapshot.courses["/course"]).keys
    goal = lane(keys, "goal")
    assert goal.problems == ()
    assert (len(goal.reads), goal.read_lessons) == (4, 3)
    problems = lane(keys, "goel").problems
    assert [(p.code, p.count, p.suggestion) for p in problems] == [("near-miss", 1, "goal")]


def test_json_ready_and_key_table(course: Course) -> None:
    found = course_map(course.snapshot.courses["/course"])
    data = json.loads(json.dumps(found.to_json()))
    assert [item["kind"] for item in data["legend"]] == list(KINDS)
    assert data["course"]["host"] == "ai-shifu"
    goal = next(k for k in data["keys"] if k["key"] == "goal")
    assert goal["askedIn"] == [0]
    assert goal["places"][0]["choices"] == ["Learn", "Build", "Ship"]
    rows = key_table(found)
    assert [row["key"] for row in rows] == [k.key for k in found.keys]
    project = rows[0]
    assert project["asked"][0]["lesson"] == "02-next.md"
    assert project["asked"][0]["line"] == 3
    assert project["reads"] == 1
    assert project["problems"] == [{"code": "read-before-asked", "count": 1}]


def test_a_lesson_is_named_by_its_file_not_by_a_heading() -> None:
    found = make_course("a.md", "#notaheading\n\n#  Real  #\n\n{{ x }}\n")
    course_ = found.snapshot.courses["/course"]
    lessons = course_map(course_).lessons
    assert lessons[0].title == "a.md" == course_.docs[lessons[0].uri].label


HOSTILE = "</script><img src=x onerror=alert(1)>&amp;<!-- '\"x"


def test_html_escapes_author_text() -> None:
    found = make_course(
        {
            "<b>lesson</b>.md": (
                f"# </title><script>alert(2)</script>\n\n?[{{{{ {HOSTILE} }}}} A]\n"
            ),
            "mfcourse.toml": 'name = "</title><script>alert(3)</script>"\n',
        }
    )
    page = map_html(course_map(found.snapshot.courses["/course"]))
    assert "<img" not in page
    assert "alert(2)</script>" not in page
    assert "<script>alert(3)" not in page
    assert page.count("</script>") == 2  # the data element's and the page script's own
    data = re.search(r'id="map-data">(.*?)</script>', page, re.S)
    assert data is not None
    decoded = json.loads(data.group(1))
    assert decoded["keys"][0][0] == HOSTILE
    assert decoded["course"]["name"] == "</title><script>alert(3)</script>"
    assert "innerHTML" not in page and "insertAdjacentHTML" not in page
    assert "Content-Security-Policy" in page
    assert "http://" not in page.replace("http://www.w3.org", "")
    assert "https://" not in page


def test_embedded_json_round_trips_every_character() -> None:
    value = {"k": "<>&\u2028\u2029</script>\"'\\"}
    text = embedded_json(value)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == value


def test_svg_is_well_formed_and_escaped(course: Course) -> None:
    hostile = make_course("a.md", f"?[{{{{ {HOSTILE} }}}} A]\n\n{{{{ x\x01y }}}}\n")
    for source in (course, hostile):
        svg = map_svg(course_map(source.snapshot.courses["/course"]))
        tree = ElementTree.fromstring(svg)
        texts = [t.text or "" for t in tree.iter("{http://www.w3.org/2000/svg}text")]
        assert any(text == LEGEND[PLACE_ASKED] for text in texts)
    assert "<img" not in map_svg(course_map(hostile.snapshot.courses["/course"]))
