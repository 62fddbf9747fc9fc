// The course as a zip download (every file, the bytes of those without an editor too,
// named after the course: mfcourse.toml's name, else the export's), and every file as
// Markdown with the mfls version on the clipboard (shown when the clipboard refuses): what
// a bug report needs.
import { t } from "./i18n.js";
import { say } from "./message_box.js";
import { courseMarkdown, zipName } from "./course_files.js";
import { download } from "./course_exports.js";

export function courseDownloads(state) {
  document.getElementById("download-zip").addEventListener("click", async () => {
    const { courseZip } = await import("./course_zip.js");
    const files = { ...state.kept, ...state.texts() };
    const toml = state.views.has("mfcourse.toml") ? state.textOf("mfcourse.toml") : null;
    download(courseZip(files), "application/zip", zipName(toml, state.exportName?.replace(/\.json$/i, "")));
  });

  document.getElementById("copy-markdown").addEventListener("click", async () => {
    const socket = state.socketUrl;
    const version = window.mflsStarted?.version ?? (socket ? `mfls at ${socket.split("?")[0]}` : t("starting"));
    const markdown = courseMarkdown(state.texts(), version);
    try {
      await navigator.clipboard.writeText(markdown);
      say(t("copiedMarkdown", state.views.size), "info");
    } catch {
      say(t("copyMarkdownShown"), "info", null, markdown);
    }
  });
}
