// Choosing the Python that runs the bundled server: plain logic, no VS Code API, so that
// the unit tests can drive it with fake probes.

export const OLDEST_PYTHON: readonly [number, number] = [3, 10];

/** One way to start a Python: the command, the arguments before the script, and where it came from. */
export interface PythonCandidate {
  command: string;
  args: string[];
  source: string; // "the Python extension's interpreter", "python3 on PATH", ...
}

/** What running a candidate with `-c` printed: its version, or why it could not be run. */
export type Probe = { version: [number, number, number] } | { error: string };

export interface PythonChoice {
  python?: PythonCandidate;
  tried: string[]; // one line per candidate turned down, for the message
}

/** The candidates after the Python extension's: `py -3` on Windows, else `python3` then `python`. */
export function pathCandidates(platform: NodeJS.Platform): PythonCandidate[] {
  if (platform === "win32") {
    return [
      { command: "py", args: ["-3"], source: "the Python launcher `py -3` on PATH" },
      { command: "python", args: [], source: "`python` on PATH" },
    ];
  }
  return [
    { command: "python3", args: [], source: "`python3` on PATH" },
    { command: "python", args: [], source: "`python` on PATH" },
  ];
}

/** The code a candidate runs to say its version. */
export const VERSION_PROBE = "import sys; print('%d.%d.%d' % sys.version_info[:3])";

export function parseVersion(output: string): [number, number, number] | undefined {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(output.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function newEnough(version: [number, number, number]): boolean {
  const [major, minor] = OLDEST_PYTHON;
  return version[0] > major || (version[0] === major && version[1] >= minor);
}

/** The first candidate whose probe shows Python 3.10 or later, in order. */
export async function choosePython(
  candidates: PythonCandidate[],
  probe: (candidate: PythonCandidate) => Promise<Probe>,
): Promise<PythonChoice> {
  const tried: string[] = [];
  for (const candidate of candidates) {
    const result = await probe(candidate);
    const shown = [candidate.command, ...candidate.args].join(" ");
    if ("error" in result) {
      tried.push(`${candidate.source} (${shown}): ${result.error}`);
    } else if (!newEnough(result.version)) {
      tried.push(`${candidate.source} (${shown}): Python ${result.version.join(".")} is too old`);
    } else {
      return { python: candidate, tried };
    }
  }
  return { tried };
}

/** A server process started with a candidate; `stop` ends it. */
export interface Started {
  stop(): void;
}

export interface StartedChoice<T extends Started> extends PythonChoice {
  started?: T; // the server, started with `python`
}

/**
 * The server started with the first candidate whose probe shows Python 3.10 or later (as
 * `choosePython`). The first candidate's server is started at once, while it is probed: a
 * server's start is mostly Python importing it, and the probe would only delay that. It is
 * kept when the probe passes, else stopped, and the server is started with the first other
 * candidate that passes.
 */
export async function startWithFirstPython<T extends Started>(
  candidates: PythonCandidate[],
  probe: (candidate: PythonCandidate) => Promise<Probe>,
  start: (candidate: PythonCandidate) => T,
): Promise<StartedChoice<T>> {
  if (candidates.length === 0) {
    return { tried: [] };
  }
  const early = start(candidates[0]);
  const choice = await choosePython(candidates, probe);
  if (choice.python === candidates[0]) {
    return { ...choice, started: early };
  }
  early.stop();
  return choice.python === undefined ? choice : { ...choice, started: start(choice.python) };
}

/** The one message shown when no Python can run the server. */
export function noPythonMessage(tried: string[], platform: NodeJS.Platform): string {
  const install =
    platform === "win32"
      ? "Install Python 3.10 or later from python.org (with the `py` launcher)"
      : platform === "darwin"
        ? "Install Python 3.10 or later (python.org, or `brew install python`)"
        : "Install Python 3.10 or later (e.g. `sudo apt install python3`)";
  return (
    `MarkdownFlow needs Python ${OLDEST_PYTHON.join(".")} or later to run its bundled language server, and found none. ` +
    `${install}, or pick one with "Python: Select Interpreter", then run "MarkdownFlow: Restart server". ` +
    `Tried: ${tried.length > 0 ? tried.join("; ") : "nothing"}.`
  );
}
