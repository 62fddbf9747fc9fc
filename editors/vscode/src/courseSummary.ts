// The course of the active document as the status item shows it: plain text, no VS Code API.

/** The answer of the server's `mfls.courseInfo` command. */
export interface CourseInfo {
  name: string;
  root: string | null;
  courseFile: string | null; // a file: URI
  lessons: number;
  references: number;
  keys: number;
  problems: number;
  errors: number;
  warnings: number;
  information: number;
  // An AI-Shifu course folder with .shifu-sync.json: its lessons against that record.
  sinceLastPull?: SinceLastPull | null;
  server: string; // the server's mfls/__init__.py
  python: string; // the interpreter running it
}

export interface SinceLastPull {
  changed: { file: string; name: string }[];
  gone: { file: string; name: string }[];
  goneFate: string; // what the course tool does with a gone lesson
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The status item's text after its icon. */
export function courseText(info: CourseInfo): string {
  const text = `${info.name} · ${count(info.lessons, "lesson")} · ${count(info.keys, "key")} · ${count(info.problems, "problem")}`;
  const since = info.sinceLastPull;
  if (!since || since.changed.length + since.gone.length === 0) {
    return text;
  }
  return `${text} · ${since.changed.length + since.gone.length} changed since last pull`;
}

/** What a screen reader says, after "MarkdownFlow: running". */
export function courseLabel(info: CourseInfo): string {
  return `course ${info.name}: ${count(info.lessons, "lesson")}, ${count(info.keys, "key")}, ${count(info.problems, "problem")}`;
}

export function courseTooltip(info: CourseInfo): string {
  const problems = [
    count(info.errors, "error"),
    count(info.warnings, "warning"),
    `${info.information} information`,
  ].join(", ");
  return [
    `Course: ${info.name}${info.root ? ` (${info.root})` : ""}`,
    `${count(info.lessons, "lesson")}, ${count(info.references, "reference document")}`,
    `${count(info.keys, "key")} asked in lessons`,
    `${count(info.problems, "problem")}: ${problems}`,
    ...sinceLastPullLines(info.sinceLastPull),
    "Click for the MarkdownFlow menu.",
  ].join("\n");
}

/** The tooltip's lines about .shifu-sync.json (none without one). */
export function sinceLastPullLines(since: SinceLastPull | null | undefined): string[] {
  if (!since) {
    return [];
  }
  const lines = since.changed.length
    ? [`Changed since last pull: ${since.changed.map((l) => l.file).join(", ")}`]
    : ["No lesson changed since last pull"];
  if (since.gone.length) {
    lines.push(`Gone since last pull: ${since.gone.map((l) => l.file).join(", ")} (${since.goneFate})`);
  }
  return lines;
}
