// The course as one piece of text or one file: "Copy as Markdown" (every file in a fenced
// block under its path, and the mfls version, for a bug report) and the name the course's
// zip is downloaded under (its mfcourse.toml name).
import { settingOf } from "./course_settings.js";

function fence(text) {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(longest + 1);
}

function language(path) {
  if (path.endsWith(".md")) return "markdown";
  if (path.endsWith(".toml")) return "toml";
  if (path.endsWith(".json")) return "json";
  return "";
}

// `files`: path -> text, in the order they are given.
export function courseMarkdown(files, version) {
  const parts = [`mfls playground: ${version}`, ""];
  for (const [path, text] of Object.entries(files)) {
    const marks = fence(text);
    const body = text.endsWith("\n") ? text : `${text}\n`;
    parts.push(`\`${path}\``, "", `${marks}${language(path)}`, `${body}${marks}`, "");
  }
  return parts.join("\n");
}

// The file name of the course's zip: its name in mfcourse.toml, else `fallback`, made safe
// for a file system.
export function zipName(toml, fallback) {
  const name = (toml && settingOf(toml, "name")) || fallback || "course";
  const safe = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, "-").replace(/^[.\s-]+|[.\s]+$/g, "").slice(0, 100);
  return `${safe || "course"}.zip`;
}
