// The course of the active document as the status item shows it: plain text, no VS Code API.

/** The answer of the server's `mfls.courseInfo` command. */
export interface CourseInfo {
  name: string;
  root: string | null;
  courseFile: string | null; // a file: URI
  lessons: number;
  references: number;
  questions: number; // the keys the course asks or reads
  problems: number;
  errors: number;
  warnings: number;
  information: number;
  summary: string; // the figures as every view says them: "3 lessons · 1 reference document · ..."
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
  const text = `${info.name} · ${info.summary}`;
  const since = info.sinceLastPull;
  if (!since || since.changed.length + since.gone.length === 0) {
    return text;
  }
  return `${text} · ${since.changed.length + since.gone.length} changed since last pull`;
}

/** What a screen reader says, after "MarkdownFlow: running". */
export function courseLabel(info: CourseInfo): string {
  return `course ${info.name}: ${info.summary.split(" · ").join(", ")}`;
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
    `${count(info.questions, "question")} asked or read`,
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
