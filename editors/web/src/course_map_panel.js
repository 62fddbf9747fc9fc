// The aside beside the editor: the course map (`mfls.courseMap`, refreshed a little after
// the problems change, or by its button) and the Learner view of the lesson last shown
// (learner_view.js).
import { learnerView } from "./learner_view.js";

export function courseMapPanel(state, editors, client) {
  const mapFrame = document.getElementById("map-frame");

  async function refresh() {
    const lesson = [...state.views.keys()].find((path) => path.endsWith(".md"));
    if (!lesson) return;
    try {
      const result = await client.request("workspace/executeCommand", { command: "mfls.courseMap", arguments: [state.uriOf(lesson)] });
      if (result && result.html && result.html !== mapFrame.srcdoc) mapFrame.srcdoc = result.html;
    } catch (error) {
      console.warn("course map:", error?.message ?? error);
    }
  }
  document.getElementById("refresh-map").addEventListener("click", refresh);

  let timer = -1;
  state.on("problems", () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 400);
  });

  const learner = learnerView({
    aside: document.getElementById("map"),
    lesson: () => {
      const path = state.lastLesson;
      return state.views.has(path) ? { path, uri: state.uriOf(path), text: state.textOf(path) } : null;
    },
    problemsOf: (uri) => state.problems.get(uri) || [],
    goTo: (uri, diagnostic) => editors.goToProblem(uri, diagnostic),
  });
  state.on("files", () => learner.update());
  state.on("problems", () => learner.update());
}
