// The playground page: a course (file list, one CodeMirror editor per file), mfls in a Web
// Worker reached through @codemirror/lsp-client over a postMessage transport, the
// problems of every file and the course map beside the editor. A course comes from the
// example, a shared link, an AI-Shifu export or a folder, and goes back as an export.
// Opened as `index.html?ws=<the URL mfls serve --ws printed>`, the page has no worker: it
// edits the course of that server's --root, its files as the server has them.
import { basicSetup } from "codemirror";
import { Annotation, EditorState } from "@codemirror/state";
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
import { SEVERITY, diagnosticsWithFixes } from "./diagnostics.js";
import { semanticHighlighting } from "./semantic.js";
import { webSocketTransport, workerTransport } from "./transport.js";
import { locale, t, translatePage } from "./i18n.js";
import { MOST_SHARED_CHARACTERS, courseFragment, isShareLink, sharedCourse, sharedLesson } from "./share.js";
import { HOSTS, TARGETS, settingChange, settingOf } from "./course_settings.js";
import { courseMarkdown, zipName } from "./course_files.js";
import { folderFiles, pickedFiles } from "./folders.js";
import { pathUnder, uriUnder } from "./uris.js";
import { learnerView } from "./learner_view.js";

let ROOT_URI = "file:///course"; // in the socket mode, the server's root
const uriOf = (path) => uriUnder(ROOT_URI, path);
const pathOf = (uri) => pathUnder(ROOT_URI, uri);

const status = document.getElementById("status");
const fileList = document.getElementById("file-list");
const problemList = document.getElementById("problems");
const editorsHost = document.getElementById("editors");
const mapFrame = document.getElementById("map-frame");
const messageBox = document.getElementById("message");
const hostPicker = document.getElementById("host-picker");
const targetPicker = document.getElementById("target-picker");
translatePage();

const socketUrl = new URLSearchParams(location.search).get("ws");
let worker = socketUrl ? null : (window.mflsWorker ?? new Worker("worker.js", { type: "module" })); // boot.js's
if (socketUrl) for (const id of ["course-buttons", "add-lesson", "rename-file", "delete-file"]) document.getElementById(id).hidden = true;
const views = new Map(); // path -> EditorView
const problems = new Map(); // uri -> diagnostics as published
const loaded = new Map(); // path -> the file's text as it came, to tell edited files
let current = null;
let exportName = null; // the name an export is saved under (the course on the page's)
let epoch = 0; // how many courses replaced the first, as the worker counts them
let nextPack = 0;
const packing = new Map(); // id -> resolve
const opened = performance.now();

let kept = {}; // the bytes of the course's files that have no editor (an export's manifest)
let dead = false; // mfls's Python failed fatally in the worker
worker?.addEventListener("message", fromTheWorker);
function fromTheWorker(event) {
  const { ready, failed, course, refused, packed } = event.data;
  if (event.data.snapshotProblem) console.warn(`mfls: ${event.data.snapshotProblem}`);
  if (ready) {
    status.textContent = t("started", ready.version, ready.seconds.toFixed(1));
    window.mflsStarted = ready;
  } else if (failed) {
    status.dataset.state = "failed";
    status.textContent = t("notStarted", failed);
  } else if (event.data.dead !== undefined) {
    dead = true;
    status.dataset.state = "failed";
    status.textContent = t("stopped", event.data.dead);
    restartButton.hidden = false;
    say(t("stoppedRestart"), "error");
  } else if (course) {
    exportName = course.saveAs ?? null;
    kept = course.kept ?? {};
    epoch += 1;
    openCourse(course.files);
    if (course.title != null) say(t("opened", course.title, Object.keys(course.files).length), "info");
  } else if (refused !== undefined) {
    say(t("exportRefused", refused), "error");
  } else if (packed) {
    packing.get(packed.id)?.(packed);
    packing.delete(packed.id);
  }
}

// A message above the editor (what was opened, saved or refused), until dismissed.
function say(text, kind, link, block) {
  messageBox.dataset.kind = kind;
  messageBox.querySelector(".text").textContent = text;
  const field = messageBox.querySelector("input");
  field.hidden = !link;
  field.value = link || "";
  const area = messageBox.querySelector("textarea");
  area.hidden = !block;
  area.value = block || "";
  messageBox.hidden = false;
}

// mfls started again in a new worker, on the course as the page has it: every editor's
// text and the other files the course came with; the client connects to it anew (and
// opens every file there). The button shows beside the status while mfls is dead.
const restartButton = document.getElementById("restart");
restartButton.addEventListener("click", () => {
  messageBox.hidden = true;
  restartButton.hidden = true;
  worker.terminate();
  const files = { ...kept };
  for (const [path, view] of views) files[path] = textOf(view);
  worker = new Worker("worker.js", { type: "module" });
  worker.addEventListener("message", fromTheWorker);
  worker.postMessage({ course: files });
  dead = false;
  epoch = 0;
  status.dataset.state = "loading";
  status.textContent = t("restarting");
  client.disconnect();
  client.connect(workerTransport(worker, locale));
  client.initializing.then(initialized);
});
messageBox.querySelector("#dismiss").addEventListener("click", () => { messageBox.hidden = true; });

// The course the page opens with: the example, the course a shared link carries, or the
// lesson an older link carries (with the example's mfcourse.toml); a link that does not
// read says so and gives the example.
async function firstCourse() {
  let lesson = null;
  try {
    const course = await sharedCourse(location.hash);
    if (course) {
      say(t("sharedCourse", Object.keys(course).length), "info");
      return course;
    }
    lesson = await sharedLesson(location.hash);
  } catch {
    say(t("badLink"), "error");
    return EXAMPLE_COURSE;
  }
  const path = lesson && lessonPath(lesson.path);
  if (!lesson) return EXAMPLE_COURSE;
  if (!path || path === "mfcourse.toml") {
    say(t("badLink"), "error");
    return EXAMPLE_COURSE;
  }
  say(t("sharedLesson", path), "info");
  return { "mfcourse.toml": EXAMPLE_COURSE["mfcourse.toml"], [path]: lesson.text };
}
const startCourse = socketUrl ? {} : await firstCourse();
worker?.postMessage({ course: startCourse });

const client = new LSPClient({
  rootUri: ROOT_URI,
  timeout: 120000,
  // Changes reach the server as they are typed (diagnostics.js) and the worker runs one
  // message at a time: a shorter quiet time than the server's 150 ms default.
  initializationOptions: { mfls: { diagnosticDelay: 50 } },
  // @codemirror/lsp-client sends no `locale`: the transport adds the page's.
  workspace: (client) => new CourseWorkspace(client, show),
  extensions: [
    serverCompletion(),
    hoverTooltips(),
    keymap.of([...renameKeymap, ...jumpToDefinitionKeymap, ...findReferencesKeymap]),
    diagnosticsWithFixes(onProblems),
    semanticHighlighting(),
  ],
}).connect(socketUrl ? await reachServer(socketUrl) : workerTransport(worker, locale));

// The socket mode's transport; a server that cannot be reached is said on the page.
async function reachServer(url) {
  try {
    return await webSocketTransport(url, locale, socketClosed);
  } catch (error) {
    status.dataset.state = "failed";
    status.textContent = t("socketUnreachable", url.split("?")[0]);
    throw error;
  }
}

// The server behind the socket is gone: the page says so (its course stays on screen).
let socketGone = false;
function socketClosed(where, reason) {
  socketGone = true;
  status.dataset.state = "failed";
  status.textContent = t("socketClosed", where, reason);
}

client.initializing.then(() => {
  window.mflsReady = (performance.now() - opened) / 1000;
  initialized();
  if (socketUrl) openServersCourse();
});

function initialized() {
  if (!dead && status.dataset.state !== "failed") status.dataset.state = "ready";
}

// The socket mode: the course's files from the server (`mfls.courseFiles`), asked again
// while it is still indexing them.
async function openServersCourse() {
  for (;;) {
    try {
      const { courses } = await client.request("workspace/executeCommand", { command: "mfls.courseFiles", arguments: [] });
      ROOT_URI = courses[0].root;
      status.textContent = `mfls at ${socketUrl.split("?")[0]}: ${courses[0].root}`;
      openCourse(courses[0].files);
      return;
    } catch (error) {
      if (socketGone) return;
      if (!/still being indexed/.test(String(error && error.message))) {
        status.dataset.state = "failed";
        status.textContent = String(error && error.message || error);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

// A file whose lines all end in CRLF keeps them when edited; others get LF.
function separatorOf(text) {
  return text.includes("\r\n") && !text.replace(/\r\n/g, "").includes("\n") ? "\r\n" : "\n";
}

function lineEnds(text) {
  return separatorOf(text) === "\r\n" ? EditorState.lineSeparator.of("\r\n") : [];
}

function editorFor(path, text) {
  const saveToml = path.endsWith(".toml") && worker ? tomlWriter(path) : [];
  const settings = path === "mfcourse.toml" ? EditorView.updateListener.of((update) => update.docChanged && pickersFromFile()) : [];
  const view = new EditorView({
    doc: text,
    parent: editorsHost.appendChild(frame(path)),
    extensions: [
      lineEnds(text),
      basicSetup,
      lintGutter(),
      EditorView.lineWrapping,
      client.plugin(uriOf(path), path.endsWith(".md") ? "markdown" : "toml"),
      saveToml,
      settings,
    ],
  });
  view.dom.dataset.path = path;
  views.set(path, view);
  loaded.set(path, textOf(view));
  return view;
}

function frame(path) {
  const div = document.createElement("div");
  div.className = "file-editor";
  div.dataset.path = path;
  div.hidden = true;
  return div;
}

// Marks the page's own replacement of a text by the worker's (a course opened).
const fromWorker = Annotation.define();

// mfcourse.toml shapes the course: each edit is written where the server reads it, in the
// file's own line ends. A text the page replaced with the worker's own (a course opened) is
// already there, and an edit of the course before it is not written (nor, by the worker,
// one sent before the new course came: `epoch`).
function tomlWriter(path) {
  let pending = -1;
  return EditorView.updateListener.of((update) => {
    if (!update.docChanged) return;
    clearTimeout(pending);
    if (!update.transactions.some((tr) => tr.docChanged && !tr.annotation(fromWorker))) return;
    pending = setTimeout(() => writeFile(path, update.state.sliceDoc()), 300);
  });
}

// A file of the course written or removed where the server reads it, for the course on the
// page: the worker ignores what was sent for a course it has replaced meanwhile.
function writeFile(path, text) {
  worker.postMessage({ write: path, text, epoch });
}

function removeFile(path) {
  worker.postMessage({ remove: path, epoch });
}

function show(path) {
  current = path;
  for (const [name, view] of views) view.dom.parentElement.hidden = name !== path;
  renderFiles();
  if (path.endsWith(".md")) lastLesson = path;
  learner.update();
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

function onProblems(uri, diagnostics) {
  if (uri !== null) problems.set(uri, diagnostics);
  const items = [];
  for (const [fileUri, list] of [...problems].sort(([a], [b]) => a.localeCompare(b))) {
    for (const diagnostic of list) {
      const item = document.createElement("li");
      item.className = SEVERITY[diagnostic.severity ?? 1];
      const where = document.createElement("span");
      where.className = "where";
      where.textContent = `${pathOf(fileUri)}:${diagnostic.range.start.line + 1} `;
      item.append(where, `${diagnostic.code ?? ""}: ${diagnostic.message}`);
      item.addEventListener("click", () => goToProblem(fileUri, diagnostic));
      items.push(item);
    }
  }
  problemList.replaceChildren(...items);
  renderFiles();
  scheduleMap();
  learner.update();
}

// The editor of a problem's file shown, the cursor at the problem.
function goToProblem(fileUri, diagnostic) {
  const view = show(pathOf(fileUri));
  const plugin = LSPPlugin.get(view);
  view.dispatch({ selection: { anchor: plugin.fromPosition(diagnostic.range.start) }, scrollIntoView: true });
  view.focus();
}

// The open lesson as the learner page shows it (learner_view.js), beside the editor.
// It shows the lesson last shown in the editor.
let lastLesson = null;
const learner = learnerView({
  aside: document.getElementById("map"),
  lesson: () => (views.has(lastLesson) ? { path: lastLesson, uri: uriOf(lastLesson), text: textOf(views.get(lastLesson)) } : null),
  problemsOf: (uri) => problems.get(uri) || [],
  goTo: goToProblem,
});

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
    if (result && result.html && result.html !== mapFrame.srcdoc) mapFrame.srcdoc = result.html;
  } catch (error) {
    console.warn("course map:", error?.message ?? error);
  }
}
document.getElementById("refresh-map").addEventListener("click", refreshMap);

function lessonPath(name) {
  const trimmed = name.trim().replace(/^\/+/, "");
  if (!trimmed || trimmed.split("/").some((part) => part === "" || part === "." || part === "..")) return null;
  return trimmed.includes("/") ? trimmed : `lessons/${trimmed}`;
}

// A new course from the worker (an export unpacked, a folder): a file of the old course
// that the new one has keeps its editor (its text replaced where it differs, an edit the
// server is sent), the others' editors are closed and the new files' opened.
function openCourse(files) {
  for (const path of [...views.keys()]) {
    if (!(path in files)) closeEditor(path);
  }
  current = null;
  for (const [path, text] of Object.entries(files)) {
    const view = views.get(path);
    if (view && separatorOf(text) !== view.state.lineBreak) closeEditor(path);
    if (!views.has(path)) {
      editorFor(path, text);
    } else if (textOf(view) !== text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: fromWorker.of(true) });
      loaded.set(path, textOf(view));
    } else {
      loaded.set(path, textOf(view));
    }
  }
  onProblems(null, []);
  pickersFromFile();
  const first = [...views.keys()].sort(byCourseOrder).find((path) => path.endsWith(".md")) ?? views.keys().next().value;
  if (first) show(first);
}

// The editor of `path` closed and its frame removed (`destroy` takes the view's own element
// out of the frame, so the frame is found first); its problems are forgotten.
function closeEditor(path) {
  const view = views.get(path);
  if (!view) return;
  const frame = view.dom.parentElement;
  views.delete(path);
  problems.delete(uriOf(path));
  view.destroy();
  frame?.remove();
}

function textOf(view) {
  return view.state.sliceDoc();
}

document.getElementById("add-lesson").addEventListener("click", () => {
  const lessons = [...views.keys()].filter((path) => path.startsWith("lessons/"));
  const suggested = `lessons/${String(lessons.length + 1).padStart(2, "0")}-new-lesson.md`;
  const path = lessonPath(window.prompt(t("newLessonName"), suggested) || "");
  if (!path || views.has(path)) return;
  const text = "# New lesson\n\n";
  writeFile(path, text);
  editorFor(path, text);
  show(path);
});

document.getElementById("rename-file").addEventListener("click", () => {
  if (!current || current === "mfcourse.toml") return;
  const path = lessonPath(window.prompt(t("renameTo", current), current) || "");
  if (!path || views.has(path)) return;
  const text = textOf(views.get(current));
  closeEditor(current);
  removeFile(current);
  writeFile(path, text);
  editorFor(path, text);
  show(path);
  onProblems(null, []);
});

document.getElementById("delete-file").addEventListener("click", () => {
  if (!current || current === "mfcourse.toml" || !window.confirm(t("deleteFile", current))) return;
  closeEditor(current);
  removeFile(current);
  onProblems(null, []);
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

// An AI-Shifu export, picked or dropped: unpacked by mfls in the worker, or refused with
// mfls's reason and the course left as it is.
async function openExport(file) {
  let bytes;
  try {
    bytes = await file.arrayBuffer();
  } catch (error) {
    say(t("exportRefused", `${file.name}: ${error.message}`), "error"); // a folder dropped
    return;
  }
  worker.postMessage({ openExport: { name: file.name, bytes } }, [bytes]);
}

const exportInput = document.getElementById("export-input");
document.getElementById("open-export").addEventListener("click", () => exportInput.click());
exportInput.addEventListener("change", () => {
  if (exportInput.files[0]) openExport(exportInput.files[0]);
  exportInput.value = "";
});
document.addEventListener("dragover", (event) => {
  if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
});
document.addEventListener("drop", (event) => {
  const file = event.dataTransfer?.files[0];
  if (!file) return;
  event.preventDefault();
  openExport(file);
});

// A folder from disk: read through the File System Access API where the browser has it,
// else from the files of an <input webkitdirectory>.
function openFolder(name, files) {
  if (!Object.keys(files).some((path) => path.endsWith(".md") || path === "mfcourse.toml")) {
    say(t("folderEmpty"), "error");
    return;
  }
  worker.postMessage({ replace: { files, title: name, saveAs: `${name}.json` } });
}

const folderInput = document.getElementById("folder-input");
document.getElementById("open-folder").addEventListener("click", async () => {
  if (!window.showDirectoryPicker) {
    folderInput.click();
    return;
  }
  let folder;
  try {
    folder = await window.showDirectoryPicker({ mode: "read" });
  } catch {
    return; // the picker was closed
  }
  openFolder(folder.name, await folderFiles(folder));
});
folderInput.addEventListener("change", async () => {
  const picked = await pickedFiles(folderInput.files);
  folderInput.value = "";
  if (picked) openFolder(picked.name, picked.files);
});

// The course packed back by mfls into its export (the files edited here written first),
// downloaded; a file nothing edited goes back byte for byte.
document.getElementById("save-export").addEventListener("click", async () => {
  const edited = {};
  for (const [path, view] of views) {
    if (textOf(view) !== loaded.get(path)) edited[path] = textOf(view);
  }
  const id = ++nextPack;
  const packed = await new Promise((resolve) => {
    packing.set(id, resolve);
    worker.postMessage({ pack: { id, edited } });
  });
  if (packed.refused !== undefined) {
    say(t("packRefused", packed.refused), "error");
    return;
  }
  const name = exportName ?? "course.json";
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([packed.bytes], { type: "application/json" }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  say(t("saved", name), "info");
});

// The course's files as text, path -> text, in the file list's order.
function courseTexts() {
  return Object.fromEntries([...views.keys()].sort(byCourseOrder).map((path) => [path, textOf(views.get(path))]));
}

// Share: every file of the course in the address's fragment, the link copied and shown.
document.getElementById("share").addEventListener("click", async () => {
  if (!views.size) return;
  const fragment = await courseFragment(courseTexts());
  if (fragment.length > MOST_SHARED_CHARACTERS) {
    say(t("tooLongToShare", fragment.length, MOST_SHARED_CHARACTERS), "error");
    return;
  }
  history.replaceState(null, "", fragment);
  const link = location.href;
  try {
    await navigator.clipboard.writeText(link);
    say(t("shared"), "info", link);
  } catch {
    say(t("shareShown"), "info", link);
  }
});

// A shared link pasted into this tab's address: its course (or lesson) replaces the course.
window.addEventListener("hashchange", async () => {
  if (socketUrl || !isShareLink(location.hash)) return;
  const course = await firstCourse();
  worker.postMessage({ replace: { files: encoded(course), title: null } });
});

// The course downloaded as a zip: every file (the bytes of those without an editor too),
// named after the course (mfcourse.toml's name, else the export's).
document.getElementById("download-zip").addEventListener("click", async () => {
  const { courseZip } = await import("./course_zip.js");
  const files = { ...kept, ...courseTexts() };
  const name = zipName(views.has("mfcourse.toml") ? textOf(views.get("mfcourse.toml")) : null, exportName?.replace(/\.json$/i, ""));
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([courseZip(files)], { type: "application/zip" }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  say(t("saved", name), "info");
});

// Every file as Markdown, with the mfls version, on the clipboard (shown when the
// clipboard refuses): what a bug report needs.
document.getElementById("copy-markdown").addEventListener("click", async () => {
  const version = window.mflsStarted?.version ?? (socketUrl ? `mfls at ${socketUrl.split("?")[0]}` : t("starting"));
  const markdown = courseMarkdown(courseTexts(), version);
  try {
    await navigator.clipboard.writeText(markdown);
    say(t("copiedMarkdown", views.size), "info");
  } catch {
    say(t("copyMarkdownShown"), "info", null, markdown);
  }
});

// The host and target picker: mfcourse.toml's `host` and `target`, written in the file
// (as an edit of its editor, which reaches mfls as typing does), and shown as the file has
// them, however it was edited. The target may be left to the host's default.
function options(select, values, first) {
  select.replaceChildren(...[...first, ...values.map((value) => [value, value])].map(([value, label]) => new Option(label, value)));
}
options(hostPicker, HOSTS, []);
options(targetPicker, TARGETS, [["", t("hostDefault")]]);

function pickersFromFile() {
  const view = views.get("mfcourse.toml");
  const text = view ? textOf(view) : "";
  hostPicker.disabled = targetPicker.disabled = !view;
  for (const [select, key, absent] of [[hostPicker, "host", "generic"], [targetPicker, "target", ""]]) {
    const value = settingOf(text, key) ?? absent;
    select.querySelector("option.unknown")?.remove();
    if (![...select.options].some((option) => option.value === value)) {
      const unknown = new Option(t("unknownSetting", value), value);
      unknown.className = "unknown";
      select.append(unknown);
    }
    select.value = value;
  }
}

function pick(key, value) {
  const view = views.get("mfcourse.toml");
  if (!view) return;
  const change = settingChange(textOf(view), key, value);
  if (change) view.dispatch({ changes: change, userEvent: "input" });
}
hostPicker.addEventListener("change", () => pick("host", hostPicker.value));
targetPicker.addEventListener("change", () => pick("target", targetPicker.value || null));

function encoded(course) {
  const encoder = new TextEncoder();
  return Object.fromEntries(Object.entries(course).map(([path, text]) => [path, encoder.encode(text)]));
}

if (!socketUrl) openCourse(startCourse);
pickersFromFile();

// For the browser test and the benchmark: the views by path; `breakPython` makes the
// worker's Python fail fatally (it harms only this page's mfls, which can be restarted).
const breakPython = () => worker?.postMessage({ breakPython: true });
window.mflsPlayground = { views, problems, show, uriOf, loaded, breakPython };
