// The page's state, in one owner every module is handed: the course's editors by path, the
// problems by URI, the texts files came with, the file shown, the course's export name and
// the bytes of its files that have no editor, the worker and how many courses replaced the
// first. Modules change it and say what changed (`emit`); others listen (`on`).
import { pathUnder, uriUnder } from "./uris.js";

export class PageState {
  constructor({ socketUrl, worker }) {
    this.rootUri = "file:///course"; // in the socket mode, the server's root
    this.socketUrl = socketUrl; // the mfls serve --ws URL, or null (mfls in a worker)
    this.worker = worker; // the Web Worker running mfls, or null in the socket mode
    this.views = new Map(); // path -> EditorView
    this.problems = new Map(); // uri -> diagnostics as published
    this.loaded = new Map(); // path -> the file's text as it came, to tell edited files
    this.current = null; // the path shown in the editor
    this.lastLesson = null; // the lesson last shown (the Learner view's)
    this.exportName = null; // the name an export is saved under (the course on the page's)
    this.kept = {}; // the bytes of the course's files that have no editor (an export's manifest)
    this.epoch = 0; // how many courses replaced the first, as the worker counts them
    this.dead = false; // mfls's Python failed fatally in the worker
    this.listeners = new Map();
  }

  uriOf(path) {
    return uriUnder(this.rootUri, path);
  }

  pathOf(uri) {
    return pathUnder(this.rootUri, uri);
  }

  textOf(path) {
    return this.views.get(path).state.sliceDoc();
  }

  // The course's paths in the file list's order: mfcourse.toml first, then by name.
  paths() {
    return [...this.views.keys()].sort(byCourseOrder);
  }

  // The course's files as text, path -> text, in the file list's order.
  texts() {
    return Object.fromEntries(this.paths().map((path) => [path, this.textOf(path)]));
  }

  // "files" (the course's files or the one shown), "problems"; `listener(state)`.
  on(event, listener) {
    if (!this.listeners.has(event)) this.listeners.set(event, []);
    this.listeners.get(event).push(listener);
  }

  emit(event) {
    for (const listener of this.listeners.get(event) ?? []) listener(this);
  }
}

export function byCourseOrder(a, b) {
  return (a.endsWith(".toml") ? 0 : 1) - (b.endsWith(".toml") ? 0 : 1) || a.localeCompare(b);
}
