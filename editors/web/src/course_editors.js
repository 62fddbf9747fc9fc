// One CodeMirror editor per file of the course, each connected to mfls through the LSP
// client; one shown at a time. A new course keeps the editors of the files it shares with
// the old one (their text replaced where it differs) and closes the others'.
import { basicSetup } from "codemirror";
import { Annotation, EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { lintGutter } from "@codemirror/lint";
import { LSPPlugin } from "@codemirror/lsp-client";

// Marks the page's own replacement of a text by the worker's (a course opened).
const fromWorker = Annotation.define();

// A file whose lines all end in CRLF keeps them when edited; others get LF.
function separatorOf(text) {
  return text.includes("\r\n") && !text.replace(/\r\n/g, "").includes("\n") ? "\r\n" : "\n";
}

function lineEnds(text) {
  return separatorOf(text) === "\r\n" ? EditorState.lineSeparator.of("\r\n") : [];
}

function frame(path) {
  const div = document.createElement("div");
  div.className = "file-editor";
  div.dataset.path = path;
  div.hidden = true;
  return div;
}

export class CourseEditors {
  // `client`: the LSP client (set once it exists); `files`: the MflsWorker, or null in
  // the socket mode; `onToml`: called when mfcourse.toml's text changes.
  constructor(state, files, onToml) {
    this.state = state;
    this.files = files;
    this.onToml = onToml;
    this.client = null;
    this.host = document.getElementById("editors");
  }

  open(path, text) {
    const state = this.state;
    const saveToml = path.endsWith(".toml") && this.files ? this.tomlWriter(path) : [];
    const settings = path === "mfcourse.toml" ? EditorView.updateListener.of((update) => update.docChanged && this.onToml()) : [];
    const view = new EditorView({
      doc: text,
      parent: this.host.appendChild(frame(path)),
      extensions: [
        lineEnds(text),
        basicSetup,
        lintGutter(),
        EditorView.lineWrapping,
        this.client.plugin(state.uriOf(path), path.endsWith(".md") ? "markdown" : "toml"),
        saveToml,
        settings,
      ],
    });
    view.dom.dataset.path = path;
    state.views.set(path, view);
    state.loaded.set(path, state.textOf(path));
    return view;
  }

  // mfcourse.toml shapes the course: each edit is written where the server reads it, in the
  // file's own line ends. A text the page replaced with the worker's own (a course opened) is
  // already there, and an edit of the course before it is not written (nor, by the worker,
  // one sent before the new course came: `epoch`).
  tomlWriter(path) {
    let pending = -1;
    return EditorView.updateListener.of((update) => {
      if (!update.docChanged) return;
      clearTimeout(pending);
      if (!update.transactions.some((tr) => tr.docChanged && !tr.annotation(fromWorker))) return;
      pending = setTimeout(() => this.files.writeFile(path, update.state.sliceDoc()), 300);
    });
  }

  // The editor of `path` shown (and returned), the others hidden.
  show(path) {
    const state = this.state;
    state.current = path;
    for (const [name, view] of state.views) view.dom.parentElement.hidden = name !== path;
    if (path.endsWith(".md")) state.lastLesson = path;
    state.emit("files");
    const view = state.views.get(path);
    view.requestMeasure();
    return view;
  }

  // The editor of a problem's file shown, the cursor at the problem.
  goToProblem(fileUri, diagnostic) {
    const view = this.show(this.state.pathOf(fileUri));
    const plugin = LSPPlugin.get(view);
    view.dispatch({ selection: { anchor: plugin.fromPosition(diagnostic.range.start) }, scrollIntoView: true });
    view.focus();
  }

  // The editor of `path` at line `line` (1-based), focused.
  goToLine(path, line) {
    const view = this.show(path);
    view.dispatch({ selection: { anchor: view.state.doc.line(Math.min(line, view.state.doc.lines)).from }, scrollIntoView: true });
    view.focus();
  }

  // A new course (the first, an export unpacked, a folder, the socket server's): a file of
  // the old course that the new one has keeps its editor (its text replaced where it
  // differs, an edit the server is sent), the others' editors are closed and the new
  // files' opened; the first lesson is shown.
  openCourse(files) {
    const state = this.state;
    for (const path of [...state.views.keys()]) {
      if (!(path in files)) this.close(path);
    }
    state.current = null;
    for (const [path, text] of Object.entries(files)) {
      const view = state.views.get(path);
      if (view && separatorOf(text) !== view.state.lineBreak) this.close(path);
      if (!state.views.has(path)) {
        this.open(path, text);
      } else if (state.textOf(path) !== text) {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: fromWorker.of(true) });
        state.loaded.set(path, state.textOf(path));
      } else {
        state.loaded.set(path, state.textOf(path));
      }
    }
    state.emit("problems");
    this.onToml();
    const first = state.paths().find((path) => path.endsWith(".md")) ?? state.views.keys().next().value;
    if (first) this.show(first);
  }

  // The editor of `path` closed and its frame removed (`destroy` takes the view's own element
  // out of the frame, so the frame is found first); its problems are forgotten.
  close(path) {
    const state = this.state;
    const view = state.views.get(path);
    if (!view) return;
    const parent = view.dom.parentElement;
    state.views.delete(path);
    state.problems.delete(state.uriOf(path));
    view.destroy();
    parent?.remove();
  }
}
