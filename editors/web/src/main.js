// The playground page: a course (file list, one CodeMirror editor per file), mfls in a Web
// Worker reached through @codemirror/lsp-client over a postMessage transport, the
// problems of every file and the course map beside the editor. A course comes from the
// example, a shared link, an AI-Shifu export or a folder, and goes back as an export.
// Opened as `index.html?ws=<the URL mfls serve --ws printed>`, the page has no worker: it
// edits the course of that server's --root, its files as the server has them.
//
// This module only wires the page's parts together, each in a module named for it:
// page_state.js (the state, one owner handed to every part), mfls_worker.js (the worker),
// socket_mode.js, course_editors.js (the editors), file_list.js, problem_list.js,
// course_map_panel.js (the map and the Learner view), share_links.js, course_exports.js
// (exports and folders), course_downloads.js (zip, Copy as Markdown), course_pickers.js
// (host and target), place_links.js, message_box.js and status_line.js.
import { keymap } from "@codemirror/view";
import {
  LSPClient,
  findReferencesKeymap,
  hoverTooltips,
  jumpToDefinitionKeymap,
  renameKeymap,
  serverCompletion,
} from "@codemirror/lsp-client";
import { CourseWorkspace } from "./workspace.js";
import { diagnosticsWithFixes } from "./diagnostics.js";
import { semanticHighlighting } from "./semantic.js";
import { workerTransport } from "./transport.js";
import { locale, translatePage } from "./i18n.js";
import { PageState } from "./page_state.js";
import { MflsWorker } from "./mfls_worker.js";
import { SOCKET_HIDDEN, SocketMode } from "./socket_mode.js";
import { CourseEditors } from "./course_editors.js";
import { fileList } from "./file_list.js";
import { problemList } from "./problem_list.js";
import { courseMapPanel } from "./course_map_panel.js";
import { firstCourse, shareLinks } from "./share_links.js";
import { courseExports } from "./course_exports.js";
import { courseDownloads } from "./course_downloads.js";
import { coursePickers } from "./course_pickers.js";
import { placeLinks } from "./place_links.js";
import { statusFailed, showStatus } from "./status_line.js";

const opened = performance.now();
translatePage();

const socketUrl = new URLSearchParams(location.search).get("ws");
const state = new PageState({
  socketUrl,
  worker: socketUrl ? null : (window.mflsWorker ?? new Worker("worker.js", { type: "module" })), // boot.js's
});
if (socketUrl) for (const id of SOCKET_HIDDEN) document.getElementById(id).hidden = true;

const pickersFromFile = coursePickers(state);
const worker = socketUrl ? null : new MflsWorker(
  state,
  (files) => editors.openCourse(files),
  (paths) => paths.forEach((path) => editors.close(path)),
);
const socket = socketUrl ? new SocketMode(state) : null;
const editors = new CourseEditors(state, worker, () => pickersFromFile());
fileList(state, editors, worker);
const onProblems = problemList(state, editors);

const startCourse = socketUrl ? {} : await firstCourse(worker);
worker?.post({ course: startCourse });

const client = new LSPClient({
  rootUri: state.rootUri,
  timeout: 120000,
  // Changes reach the server as they are typed (diagnostics.js) and the worker runs one
  // message at a time (messages already waiting are handled before a round that falls due):
  // a quiet time of 10 ms, not the server's 150 ms default. It is also the wait between
  // opening the course and its first problems.
  initializationOptions: { mfls: { diagnosticDelay: 10 } },
  // @codemirror/lsp-client sends no `locale`: the transport adds the page's.
  workspace: (client) => new CourseWorkspace(client, (path) => editors.show(path)),
  extensions: [
    serverCompletion(),
    hoverTooltips(),
    keymap.of([...renameKeymap, ...jumpToDefinitionKeymap, ...findReferencesKeymap]),
    diagnosticsWithFixes(onProblems),
    semanticHighlighting(),
  ],
}).connect(socket ? await socket.connect() : workerTransport(state.worker, locale));
editors.client = client;

function initialized() {
  if (!state.dead && !statusFailed()) showStatus(null, "ready");
}

client.initializing.then(() => {
  window.mflsReady = (performance.now() - opened) / 1000;
  initialized();
  if (socket) socket.openCourse(client, (files) => editors.openCourse(files));
});
worker?.restartOnClick(client, initialized);

courseMapPanel(state, editors, client);
placeLinks(state, editors);
if (worker) {
  shareLinks(state, worker);
  courseExports(state, worker);
}
courseDownloads(state);

if (!socketUrl) editors.openCourse(startCourse);
pickersFromFile();

// For the browser test and the benchmark: the views by path; `breakPython` makes the
// worker's Python fail fatally (it harms only this page's mfls, which can be restarted).
const breakPython = () => worker?.post({ breakPython: true });
window.mflsPlayground = {
  views: state.views,
  problems: state.problems,
  show: (path) => editors.show(path),
  uriOf: (path) => state.uriOf(path),
  loaded: state.loaded,
  breakPython,
};
