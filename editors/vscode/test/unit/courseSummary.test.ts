import * as assert from "node:assert/strict";
import { test } from "node:test";
import { CourseInfo, courseText, courseTooltip } from "../../src/courseSummary";

function info(sinceLastPull: CourseInfo["sinceLastPull"]): CourseInfo {
  return {
    name: "A course",
    root: "/c",
    courseFile: null,
    lessons: 3,
    references: 1,
    questions: 2,
    problems: 1,
    errors: 0,
    warnings: 1,
    information: 0,
    summary: "3 lessons · 1 reference document · 2 questions · 1 problem",
    sinceLastPull,
    server: "/m/__init__.py",
    python: "/usr/bin/python3",
  };
}

test("a course without .shifu-sync.json shows nothing about pulls", () => {
  assert.equal(courseText(info(null)), "A course · 3 lessons · 1 reference document · 2 questions · 1 problem");
  assert.ok(!courseTooltip(info(undefined)).includes("pull"));
});

test("lessons changed or gone since the last pull are counted and listed", () => {
  const since = {
    changed: [{ file: "lessons/lesson-01.md", name: "Ask" }],
    gone: [{ file: "lessons/lesson-03.md", name: "Last" }],
    goneFate: "the course tool's `status` counts it up to date",
  };
  assert.equal(
    courseText(info(since)),
    "A course · 3 lessons · 1 reference document · 2 questions · 1 problem · 2 changed since last pull",
  );
  const tooltip = courseTooltip(info(since));
  assert.ok(tooltip.includes("Changed since last pull: lessons/lesson-01.md"));
  assert.ok(tooltip.includes("Gone since last pull: lessons/lesson-03.md (the course tool's"));
  const clean = { changed: [], gone: [], goneFate: "" };
  assert.equal(courseText(info(clean)), "A course · 3 lessons · 1 reference document · 2 questions · 1 problem");
  assert.ok(courseTooltip(info(clean)).includes("No lesson changed since last pull"));
});
