import * as assert from "node:assert/strict";
import { test } from "node:test";
import { type CourseInfo, courseLabel, courseText } from "../../src/courseSummary";
import {
  choosePython,
  noPythonMessage,
  parseVersion,
  pathCandidates,
  type Probe,
  type PythonCandidate,
  startWithFirstPython,
} from "../../src/pythonSearch";

const extension: PythonCandidate = { command: "/venv/bin/python", args: [], source: "the Python extension" };

function probes(table: Record<string, Probe>): (candidate: PythonCandidate) => Promise<Probe> {
  return async (candidate) => table[candidate.command] ?? { error: "not found" };
}

test("PATH candidates: python3 then python, or py -3 on Windows", () => {
  assert.deepEqual(
    pathCandidates("linux").map((c) => [c.command, ...c.args]),
    [["python3"], ["python"]],
  );
  assert.deepEqual(pathCandidates("win32")[0], {
    command: "py",
    args: ["-3"],
    source: "the Python launcher `py -3` on PATH",
  });
});

test("the first Python 3.10 or later wins, in order", async () => {
  const candidates = [extension, ...pathCandidates("linux")];
  const choice = await choosePython(
    candidates,
    probes({ "/venv/bin/python": { version: [3, 12, 1] }, python3: { version: [3, 11, 2] } }),
  );
  assert.equal(choice.python, extension);
  assert.deepEqual(choice.tried, []);
});

test("a Python that is too old or missing is passed over, and said why", async () => {
  const candidates = [extension, ...pathCandidates("linux")];
  const choice = await choosePython(
    candidates,
    probes({ "/venv/bin/python": { version: [3, 9, 18] }, python: { version: [3, 10, 0] } }),
  );
  assert.equal(choice.python?.command, "python");
  assert.equal(choice.tried.length, 2);
  assert.match(choice.tried[0], /Python 3\.9\.18 is too old/);
  assert.match(choice.tried[1], /python3.*not found/);
});

test("no Python at all: one message with the fix", async () => {
  const choice = await choosePython(pathCandidates("linux"), probes({}));
  assert.equal(choice.python, undefined);
  const message = noPythonMessage(choice.tried, "linux");
  assert.match(message, /needs Python 3\.10 or later/);
  assert.match(message, /Install Python 3\.10 or later/);
  assert.match(message, /Restart server/);
  assert.match(message, /python3.*not found/);
  assert.match(noPythonMessage([], "win32"), /`py` launcher/);
});

/** Servers started by `startWithFirstPython`, in order, each with whether it was stopped. */
function starts(): { log: string[]; start: (candidate: PythonCandidate) => { command: string; stop(): void } } {
  const log: string[] = [];
  return {
    log,
    start: (candidate) => {
      log.push(`start ${candidate.command}`);
      return { command: candidate.command, stop: () => log.push(`stop ${candidate.command}`) };
    },
  };
}

test("the first candidate's server starts before its probe answers, and is kept when it passes", async () => {
  const { log, start } = starts();
  let probed = false;
  const choice = await startWithFirstPython([extension, ...pathCandidates("linux")], async () => {
    assert.deepEqual(log, ["start /venv/bin/python"]);
    probed = true;
    return { version: [3, 12, 1] };
  }, start);
  assert.ok(probed);
  assert.equal(choice.python, extension);
  assert.equal(choice.started?.command, "/venv/bin/python");
  assert.deepEqual(log, ["start /venv/bin/python"]);
});

test("a first candidate too old is stopped, and the server starts with the next that passes", async () => {
  const { log, start } = starts();
  const choice = await startWithFirstPython(
    [extension, ...pathCandidates("linux")],
    probes({ "/venv/bin/python": { version: [3, 9, 18] }, python: { version: [3, 10, 0] } }),
    start,
  );
  assert.equal(choice.started?.command, "python");
  assert.deepEqual(log, ["start /venv/bin/python", "stop /venv/bin/python", "start python"]);
  assert.match(choice.tried[0], /Python 3\.9\.18 is too old/);
});

test("no Python at all: the early server is stopped and none is left running", async () => {
  const { log, start } = starts();
  const choice = await startWithFirstPython(pathCandidates("linux"), probes({}), start);
  assert.equal(choice.started, undefined);
  assert.equal(choice.python, undefined);
  assert.deepEqual(log, ["start python3", "stop python3"]);
  assert.equal(choice.tried.length, 2);
  assert.deepEqual(await startWithFirstPython([], probes({}), start), { tried: [] });
});

test("versions are read from the probe's output", () => {
  assert.deepEqual(parseVersion("3.10.13\n"), [3, 10, 13]);
  assert.equal(parseVersion("Python"), undefined);
});

test("the status item's course text", () => {
  const info: CourseInfo = {
    name: "Learning to program",
    root: "/c",
    courseFile: "file:///c/mfcourse.toml",
    lessons: 4,
    references: 1,
    questions: 1,
    problems: 3,
    errors: 1,
    warnings: 2,
    information: 0,
    summary: "4 lessons · 1 reference document · 1 question · 3 problems",
    server: "/ext/server/mfls/__init__.py",
    python: "/usr/bin/python3",
  };
  assert.equal(
    courseText(info),
    "Learning to program · 4 lessons · 1 reference document · 1 question · 3 problems",
  );
  assert.equal(
    courseLabel(info),
    "course Learning to program: 4 lessons, 1 reference document, 1 question, 3 problems",
  );
});
