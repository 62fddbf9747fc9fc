// The file list: the course's files (mfcourse.toml first), each with its count of
// problems, the one shown marked; and its buttons, which add, rename and delete a lesson
// (a named lesson's path by mfls's own rule, asked of the worker).
import { t } from "./i18n.js";

export function fileList(state, editors, worker) {
  const list = document.getElementById("file-list");

  function render() {
    list.replaceChildren(...state.paths().map((path) => {
      const item = document.createElement("li");
      item.dataset.path = path;
      item.setAttribute("aria-current", String(path === state.current));
      const name = document.createElement("span");
      name.textContent = path;
      item.append(name);
      const count = (state.problems.get(state.uriOf(path)) || []).length;
      if (count) {
        const badge = document.createElement("span");
        badge.className = "count";
        badge.textContent = String(count);
        item.append(badge);
      }
      item.addEventListener("click", () => editors.show(path));
      return item;
    }));
  }
  state.on("files", render);
  state.on("problems", render);

  // The path of a lesson the author names, or null (none given, outside the course, or
  // taken).
  async function named(question, suggested) {
    const path = await worker.lessonPath(window.prompt(question, suggested) || "");
    return path && !state.views.has(path) ? path : null;
  }

  document.getElementById("add-lesson").addEventListener("click", async () => {
    const lessons = [...state.views.keys()].filter((path) => path.startsWith("lessons/"));
    const path = await named(t("newLessonName"), `lessons/${String(lessons.length + 1).padStart(2, "0")}-new-lesson.md`);
    if (!path) return;
    const text = "# New lesson\n\n";
    worker.writeFile(path, text);
    editors.open(path, text);
    editors.show(path);
  });

  document.getElementById("rename-file").addEventListener("click", async () => {
    const from = state.current;
    if (!from || from === "mfcourse.toml") return;
    const path = await named(t("renameTo", from), from);
    if (!path || !state.views.has(from)) return;
    const text = state.textOf(from);
    editors.close(from);
    worker.removeFile(from);
    worker.writeFile(path, text);
    editors.open(path, text);
    editors.show(path);
    state.emit("problems");
  });

  document.getElementById("delete-file").addEventListener("click", () => {
    const path = state.current;
    if (!path || path === "mfcourse.toml" || !window.confirm(t("deleteFile", path))) return;
    editors.close(path);
    worker.removeFile(path);
    state.emit("problems");
    editors.show(state.views.keys().next().value);
  });
}
