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
  server: string; // the server's mfls/__init__.py
  python: string; // the interpreter running it
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The status item's text after its icon. */
export function courseText(info: CourseInfo): string {
  return `${info.name} · ${info.summary}`;
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
    "Click for the MarkdownFlow menu.",
  ].join("\n");
}
