// The mfls language server in a Web Worker: Pyodide's Python runs mfls's synchronous front
// end (SyncServer on a SteppedLoop) over the course the page sends, kept under /course in
// Pyodide's in-memory file system; the course's exports, folders and the lesson path rule
// are mfls's Python too (mfls/lsp/playground.py). Python starts loading as soon as the
// worker does. Messages from the page:
//   {lessonPath: {id, name}}      the course path of a lesson the author named (or null)
//   {course: {path: text, ...}, restarted}  the course's files, once, before any LSP
//                                message (paths mfls's rule refuses left out: {leftOut})
//   {lsp: "<JSON-RPC text>"}      a message for the server (`initialize: true` on initialize)
//   {write: path, text, epoch} / {remove: path, epoch}   a file of the course written or
//                                removed; ignored when `epoch` (how many courses the page
//                                had seen replace the first) is older than the worker's
//   {openExport: {name, bytes}}  an AI-Shifu export, unpacked by mfls as the new course
//   {replace: {files: {path: bytes}, title, saveAs, shared}}  a folder from disk (or a
//                                pasted share link's course: `shared`) as the new course
//   {pack: {id, edited: {path: text}}}  the course packed back by mfls into its export
//   {breakPython: true}          Python made to fail fatally, as a too deep recursion in C
//                                does (for the browser test of a restart; it harms only
//                                this page's own Python, which the page then offers to
//                                restart)
// and to the page: {lessonPath: {id, path}}, {lsp: text} for each message the server sends, {ready: {...}} once
// Python is up (`cached`: the runtime's files this start read from the cache; `snapshot`:
// whether Python started from the cached snapshot), {failed: message} if it cannot start, {course: {files, kept, title, saveAs, leftOut}}
// after an export or folder replaced the course (`kept`: the bytes of its other files, for
// a restart; `leftOut`: the paths mfls's rule refused), {leftOut: [path]} for a file of the
// course the page sent that the rule refuses (not written), {refused: message} when mfls refuses one, {packed: {id, bytes}} or {packed:
// {id, refused}}, and {dead: message} once Pyodide has failed fatally (it cannot run
// again: every later request is answered with an error, and the page may start a new
// worker with the course it has).
import { loadPyodide } from "pyodide";
import { readSparseSnapshot, sparseSnapshot } from "./sparse_snapshot.js";
import { uriUnder } from "./uris.js";

const ROOT = "/course";
const SITE_PACKAGES = "/lib/mfls-site-packages.zip"; // the wheels' modules, byte-compiled
const ROOT_URI = "file:///course";
const base = new URL(".", self.location.href);

let server = null; // the Python SyncServer
let folder = null; // the course's folder (mfls.lsp.playground.CourseFolder)
let pagePath = null; // the one rule for a path the page writes (mfls.lsp.playground.page_path)
let timer = null;
let dead = null; // why Pyodide failed fatally, once it has
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
    try {
      catchUp();
      schedule();
    } catch (error) {
      if (!fatal(error)) throw error;
      die(error);
    }
  }, next * 1000);
}

// Pyodide's fatal error (a stack overflow in C code, say): the first call throws the error
// itself, every later one that it "already fatally failed".
function fatal(error) {
  return Boolean(error && (error.pyodide_fatal_error || /fatally failed/.test(String(error.message))));
}

function die(error) {
  if (dead !== null) return;
  dead = String(error && error.message || error).split("\n")[0];
  if (timer !== null) clearTimeout(timer);
  timer = null;
  self.postMessage({ dead });
}

// After death: a request is answered with an error at once (the client would wait for its
// timeout), a pack refused; the rest is dropped.
function answerDead(data) {
  if (data.pack !== undefined) {
    self.postMessage({ packed: { id: data.pack.id, refused: dead } });
  } else if (data.lsp !== undefined) {
    const message = JSON.parse(data.lsp);
    if (message.id === undefined || message.method === undefined) return;
    const error = { code: -32603, message: `mfls stopped: ${dead}` };
    self.postMessage({ lsp: JSON.stringify({ jsonrpc: "2.0", id: message.id, error }) });
  }
}

function uriOf(path) {
  return uriUnder(ROOT_URI, path);
}

// The client chooses no root: the course root is the page's, always /course. The page marks
// `initialize` (it has parsed every message already), so no other message is parsed here.
function rooted(text) {
  const message = JSON.parse(text);
  message.params.rootUri = ROOT_URI;
  message.params.rootPath = ROOT;
  message.params.workspaceFolders = [{ uri: ROOT_URI, name: "course" }];
  return JSON.stringify(message);
}

// A file's text, or its bytes (a Uint8Array).
function writeFile(pyodide, path, content) {
  const full = `${ROOT}/${path}`;
  pyodide.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
  pyodide.FS.writeFile(full, content, typeof content === "string" ? { encoding: "utf8" } : {});
}

function watched(path, type) {
  return JSON.stringify({
    jsonrpc: "2.0",
    method: "workspace/didChangeWatchedFiles",
    params: { changes: [{ uri: uriOf(path), type }] },
  });
}

function fromPython(result) {
  const value = result.toJs({ dict_converter: Object.fromEntries });
  result.destroy();
  return value;
}

// The course replaced: the server told of each file gone, changed and made. `saveAs` is the
// name its export is saved under, sent back with the course it belongs to.
let epoch = 0;
function replaced(result, saveAs) {
  epoch += 1;
  const old = new Set(result.old);
  const made = new Set(result.new);
  const changes = [
    ...result.old.filter((path) => !made.has(path)).map((path) => ({ uri: uriOf(path), type: 3 })),
    ...result.new.map((path) => ({ uri: uriOf(path), type: old.has(path) ? 2 : 1 })),
  ];
  const notice = JSON.stringify({ jsonrpc: "2.0", method: "workspace/didChangeWatchedFiles", params: { changes } });
  drain(() => server.handle(notice));
  self.postMessage({ course: { files: result.texts, kept: result.kept, title: result.title, saveAs, leftOut: result.left_out } });
}

// An export or folder that mfls's code fails on (a bug, not a refusal) is refused with the
// error, and the course stays as it was.
function handle(pyodide, data) {
  if (dead !== null) {
    answerDead(data);
    return;
  }
  try {
    handleCourse(pyodide, data);
  } catch (error) {
    if (fatal(error)) {
      die(error);
      answerDead(data);
      return;
    }
    const why = String(error && error.message || error);
    if (data.pack !== undefined) self.postMessage({ packed: { id: data.pack.id, refused: why } });
    else if (data.openExport !== undefined || data.replace !== undefined) self.postMessage({ refused: why });
    else throw error;
  }
}

function handleCourse(pyodide, data) {
  if (data.openExport !== undefined) {
    const result = fromPython(folder.open_export(new Uint8Array(data.openExport.bytes), data.openExport.name));
    if (result.refused !== undefined) self.postMessage({ refused: result.refused });
    else replaced(result, data.openExport.name);
  } else if (data.replace !== undefined) {
    const files = pyodide.toPy(new Map(Object.entries(data.replace.files)));
    const result = fromPython(folder.replace(files, data.replace.title, Boolean(data.replace.shared)));
    files.destroy();
    if (result.refused !== undefined) self.postMessage({ refused: result.refused });
    else replaced(result, data.replace.saveAs);
  } else if (data.pack !== undefined) {
    const edited = pyodide.toPy(new Map(Object.entries(data.pack.edited)));
    const result = fromPython(folder.pack(edited));
    edited.destroy();
    self.postMessage({ packed: { id: data.pack.id, ...result } });
  } else if (data.breakPython) {
    pyodide.runPython('import json; json.loads("[" * 1_000_000 + "]" * 1_000_000)');
  } else if (data.lsp !== undefined) {
    drain(() => server.handle(data.initialize ? rooted(data.lsp) : data.lsp));
  } else if ((data.write !== undefined || data.remove !== undefined) && data.epoch !== epoch) {
    // Sent for a course replaced since: not this course's file.
  } else if (!pagePath(data.write ?? data.remove ?? "")) {
    if (data.write !== undefined) self.postMessage({ leftOut: [data.write] });
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

// The runtime cached (Cache API): Pyodide's files and the wheels' archive, fetched by
// Pyodide and by start() through this worker's fetch, are kept in a cache named after the
// build (manifest.json's `build`, a hash of those files; the manifest itself is always
// asked of the network), so a second visit reads them from the disk; a new build's cache
// replaces the others. Where the page has no Cache API (not a secure context) everything
// comes from the network as before.
const CACHE_PREFIX = "mfls-playground-";
const networkFetch = self.fetch.bind(self);
const fromCache = []; // the runtime's files read from the cache on this start

function isRuntime(url) {
  if (url.origin !== base.origin || url.pathname.endsWith("/manifest.json")) return false;
  return ["pyodide/", "wheels/"].some((folder) => url.pathname.startsWith(base.pathname + folder));
}

function cacheRuntime(manifest) {
  const cache = manifest.then(async ({ build }) => {
    if (!self.caches || !build) return null;
    const name = CACHE_PREFIX + build;
    for (const other of await caches.keys()) {
      if (other.startsWith(CACHE_PREFIX) && other !== name) await caches.delete(other);
    }
    return caches.open(name);
  }).catch(() => null);
  // A file asked again while it is still coming from the network (pyodide.asm.wasm: by
  // the early compile and by Pyodide) is fetched once; each asker gets a copy.
  const coming = new Map(); // url -> the network's response, until it is in the cache
  self.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), base);
    if (!isRuntime(url)) return networkFetch(input, init);
    const store = await cache;
    const hit = store && (await store.match(url.href).catch(() => undefined));
    if (hit) {
      const name = url.pathname.slice(base.pathname.length);
      if (!fromCache.includes(name)) fromCache.push(name);
      return hit;
    }
    if (!coming.has(url.href)) {
      const response = networkFetch(input, init);
      coming.set(url.href, response);
      response.then((got) => (store && got.ok ? store.put(url.href, got.clone()) : undefined))
        .catch(() => undefined)
        .finally(() => coming.delete(url.href));
    }
    return (await coming.get(url.href)).clone();
  };
  return cache;
}

// pyodide.asm.wasm compiled from the moment the worker starts, while the snapshot is read
// and Pyodide's script imported (Pyodide would compile it only after both): Pyodide's own
// instantiation is handed the compiled module. If the early compile fails, Pyodide
// compiles as it would have.
function compileEarly() {
  const compiling = WebAssembly.compileStreaming(fetch(new URL("pyodide/pyodide.asm.wasm", base)));
  compiling.then(() => step("compiled"), () => undefined);
  return compiling;
}

function instantiateCompiled(settings, compiling) {
  const instantiate = settings.instantiateWasm;
  if (!instantiate) return;
  settings.instantiateWasm = (imports, done) => {
    const streaming = WebAssembly.instantiateStreaming;
    WebAssembly.instantiateStreaming = async (response, asked) => {
      WebAssembly.instantiateStreaming = streaming;
      let module;
      try {
        module = await compiling;
      } catch {
        return streaming(response, asked);
      }
      step("wasmCompiled");
      return { instance: await WebAssembly.instantiate(module, asked), module };
    };
    return instantiate(imports, done);
  };
}

// Python with mfls imported, as a memory snapshot of Pyodide (its `_makeSnapshot` and
// `_loadSnapshot`), kept in the runtime's cache; a second visit starts from it instead of
// starting Python and importing mfls again. It is made by a worker of its own (this script
// as `worker.js?snapshot`, the MAKER), which the page's worker starts once a first visit
// has been quiet for a second: it starts Python, runs mfls.lsp.playground's `warm_up` (a
// server over a course of its own, then dropped, so the modules and converters a server's
// first answers need are in the snapshot), saves the snapshot without the memory's zero
// pages (sparse_snapshot.js: half the bytes to read) and stops. No author's course
// ever exists in it, and the first visit's way to its problems does none of this. The
// wheels' archive is not in the snapshot (Pyodide's file system lives in JavaScript): it
// is written again. A second visit reads the snapshot while Pyodide's module is made. A
// snapshot that does not load is dropped and Python started as on a first visit.
const SNAPSHOT = new URL("pyodide/mfls-snapshot.bin", base).href; // a cache key, never fetched
const MAKER = new URLSearchParams(self.location.search).has("snapshot");

let snapshotProblem = null; // why the last snapshot did not load or was not made (for tests)
// When each step of the start ended (ms since the worker began), for the benchmark.
const steps = {};
const began = performance.now();
const step = (name) => { steps[name] = Math.round(performance.now() - began); };

// The cached snapshot as it is read (`{reading}`: a promise of its bytes), or null when there
// is none. Its read goes on while Pyodide's module is imported and made.
async function savedSnapshot(store) {
  if (!store) return null;
  try {
    const found = await store.match(SNAPSHOT);
    step("snapshotFound");
    if (!found) {
      snapshotProblem = `no snapshot in ${(await caches.keys()).join(", ")}: ${(await store.keys()).map((r) => r.url).join(", ")}`;
      return null;
    }
    const reading = found.arrayBuffer().then((bytes) => {
      step("snapshotRead");
      steps.snapshotBytes = bytes.byteLength;
      return new Uint8Array(bytes);
    });
    reading.catch(() => undefined); // awaited when the module is made
    return { reading };
  } catch (error) {
    snapshotProblem = `the cached snapshot could not be read: ${error?.message ?? error}`;
    return null;
  }
}

// Pyodide's module made while the snapshot is read: Pyodide would read the snapshot before
// it makes the module (it is handed `_loadSnapshot`), and use it only once the module is
// made (`API.restoreSnapshot`, which is handed the snapshot read meanwhile). The module's
// memory is grown to the snapshot's before the snapshot is copied in (Pyodide sizes it by
// the whole snapshot, which its module does not follow).
function restoredFrom(reading, compiling, importing) {
  return async (settings) => {
    const module = await madeModule(settings, compiling, importing);
    const snapshot = readSparseSnapshot(await reading);
    const blocks = [];
    while (module.HEAP8.length < snapshot.length) {
      const block = module._malloc(4 << 20);
      if (!block) break;
      blocks.push(block);
    }
    for (const block of blocks) module._free(block);
    const restore = module.API.restoreSnapshot;
    module.API.restoreSnapshot = () => {
      const restored = restore(snapshot.header); // checked, its memory none
      snapshot.copyInto(new Uint8Array(module.HEAP8.buffer, 0, snapshot.length));
      return restored;
    };
    return module;
  };
}

async function madeModule(settings, compiling, importing) {
  const create = (await importing).default;
  step("moduleImported");
  instantiateCompiled(settings, compiling);
  const module = await create(settings);
  step("moduleCreated");
  return module;
}

// Pyodide's script (pyodide.asm.mjs) imported from the moment the worker starts.
function importEarly() {
  const importing = import(new URL("pyodide/pyodide.asm.mjs", base).href);
  importing.then(() => step("asmImported"), () => undefined);
  return importing;
}

// Python started from the cached snapshot, or anew (the MAKER always: it makes one).
async function startPython(store, compiling, importing) {
  const indexURL = new URL("pyodide/", base).href;
  const saved = MAKER ? null : await savedSnapshot(store);
  if (saved) {
    try {
      // `_loadSnapshot` only tells Pyodide to start from a snapshot: the one it restores
      // is the one `restoredFrom` reads.
      const settings = { indexURL, _loadSnapshot: new Uint8Array(16), createPyodideModule: restoredFrom(saved.reading, compiling, importing) };
      return { pyodide: await loadPyodide(settings), snapshot: true };
    } catch (error) {
      snapshotProblem = `the cached snapshot did not load: ${error?.message ?? error}`;
      await store.delete(SNAPSHOT).catch(() => undefined);
    }
  }
  const settings = { indexURL, _makeSnapshot: Boolean(store) && MAKER, createPyodideModule: (made) => madeModule(made, compiling, importing) };
  return { pyodide: await loadPyodide(settings), snapshot: false };
}

// The MAKER's work: mfls's server warmed up on a course of its own and dropped, Python's
// memory saved in the cache; then the maker stops.
async function saveSnapshot({ pyodide, playground, store }) {
  try {
    if (!store) return;
    playground.warm_up();
    const image = sparseSnapshot(pyodide.makeMemorySnapshot());
    await store.put(SNAPSHOT, new Response(image, { headers: { "content-type": "application/octet-stream" } }));
  } catch (error) {
    self.postMessage({ snapshotProblem: `no snapshot of Python made: ${error?.message ?? error}` });
  } finally {
    self.close();
  }
}

// The page's worker on a first visit: the MAKER started once the page has been quiet for a
// second (no message from it), after mfls's first answers.
let lastMessage = performance.now();
const QUIET_MS = 1000;
function makeSnapshotWhenQuiet() {
  setTimeout(() => {
    if (dead !== null) return;
    if (server === null || performance.now() - lastMessage < QUIET_MS) {
      makeSnapshotWhenQuiet();
      return;
    }
    const maker = new Worker(new URL("worker.js?snapshot", self.location.href), { type: "module" });
    maker.addEventListener("message", (event) => {
      snapshotProblem = event.data.snapshotProblem ?? snapshotProblem;
      if (event.data.snapshotProblem) self.postMessage({ snapshotProblem });
    });
  }, QUIET_MS);
}

// Python started as soon as the worker is (the course comes later, from the page): the
// runtime fetched or read from the cache, mfls's packages unpacked.
async function startRuntime() {
  const started = performance.now();
  // The wheels byte-compiled into one archive at build time (scripts/precompile.mjs), fetched
  // while Pyodide loads.
  const manifest = fetch(new URL("wheels/manifest.json", base), { cache: "no-cache" }).then((response) => response.json());
  const cache = cacheRuntime(manifest);
  const compiling = compileEarly();
  const importing = importEarly();
  const wheels = manifest
    .then((found) => fetch(new URL(`wheels/${found.archive}`, base)))
    .then((response) => response.arrayBuffer());
  wheels.catch(() => undefined); // awaited below; a failure is reported there
  const store = await cache;
  step("cacheOpened");
  const { pyodide, snapshot } = await startPython(store, compiling, importing);
  const loaded = performance.now();
  step("pythonStarted");
  // The archive is imported from as it is (zipimport), one file written rather than its
  // two hundred unpacked; a start from the snapshot has it on sys.path already.
  const bytes = await wheels;
  pyodide.FS.writeFile(SITE_PACKAGES, new Uint8Array(bytes));
  if (!snapshot) pyodide.runPython(`import sys; sys.path.insert(0, "${SITE_PACKAGES}")`);
  const unpacked = performance.now();
  step("wheelsWritten");
  const playground = pyodide.pyimport("mfls.lsp.playground");
  step("playgroundImported");
  if (store && !snapshot && !MAKER) makeSnapshotWhenQuiet();
  return { pyodide, playground, store, snapshot, started, loaded, unpacked };
}
const runtime = startRuntime();
runtime.catch(() => undefined); // reported when the course comes (or, in the MAKER, below)
if (MAKER) {
  runtime.then(saveSnapshot, (error) => {
    self.postMessage({ snapshotProblem: `no snapshot of Python made: ${error?.message ?? error}` });
    self.close();
  });
}

async function start(course, restarted) {
  const { pyodide, playground, snapshot, started, loaded, unpacked } = await runtime;
  step("courseStarted");
  pagePath = playground.page_path;
  // The course the page opened (a share link's, before Python was up): what the rule
  // refuses is left out, and the page told. A restart's course is the one mfls had (with
  // the `.mfls/` records an export brought).
  const rule = restarted ? playground.safe_path : pagePath;
  const leftOut = Object.keys(course).filter((path) => !rule(path)).sort();
  for (const [path, text] of Object.entries(course)) if (rule(path)) writeFile(pyodide, path, text);
  if (leftOut.length) self.postMessage({ leftOut });
  clock = performance.now();
  server = playground.serve();
  folder = playground.CourseFolder();
  const version = playground.version();
  step("served");
  const seconds = (end) => (end - started) / 1000;
  self.postMessage({
    ready: {
      version,
      seconds: seconds(performance.now()),
      loaded: seconds(loaded),
      unpacked: seconds(unpacked),
      steps,
      cached: fromCache,
      snapshot,
      snapshotProblem,
      // When the worker began and was ready, on the clock of the page's navigation.
      began: performance.timeOrigin + started,
      readyAt: performance.timeOrigin + performance.now(),
    },
  });
  while (waiting.length) handle(pyodide, waiting.shift());
  return pyodide;
}

// The one lesson path rule (mfls.lsp.playground.lesson_path), for the page: answered once
// Python is up, before or after the course.
async function answerLessonPath({ id, name }) {
  let path = null;
  try {
    path = dead === null ? ((await runtime).playground.lesson_path(name) ?? null) : null;
  } catch (error) {
    if (fatal(error)) die(error);
  }
  self.postMessage({ lessonPath: { id, path } });
}

let python = null;
self.onmessage = (event) => {
  const data = event.data;
  lastMessage = performance.now();
  if (data.lessonPath !== undefined) {
    answerLessonPath(data.lessonPath);
  } else if (data.course !== undefined) {
    step("courseArrived");
    start(data.course, Boolean(data.restarted)).then((pyodide) => { python = pyodide; }, (error) => {
      self.postMessage({ failed: String(error && error.message || error) });
    });
  } else if (python === null) {
    waiting.push(data);
  } else {
    handle(python, data);
  }
};
