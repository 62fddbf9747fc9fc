// A link to a place in the course (a hover's "Bound in 01-welcome.md:11", `#L11`) opens
// that file's editor at the line.
export function placeLinks(state, editors) {
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element && event.target.closest("a[href]");
    if (!link || !link.href.startsWith(`${state.rootUri}/`)) return;
    event.preventDefault();
    const [uri, fragment = ""] = link.href.split("#");
    const path = state.pathOf(uri);
    if (!state.views.has(path)) return;
    editors.goToLine(path, Number((/^L(\d+)/.exec(fragment) || [])[1] || 1));
  });
}
