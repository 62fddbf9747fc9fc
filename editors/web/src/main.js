// The playground page: a course (file list, one CodeMirror editor per file), mfls in a Web
// Worker reached through @codemirror/lsp-client over a postMessage transport, the
// problems of every file and the course map beside the editor.
import { basicSetup } from "codemirror";
import { EditorView, keymap } from "@codemirror/view";
import { lintGutter } from "@codemirror/lint";
import {
  LSPClient,
  LSPPlugin,
  findReferencesKeymap,
  hoverTooltips,
  jumpToDefinitionKeymap,
  renameKeymap,
  serverCompletion,
} from "@codemirror/lsp-client";
import { EXAMPLE_COURSE } from "./course.js";
import { CourseWorkspace } from "./workspace.js";
import { diagnosticsWithFixes } from "./diagnostics.js";
import { semanticHighlighting } from "./semantic.js";
import { workerTransport } from "./transport.js";

const ROOT_URI = "file:///course";
const uriOf = (path) => `${ROOT_URI}/${path.split("/").map(encodeURIComponent).join("/")}`;
const pathOf = (uri) => uri.slice(ROOT_URI.length + 1).split("/").map(decodeURIComponent).join("/");

const status = document.getElementById("status");
const fileList = document.getElementById("file-list");
const problemList = document.getElementById("problems");
const editorsHost = document.getElementById("editors");
const mapFrame = document.getElementById("map-frame");

const worker = new Worker("worker.js", { type: "module" });
const views = new Map(); // path -> EditorView
const problems = new Map(); // uri -> diagnostics as published
let current = null;
const opened = performance.now();

worker.addEventListener("message", (event) => {
  const { ready, failed } = event.data;
  if (event.data.debug) console.log(`worker ${event.data.debug} (page ${performance.now().toFixed(0)})`);
  if (ready) {
    status.textContent = `${ready.version}, started in ${ready.seconds.toFixed(1)} s`;
    window.mflsStarted = ready;
  } else if (failed) {
    status.dataset.state = "failed";
    status.textContent = `mfls did not start: ${failed}`;
  }
});
worker.postMessage({ course: EXAMPLE_COURSE });

const client = new LSPClient({
  rootUri: ROOT_URI,
  timeout: 120000,
  // Changes reach the server as they are typed (diagnostics.js) and the worker runs one
  // message at a time: a shorter quiet time than the server's 150 ms default.
  initializationOptions: { mfls: { diagnosticDelay: 50 } },
  workspace: (client) => new CourseWorkspace(client, show),
  extensions: [
    serverCompletion(),
    hoverTooltips(),
    keymap.of([...renameKeymap, ...jumpToDefinitionKeymap, ...findReferencesKeymap]),
    diagnosticsWithFixes(onProblems),
    semanticHighlighting(),
  ],
}).connect(workerTransport(worker));

client.initializing.then(() => {
  status.dataset.state = "ready";
  window.mflsReady = (performance.now() - opened) / 1000;
});

function editorFor(path, text) {
  const saveToml = path.endsWith(".toml") ? tomlWriter(path) : [];
  const view = new EditorView({
    doc: text,
    parent: editorsHost.appendChild(frame(path)),
    extensions: [
      basicSetup,
      lintGutter(),
      EditorView.lineWrapping,
      client.plugin(uriOf(path), path.endsWith(".md") ? "markdown" : "toml"),
      saveToml,
    ],
  });
  view.dom.dataset.path = path;
  views.set(path, view);
  return view;
}

function frame(path) {
  const div = document.createElement("div");
  div.className = "file-editor";
  div.dataset.path = path;
  div.hidden = true;
  return div;
}

// mfcourse.toml shapes the course: each edit is written where the server reads it.
function tomlWriter(path) {
  let pending = -1;
  return EditorView.updateListener.of((update) => {
    if (!update.docChanged) return;
    clearTimeout(pending);
    pending = setTimeout(() => worker.postMessage({ write: path, text: update.state.doc.toString() }), 300);
  });
}

function show(path) {
  current = path;
  for (const [name, view] of views) view.dom.parentElement.hidden = name !== path;
  renderFiles();
  const view = views.get(path);
  view.requestMeasure();
  return view;
}

function renderFiles() {
  fileList.replaceChildren(...[...views.keys()].sort(byCourseOrder).map((path) => {
    const item = document.createElement("li");
    item.dataset.path = path;
    item.setAttribute("aria-current", String(path === current));
    const name = document.createElement("span");
    name.textContent = path;
    item.append(name);
    const count = (problems.get(uriOf(path)) || []).length;
    if (count) {
      const badge = document.createElement("span");
      badge.className = "count";
      badge.textContent = String(count);
      item.append(badge);
    }
    item.addEventListener("click", () => show(path));
    return item;
  }));
}

function byCourseOrder(a, b) {
  return (a.endsWith(".toml") ? 0 : 1) - (b.endsWith(".toml") ? 0 : 1) || a.localeCompare(b);
}

const SEVERITY = { 1: "error", 2: "warning", 3: "info", 4: "hint" };

function onProblems(uri, diagnostics) {
  problems.set(uri, diagnostics);
  const items = [];
  for (const [fileUri, list] of [...problems].sort(([a], [b]) => a.localeCompare(b))) {
    for (const diagnostic of list) {
      const item = document.createElement("li");
      item.className = SEVERITY[diagnostic.severity ?? 1];
      const where = document.createElement("span");
      where.className = "where";
      where.textContent = `${pathOf(fileUri)}:${diagnostic.range.start.line + 1} `;
      item.append(where, `${diagnostic.code ?? ""}: ${diagnostic.message}`);
      item.addEventListener("click", () => {
        const view = show(pathOf(fileUri));
        const plugin = LSPPlugin.get(view);
        view.dispatch({ selection: { anchor: plugin.fromPosition(diagnostic.range.start) }, scrollIntoView: true });
        view.focus();
      });
      items.push(item);
    }
  }
  problemList.replaceChildren(...items);
  renderFiles();
  scheduleMap();
}

let mapTimer = -1;
function scheduleMap() {
  clearTimeout(mapTimer);
  mapTimer = setTimeout(refreshMap, 400);
}

async function refreshMap() {
  const lesson = [...views.keys()].find((path) => path.endsWith(".md"));
  if (!lesson) return;
  try {
    const result = await client.request("workspace/executeCommand", { command: "mfls.courseMap", arguments: [uriOf(lesson)] });
    if (result && result.html) mapFrame.srcdoc = result.html;
  } catch (error) {
    console.warn("course map:", error);
  }
}
document.getElementById("refresh-map").addEventListener("click", refreshMap);

function lessonPath(name) {
  const trimmed = name.trim().replace(/^\/+/, "");
  if (!trimmed || trimmed.split("/").some((part) => part === "" || part === "." || part === "..")) return null;
  return trimmed.includes("/") ? trimmed : `lessons/${trimmed}`;
}

document.getElementById("add-lesson").addEventListener("click", () => {
  const lessons = [...views.keys()].filter((path) => path.startsWith("lessons/"));
  const suggested = `lessons/${String(lessons.length + 1).padStart(2, "0")}-new-lesson.md`;
  const path = lessonPath(window.prompt("New lesson's file name", suggested) || "");
  if (!path || views.has(path)) return;
  const text = "# New lesson\n\n";
  worker.postMessage({ write: path, text });
  editorFor(path, text);
  show(path);
});

document.getElementById("rename-file").addEventListener("click", () => {
  if (!current || current === "mfcourse.toml") return;
  const path = lessonPath(window.prompt(`Rename ${current} to`, current) || "");
  if (!path || views.has(path)) return;
  const old = views.get(current);
  const text = old.state.doc.toString();
  views.delete(current);
  problems.delete(uriOf(current));
  old.destroy();
  old.dom.parentElement?.remove();
  worker.postMessage({ remove: current });
  worker.postMessage({ write: path, text });
  editorFor(path, text);
  show(path);
});

document.getElementById("delete-file").addEventListener("click", () => {
  if (!current || current === "mfcourse.toml" || !window.confirm(`Delete ${current}?`)) return;
  const view = views.get(current);
  views.delete(current);
  view.destroy();
  view.dom.parentElement?.remove();
  worker.postMessage({ remove: current });
  onProblems(uriOf(current), []);
  problems.delete(uriOf(current));
  show(views.keys().next().value);
});

// A link to a place in the course (a hover's "Bound in 01-welcome.md:11") opens it here.
document.addEventListener("click", (event) => {
  const link = event.target instanceof Element && event.target.closest("a[href]");
  if (!link || !link.href.startsWith(`${ROOT_URI}/`)) return;
  event.preventDefault();
  const [uri, fragment = ""] = link.href.split("#");
  const path = pathOf(uri);
  if (!views.has(path)) return;
  const view = show(path);
  const line = Number((/^L(\d+)/.exec(fragment) || [])[1] || 1);
  view.dispatch({ selection: { anchor: view.state.doc.line(Math.min(line, view.state.doc.lines)).from }, scrollIntoView: true });
  view.focus();
});

for (const [path, text] of Object.entries(EXAMPLE_COURSE)) editorFor(path, text);
show(Object.keys(EXAMPLE_COURSE).find((path) => path.endsWith(".md")));

// For the browser test and the benchmark: the views by path.
window.mflsPlayground = { views, problems, show, uriOf };
