// The mfls language server in a Web Worker: Pyodide's Python runs mfls's synchronous front
// end (SyncServer on a SteppedLoop) over the course the page sends, kept under /course in
// Pyodide's in-memory file system. Messages from the page:
//   {course: {path: text, ...}}   the course's files, once, before any LSP message
//   {lsp: "<JSON-RPC text>"}      a message for the server
//   {write: path, text} / {remove: path}   a file of the course written or removed
// and to the page: {lsp: text} for each message the server sends, {ready: {...}} once
// Python is up, {failed: message} if it cannot start.
import { loadPyodide } from "./pyodide/pyodide.mjs";

const ROOT = "/course";
const ROOT_URI = "file:///course";
const base = new URL(".", self.location.href);

let server = null; // the Python SyncServer
let timer = null;
const waiting = []; // page messages that came before Python was ready

function send(texts) {
  for (const text of texts) self.postMessage({ lsp: text });
}

function unwrap(result) {
  const texts = result.toJs();
  result.destroy();
  return texts;
}

// One message for the server: the clock caught up first, then the message, then the timer.
function drain(run) {
  catchUp();
  send(unwrap(run()));
  schedule();
}

// The server's loop keeps its own clock (SteppedLoop): before each message it is moved by
// the real time since the last, so a timer (the debounce of pushed diagnostics) falls due
// when it would on a real loop, and a timer is set for the earliest one still waiting.
let clock = performance.now();

function catchUp() {
  const now = performance.now();
  const elapsed = (now - clock) / 1000;
  clock = now;
  if (elapsed > 0) send(unwrap(server.advance(elapsed)));
}

function schedule() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  const next = server.next_timer();
  if (next === undefined || next === null) return;
  timer = setTimeout(() => {
    timer = null;
    catchUp();
    schedule();
  }, next * 1000);
}

function uriOf(path) {
  return `${ROOT_URI}/${path.split("/").map(encodeURIComponent).join("/")}`;
}

// The client chooses no root: the course root is the page's, always /course.
function rooted(text) {
  const message = JSON.parse(text);
  if (message.method !== "initialize") return text;
  message.params.rootUri = ROOT_URI;
  message.params.rootPath = ROOT;
  message.params.workspaceFolders = [{ uri: ROOT_URI, name: "course" }];
  return JSON.stringify(message);
}

function writeFile(pyodide, path, text) {
  const full = `${ROOT}/${path}`;
  pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
  pyodide.FS.writeFile(full, text, { encoding: "utf8" });
}

function watched(path, type) {
  return JSON.stringify({
    jsonrpc: "2.0",
    method: "workspace/didChangeWatchedFiles",
    params: { changes: [{ uri: uriOf(path), type }] },
  });
}

function handle(pyodide, data) {
  if (data.lsp !== undefined) {
    drain(() => server.handle(rooted(data.lsp)));
  } else if (data.write !== undefined) {
    let existed = true;
    try { pyodide.FS.stat(`${ROOT}/${data.write}`); } catch { existed = false; }
    writeFile(pyodide, data.write, data.text);
    drain(() => server.handle(watched(data.write, existed ? 2 : 1)));
  } else if (data.remove !== undefined) {
    try { pyodide.FS.unlink(`${ROOT}/${data.remove}`); } catch { /* already gone */ }
    drain(() => server.handle(watched(data.remove, 3)));
  }
}

async function start(course) {
  const started = performance.now();
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", base).href });
  const loaded = performance.now();
  const manifest = await (await fetch(new URL("wheels/manifest.json", base))).json();
  const site = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  // The wheels byte-compiled into one archive at build time (scripts/precompile.mjs).
  const bytes = await (await fetch(new URL(`wheels/${manifest.archive}`, base))).arrayBuffer();
  pyodide.unpackArchive(bytes, "zip", { extractDir: site });
  const unpacked = performance.now();
  for (const [path, text] of Object.entries(course)) writeFile(pyodide, path, text);
  clock = performance.now();
  server = pyodide.runPython(`
from mfls.lsp.stepped_loop import SteppedLoop
from mfls.lsp.sync import SyncServer
SyncServer(loop=SteppedLoop())
`);
  const version = pyodide.runPython("import mfls, sys; f'mfls {mfls.__version__}, Python {sys.version.split()[0]}'");
  const seconds = (end) => (end - started) / 1000;
  self.postMessage({
    ready: { version, seconds: seconds(performance.now()), loaded: seconds(loaded), unpacked: seconds(unpacked) },
  });
  while (waiting.length) handle(pyodide, waiting.shift());
  return pyodide;
}

let python = null;
self.onmessage = (event) => {
  const data = event.data;
  if (data.course !== undefined) {
    start(data.course).then((pyodide) => { python = pyodide; }, (error) => {
      self.postMessage({ failed: String(error && error.message || error) });
    });
  } else if (python === null) {
    waiting.push(data);
  } else {
    handle(python, data);
  }
};
