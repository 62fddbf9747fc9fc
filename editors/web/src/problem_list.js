// The problem list: every file's problems, by file and line, each a link to its place; the
// diagnostics as mfls publishes them are kept in the page's state.
import { SEVERITY } from "./diagnostics.js";

export function problemList(state, editors) {
  const list = document.getElementById("problems");

  function render() {
    const items = [];
    for (const [fileUri, diagnostics] of [...state.problems].sort(([a], [b]) => a.localeCompare(b))) {
      for (const diagnostic of diagnostics) {
        const item = document.createElement("li");
        item.className = SEVERITY[diagnostic.severity ?? 1];
        const where = document.createElement("span");
        where.className = "where";
        where.textContent = `${state.pathOf(fileUri)}:${diagnostic.range.start.line + 1} `;
        item.append(where, `${diagnostic.code ?? ""}: ${diagnostic.message}`);
        item.addEventListener("click", () => editors.goToProblem(fileUri, diagnostic));
        items.push(item);
      }
    }
    list.replaceChildren(...items);
  }
  state.on("problems", render);

  // For diagnosticsWithFixes: a file's diagnostics as published.
  return (uri, diagnostics) => {
    state.problems.set(uri, diagnostics);
    state.emit("problems");
  };
}
