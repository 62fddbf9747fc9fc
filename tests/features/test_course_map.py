"""The course map (lanes of keys across lessons, its JSON, key table, HTML and SVG) on
one course text: every place of the map is written under the marker it is at, as
`kind: key`; the JSON and the key table are compared whole with snapshots under
`snapshots/map/`."""

import json
import re
from xml.etree import ElementTree

import pytest

from mfls.features.course_map import (
    SYSTEM_GROUP,
    KeyLane,
    Place,
    course_map,
    key_table,
    key_table_markdown,
)
from mfls.features.course_map_html import embedded_json, map_html
from mfls.features.course_map_svg import map_svg
from mfls.features.diagnostics import document_diagnostics
from mfls.features.facts import (
    KINDS,
    LEGEND,
    PLACE_NEAR_MISS,
    PLACE_READ_BEFORE_ASKED,
    PLACE_REFERENCE_BINDING,
    PLACE_RESERVED,
    PLACE_UNBOUND,
)
from tests.kit.course import Course, Mark, course_text, expect
from tests.kit.course import course as make_course

COURSE = """
    //- mfcourse.toml
    host = "ai-shifu"
    target = "current"
    lessons = ["lessons/*.md"]
    references = ["ref/*.md"]
    system-keys = ["course_title"]
    //- lessons/01-start.md
    # Start here

    Hello {{ sys_user_nickname }} of {{ course_title }}.
    %%    ^^^^^^^^^^^^^^^^^^^^^^^ provided: sys_user_nickname
    %%                               ^^^^^^^^^^^^^^^^^^ provided: course_title

    Use {{ project }} early.
    %%  ^^^^^^^^^^^^^ read-before-asked: project

    ?[{{ goal }} Learn//learn || Build || Ship || ...Other]
    %%^^^^^^^^^^ asked: goal

    Read {{ goal }} and {{ goel }} and {{ nowhere at all }}.
    %%   ^^^^^^^^^^ read: goal
    %%                  ^^^^^^^^^^ near-miss: goel
    %%                                 ^^^^^^^^^^^^^^^^^^^^ unbound: nowhere at all
    //- lessons/02-next.md
    No heading here.

    ?[{{ project }} A | B]
    %%^^^^^^^^^^^^^ asked: project

    ?[{{ sys_colour }} Red]
    %%^^^^^^^^^^^^^^^^ reserved: sys_colour
    Again {{ goal }}, `{{ goal }}`.
    %%    ^^^^^^^^^^ read: goal
    %%                 ^^^^^^^^^^ read: goal
    //- ref/terms.md
    # Terms

    ?[{{ refkey }} X]
    %%^^^^^^^^^^^^ reference-binding: refkey
    {{ goal }}
    ^^^^^^^^^^ %% read: goal
    """


@pytest.fixture
def course() -> Course:
    return course_text(COURSE)


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
    found = course_map(course.snapshot.courses["/course"])
    marks: list[Mark] = [
        (course.name_of(found.lessons[p.lesson].uri), p.start, p.end, p.kind, k.key)
        for k in found.keys
        for p in k.places
    ]
    course.check(marks)
    goal = lane(found.keys, "goal")
    assert [p.lesson for p in goal.places] == [0, 0, 1, 1, 2]  # in course order
    assert goal.places[0] == Place(
        lesson=0,
        kind="asked",
        start=96,
        end=106,
        line=7,
        column=3,
        end_line=7,
        end_column=13,
        text="?[{{ goal }} Learn//learn || Build || Ship || ...Other]",
        choices=("Learn", "Build", "Ship"),
        input="Other",
        multiple=True,
        also=(),
    )
    assert lane(found.keys, "goel").suggestion == "goal"


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
    # Read in two lessons and in the reference document ref/terms.md (column 2), apart.
    assert (len(goal.reads), goal.read_lessons, goal.read_in_references) == (4, 2, (2,))
    problems = lane(keys, "goel").problems
    assert [(p.code, p.count, p.suggestion) for p in problems] == [("near-miss", 1, "goal")]


def test_json_ready_and_key_table(course: Course) -> None:
    found = course_map(course.snapshot.courses["/course"])
    data = json.loads(json.dumps(found.to_json()))
    assert [item["kind"] for item in data["legend"]] == list(KINDS)
    expect(json.dumps(data, indent=1, ensure_ascii=False), "map/course.json")
    rows = key_table(found)
    assert [row["key"] for row in rows] == [k.key for k in found.keys]
    expect(json.dumps(rows, indent=1, ensure_ascii=False), "map/key_table.json")


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
    assert re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page) == [
        "default-src &#x27;none&#x27;; style-src &#x27;unsafe-inline&#x27;;"
        " script-src &#x27;unsafe-inline&#x27;; img-src data:; base-uri &#x27;none&#x27;;"
        " form-action &#x27;none&#x27;"
    ]
    assert "http://" not in page.replace("http://www.w3.org", "")
    assert "https://" not in page


def test_embedded_json_round_trips_every_character() -> None:
    value = {"k": "<>&\u2028\u2029</script>\"'\\"}
    text = embedded_json(value)
    assert text == r"""{"k":"\u003c\u003e\u0026\u2028\u2029\u003c/script\u003e\"'\\"}"""
    assert json.loads(text) == value


def test_svg_is_well_formed_and_escaped(course: Course) -> None:
    hostile = make_course("a.md", f"?[{{{{ {HOSTILE} }}}} A]\n\n{{{{ x\x01y }}}}\n")
    legend = [LEGEND[kind] for kind in KINDS]
    keys = ["project", "goal", "goel", "nowhere at all", "refkey"]
    expected = {
        course: ["course", "01-start.md", "02-next.md", "terms.md", *keys],
        hostile: ["course", "a.md", HOSTILE[:43] + "…"],  # a long key cut short
    }
    expected[course] += ["sys_user_nickname", "course_title", "sys_colour"]
    for source, texts in expected.items():
        svg = map_svg(course_map(source.snapshot.courses["/course"]))
        tree = ElementTree.fromstring(svg)
        shown = [t.text or "" for t in tree.iter("{http://www.w3.org/2000/svg}text")]
        assert shown == texts + legend
    assert "<img" not in map_svg(course_map(hostile.snapshot.courses["/course"]))


def test_the_key_table_markdown_speaks_the_callers_language(course: Course) -> None:
    found = course_map(course.snapshot.courses["/course"])
    english = key_table_markdown(found)
    assert english == key_table_markdown(found, "en")
    assert "| question | asked in | reads | problems |" in english.splitlines()
    chinese = key_table_markdown(found, "zh-CN")
    assert chinese.splitlines()[0].startswith("# 课程键：")
    assert "| 问题 | 提问位置 | 读取 | 诊断 |" in chinese.splitlines()
    goel = next(line for line in chinese.splitlines() if line.startswith("| goel "))
    assert "near-miss（是否想写“goal”）" in goel
    goal = next(line for line in chinese.splitlines() if line.startswith("| goal "))
    assert "4 次，在 2 个课时中，另有 1 个参考文档" in goal
