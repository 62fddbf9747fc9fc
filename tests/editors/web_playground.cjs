// The playground (editors/web/dist) in headless chromium, used as a person uses it: wait for
// the example course's problems, open a lesson, take the quick fix, complete `{{ Wh`,
// go to a binding in another lesson, hover a marker, rename a key with F2; then the course
// as files: an export dropped and refused, a real one opened and saved back (as it came, then edited),
// its unpacked folder opened and saved; a lesson shared by link and opened from it, a
// damaged link; the page under its Content-Security-Policy; the Learner view; exports nested
// far too deep, then a fatal failure of the worker's Python and the restart; the page in
// Simplified Chinese.
// Each step records what is on screen and what is downloaded; the pytest side
// (test_web_playground.py) judges it.
// Environment: MFLS_NODE_MODULES (with playwright-core), MFLS_URL, MFLS_CHROMIUM,
// MFLS_RESULTS (a JSON file written at the end), MFLS_SHOT (the screenshot's path),
// MFLS_FOREIGN_URL (another origin, for a request the page must not make), MFLS_BROKEN
// (a .json mfls refuses), MFLS_DEEP (exports nested too deep, comma-separated),
// MFLS_LEARNER_LESSON (the Learner view's lesson), MFLS_EXPORT and MFLS_FOLDER (an AI-Shifu export and that export
// unpacked by `mfls unpack`; when absent, those steps are skipped), MFLS_DOWNLOADS (a folder
// for the downloads).
const fs = require("fs");
const path = require("path");
const { recorded } = require(path.join(__dirname, "page_kit.cjs"));
const { until } = require(path.join(__dirname, "kit", "driver_kit.cjs"));

const WAIT = 60_000;
const results = { steps: {}, errors: [], console: [], requests: [] };

async function text(page, path) {
  return page.evaluate((p) => window.mflsPlayground.views.get(p).state.doc.toString(), path);
}

async function openFile(page, file) {
  await page.click(`#file-list li[data-path="${file}"]`);
  await page.waitForSelector(`.file-editor[data-path="${file}"]:not([hidden]) .cm-content`);
}

// Puts the cursor at the first occurrence of `needle` (plus `offset`) in the visible editor.
async function cursorAt(page, file, needle, offset = 0) {
  const at = await page.evaluate(([p, n, o]) => {
    const view = window.mflsPlayground.views.get(p);
    const pos = view.state.doc.toString().indexOf(n) + o;
    view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
    view.focus();
    const box = view.coordsAtPos(pos);
    return { pos, x: box.left + 2, y: (box.top + box.bottom) / 2 };
  }, [file, needle, offset]);
  return at;
}

// 8b. mfcourse.toml typed into shapes the course: lesson 3 put first reads the key lesson 1
// asks before it is asked; undone, the problem goes.
async function courseFileEdit(page) {
  const toml = "mfcourse.toml";
  const back = await page.evaluate(() => document.querySelector(".file-editor:not([hidden])")?.dataset.path);
  const readBeforeAsked = () => page.$$eval("#problems li", (items) =>
    items.map((li) => li.textContent).filter((t) => t.includes("read-before-asked")));
  const original = await text(page, toml);
  await openFile(page, toml);
  await cursorAt(page, toml, '"lessons/*.md"');
  await page.keyboard.press("Shift+End");
  await page.keyboard.type('"lessons/03-*.md", "lessons/01-*.md", "lessons/02-*.md"]', { delay: 20 });
  const typed = await text(page, toml);
  const reordered = await until(async () => {
    const rows = await readBeforeAsked();
    return rows.length ? rows : null;
  }, "read-before-asked problems", WAIT, 100);
  for (let i = 0; i < 20 && (await text(page, toml)) !== original; i++) await page.keyboard.press("Control+z");
  await until(async () => (await readBeforeAsked()).length === 0, "the read-before-asked problems to go", WAIT, 100);
  const undone = { same: (await text(page, toml)) === original, readBeforeAsked: await readBeforeAsked() };
  if (back) await openFile(page, back);
  return { typed: typed.split("\n").find((line) => line.startsWith("lessons")), reordered, undone };
}

// The fixes in the tooltip of the problem at `needle` in `file`, hovered as a person does.
// The tooltip may come before the fixes do (they are asked after the problems show, and
// showing them closes an open tooltip): then the mouse goes away and back.
async function fixesShown(page, file, needle) {
  const deadline = Date.now() + WAIT;
  for (;;) {
    await page.mouse.move(5, 5);
    const at = await cursorAt(page, file, needle, 3);
    await page.mouse.move(at.x, at.y);
    try {
      await page.waitForSelector(".cm-tooltip-lint .cm-diagnosticAction", { timeout: 3000 });
      return await page.$$eval(".cm-tooltip-lint .cm-diagnosticAction", (els) => els.map((e) => e.textContent));
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
  }
}

// The fixes in the tooltip of the problem at `needle`, as they are when it shows (none, when
// the problem has none).
async function fixesNow(page, file, needle) {
  const at = await cursorAt(page, file, needle, 3);
  await page.mouse.move(at.x, at.y);
  await page.waitForSelector(".cm-tooltip-lint", { timeout: WAIT });
  return page.$$eval(".cm-tooltip-lint .cm-diagnosticAction", (els) => els.map((e) => e.textContent));
}

async function visibleText(page, file) {
  return page.innerText(`.file-editor[data-path="${file}"] .cm-content`);
}

// Every Content-Security-Policy violation of the page, from before its scripts run (the
// map's sandboxed frame cannot reach the page's list: its violations show on the console).
function watchViolations() {
  window.mflsViolations = [];
  document.addEventListener("securitypolicyviolation", (event) => {
    window.mflsViolations.push(`${event.effectiveDirective} ${event.blockedURI}`);
  });
}

function record(page) {
  page.on("console", (m) => results.console.push(`${m.type()}: ${m.text()}`));
  page.on("pageerror", (e) => results.errors.push(`page error: ${e.message}`));
  page.on("request", (r) => results.requests.push(r.url()));
}

const listed = (page) => page.$$eval("#file-list li", (items) => items.map((li) => li.dataset.path));
const problemsShown = (page) => page.$$eval("#problems li", (items) => items.map((li) => li.textContent));

async function message(page, kind) {
  await page.waitForSelector(`#message[data-kind="${kind}"]:not([hidden])`, { timeout: WAIT });
  const shown = await page.textContent("#message .text");
  await page.click("#message #dismiss");
  return shown;
}

async function chooseFiles(page, button, files) {
  const [chooser] = await Promise.all([page.waitForEvent("filechooser", { timeout: WAIT }), page.click(button)]);
  await chooser.setFiles(files);
}

// `files` dropped on the page one right after the other, as a person drops them from a
// file manager.
async function dropFiles(page, ...files) {
  await page.evaluate((dropped) => {
    const editors = document.getElementById("editors");
    for (const [bytes, name] of dropped) {
      const dataTransfer = new DataTransfer();
      dataTransfer.items.add(new File([new Uint8Array(bytes)], name, { type: "application/json" }));
      for (const type of ["dragover", "drop"]) {
        editors.dispatchEvent(new DragEvent(type, { dataTransfer, bubbles: true, cancelable: true }));
      }
    }
  }, files.map((file) => [[...fs.readFileSync(file)], path.basename(file)]));
}

async function saveExport(page, name) {
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: WAIT }), page.click("#save-export")]);
  const target = path.join(process.env.MFLS_DOWNLOADS, name);
  await download.saveAs(target);
  return { suggested: download.suggestedFilename(), path: target, message: await message(page, "info") };
}

async function waitReady(page) {
  await page.waitForSelector("#status[data-state=ready]", { timeout: WAIT });
}

// The course as files: the example refused as an export, a broken export refused, a real
// one opened, saved back, edited and saved, its unpacked folder opened and saved.
async function courseFiles(page) {
  const steps = {};
  steps.exampleSave = await (async () => {
    await page.click("#save-export");
    return message(page, "error");
  })();
  // The broken export dropped on the page (the real one below comes by the file picker).
  const before = await listed(page);
  await dropFiles(page, process.env.MFLS_BROKEN);
  steps.refused = { message: await message(page, "error"), before, after: await listed(page) };
  if (!process.env.MFLS_EXPORT) return steps;
  await chooseFiles(page, "#open-export", process.env.MFLS_EXPORT);
  const opened = await message(page, "info");
  await page.waitForFunction(() => window.mflsPlayground.problems.size > 0, null, { timeout: WAIT });
  steps.opened = { message: opened, list: await listed(page) };
  steps.saved = await saveExport(page, "unchanged.json");
  const lesson = steps.opened.list.find((p) => p.endsWith(".md") && !p.startsWith("prompts/"));
  await page.evaluate((p) => {
    const view = window.mflsPlayground.views.get(p);
    view.dispatch({ changes: { from: view.state.doc.length, insert: "\nEdited in the playground.\n" }, userEvent: "input.paste" });
  }, lesson);
  steps.edited = { lesson, text: await text(page, lesson), ...(await saveExport(page, "edited.json")) };
  // The folder `mfls unpack` made of the same export, through <input webkitdirectory>
  // (the File System Access API's picker is a native dialog a test cannot drive).
  await page.evaluate(() => { window.showDirectoryPicker = undefined; });
  await chooseFiles(page, "#open-folder", process.env.MFLS_FOLDER);
  steps.folder = { message: await message(page, "info"), list: await listed(page) };
  steps.folder.saved = await saveExport(page, "folder.json");
  // The export dropped and the broken one right after it: the course is the export's, and
  // it is saved under the export's name, not the refused one's.
  // Every message the page shows meanwhile, in order (the two reads may end in either order).
  await page.evaluate(() => {
    window.shownMessages = [];
    new MutationObserver(() => {
      const text = document.querySelector("#message .text").textContent;
      if (window.shownMessages.at(-1) !== text) window.shownMessages.push(text);
    }).observe(document.getElementById("message"), { subtree: true, childList: true, characterData: true });
  });
  await dropFiles(page, process.env.MFLS_EXPORT, process.env.MFLS_BROKEN);
  await page.waitForFunction(() => window.shownMessages.some((t) => t.startsWith("Opened ")) &&
    window.shownMessages.some((t) => t.startsWith("Not opened: ")), null, { timeout: WAIT });
  steps.raced = { shown: (await page.evaluate(() => window.shownMessages)).sort(), list: await listed(page) };
  await page.click("#message #dismiss");
  steps.raced.saved = await saveExport(page, "raced.json");
  // Each file's editor in its own frame: the frames of the courses replaced are gone.
  const frames = () => page.evaluate(() => ({
    frames: document.querySelectorAll(".file-editor").length,
    views: window.mflsPlayground.views.size,
  }));
  steps.frames = await frames();
  // A lesson deleted from the page: its editor, its frame and its problems go with it.
  const shown = await page.getAttribute(".file-editor:not([hidden])", "data-path");
  await page.click("#delete-file");
  await page.waitForFunction((p) => !window.mflsPlayground.views.has(p), shown, { timeout: WAIT });
  steps.deleted = { path: shown, ...(await frames()), problems: await problemsShown(page) };
  return steps;
}

// Exports nested far too deep (MFLS_DEEP, comma-separated), dropped one after the other:
// each refused with mfls's message while the status stays ready; then the real export is
// opened and typed into, and its problems come. Then the worker's Python is made to fail
// fatally: the page says so and offers a restart, which brings mfls back on the course the
// page has (saved, it is the same export byte for byte; typed into, problems come).
async function survives(page) {
  const steps = { deep: [] };
  const state = () => page.getAttribute("#status", "data-state");
  for (const file of process.env.MFLS_DEEP.split(",")) {
    await dropFiles(page, file);
    steps.deep.push({ name: path.basename(file), message: await message(page, "error"), state: await state() });
  }
  if (process.env.MFLS_EXPORT) {
    await chooseFiles(page, "#open-export", process.env.MFLS_EXPORT);
    steps.opened = await message(page, "info");
  }
  const lesson = (await listed(page)).find((p) => p.endsWith(".md") && !p.startsWith("prompts/"));
  const typedProblem = async (key) => {
    await openFile(page, lesson);
    await page.evaluate((p) => {
      const view = window.mflsPlayground.views.get(p);
      view.dispatch({ selection: { anchor: view.state.doc.length } });
      view.focus();
    }, lesson);
    await page.keyboard.type(`\nRecall {{ ${key} }}.`, { delay: 20 });
    return until(async () => (await problemsShown(page)).find((p) => p.includes(key)) ?? null,
      `a problem about ${key}`, WAIT, 100);
  };
  steps.typed = { lesson, problem: await typedProblem("the deep key"), state: await state() };
  steps.typed.saved = await saveExport(page, "before-break.json");
  steps.typed.list = await listed(page);
  steps.typed.text = await text(page, lesson);

  await page.evaluate(() => window.mflsPlayground.breakPython());
  await page.waitForSelector("#restart:not([hidden])", { timeout: WAIT });
  await page.waitForSelector("#message[data-kind=error]:not([hidden])", { timeout: WAIT });
  steps.dead = {
    message: await page.textContent("#message .text"),
    button: await page.textContent("#restart"),
    status: await page.textContent("#status"),
    state: await state(),
  };
  await page.screenshot({ path: process.env.MFLS_SHOT.replace(/\.png$/, "-stopped.png") });
  // Asked for a fix meanwhile, the page gets an answer (an error), not a wait.
  // (The stopped message dismissed first: the refusal's message is read, not the one before.)
  steps.dead.saveRefused = await (async () => {
    await page.click("#message #dismiss");
    await page.click("#save-export");
    return message(page, "error");
  })();
  await page.click("#restart");
  await page.waitForSelector("#status[data-state=ready]", { timeout: WAIT });
  steps.restarted = {
    status: await page.textContent("#status"),
    list: await listed(page),
    text: await text(page, lesson),
    problems: await until(async () => {
      const shown = await problemsShown(page);
      return shown.some((p) => p.includes("the deep key")) ? shown : null;
    }, "the problems after the restart", WAIT, 100),
  };
  steps.restarted.saved = await saveExport(page, "after-restart.json");
  steps.restarted.typed = await typedProblem("a key after the restart");
  steps.restarted.state = await state();
  return steps;
}

// What the Learner view shows of each line: its buttons, input, warnings, raw text,
// captions and problem links, by line number.
const learnerShown = (page) => page.$$eval(".learner-lesson > li", (items) => items.map((li) => ({
  line: Number(li.dataset.line),
  kind: li.className,
  buttons: [...li.querySelectorAll(".learner-choice")].map((b) => b.textContent),
  input: li.querySelector(".learner-input")?.placeholder ?? null,
  caption: li.querySelector(".learner-caption")?.textContent ?? null,
  warning: li.querySelector(".learner-warning")?.textContent ?? null,
  raw: li.querySelector(".learner-raw")?.textContent ?? null,
  problems: [...li.querySelectorAll(".learner-problem")].map((a) => a.textContent),
  text: li.classList.contains("learner-ai") ? li.textContent : null,
})));

// The Learner view as an author uses it: a lesson with interactions the learner page reads
// and one it cannot; the pane opened (remark-flow fetched only then), read in each page
// version, the unreadable interaction's problem clicked (the editor goes there), closed.
async function learnerView(page, addLesson, answers) {
  const fetched = () => results.requests.filter((url) => url.endsWith("/learner_page.js")).length;
  const steps = { fetchedBefore: fetched() };
  const lesson = await addLesson("07-learner.md", process.env.MFLS_LEARNER_LESSON);
  steps.text = await text(page, lesson);
  const unreadable = steps.text.split("\n").findIndex((line) => line.includes("{{What would you like to learn?}}")) + 1;
  await until(async () => (await problemsShown(page)).some((p) => p.startsWith(`${lesson}:${unreadable} page-unreadable-binding`)),
    "the page-unreadable-binding problem", WAIT, 100);
  await page.click("#open-learner-view");
  await page.waitForSelector(".learner-lesson .learner-interaction", { timeout: WAIT });
  steps.fetchedAfter = fetched();
  steps.versions = await page.$$eval("#page-version option", (options) => options.map((o) => [o.value, o.textContent]));
  steps.chosen = await page.inputValue("#page-version");
  steps.shown = { [steps.chosen]: await learnerShown(page) };
  await page.screenshot({ path: process.env.MFLS_SHOT.replace(/\.png$/, "-learner.png") });
  const other = steps.versions.map(([value]) => value).find((value) => value !== steps.chosen);
  await page.selectOption("#page-version", other);
  await page.waitForSelector(`#learner-view[data-version="${other}"]`, { timeout: WAIT });
  steps.shown[other] = await learnerShown(page);
  await page.screenshot({ path: process.env.MFLS_SHOT.replace(/\.png$/, "-learner-other.png") });
  // The unreadable interaction's problem, clicked: the editor of the lesson at the key.
  // mfcourse.toml shown in the editor: the pane keeps the lesson.
  await openFile(page, "mfcourse.toml");
  steps.keptLesson = await page.textContent(".learner-path");
  await page.click(`.learner-interaction[data-line="${unreadable}"] .learner-problem`);
  steps.clicked = await page.evaluate(() => {
    const path = document.querySelector("#file-list li[aria-current=true]").dataset.path;
    const view = window.mflsPlayground.views.get(path);
    const head = view.state.selection.main.head;
    const line = view.state.doc.lineAt(head);
    return { path, line: line.number, at: line.text.slice(head - line.from), focused: view.hasFocus };
  });
  await page.click("#close-learner-view");
  steps.closed = await page.evaluate(() => ({
    pane: document.getElementById("learner-view").hidden,
    map: getComputedStyle(document.getElementById("map-frame")).display,
  }));
  steps.fetchedAtEnd = fetched();
  answers.push(""); // the confirm: accepted
  await page.click("#delete-file");
  await page.waitForFunction((p) => !window.mflsPlayground.views.has(p), lesson, { timeout: WAIT });
  return steps;
}

// Share: every file of the course in a link; the link opened in a new tab (the page's
// second visit: its runtime from the cache) shows the course; an older link of one lesson
// still opens; a damaged fragment there gives a message and the example course.
async function share(context, page) {
  // A course too large for a link (text that does not compress) is refused.
  const long = "lessons/03-practice.md";
  await openFile(page, long);
  const before = await text(page, long);
  await page.evaluate((p) => {
    const view = window.mflsPlayground.views.get(p);
    let seed = 7;
    let noise = "";
    for (let i = 0; i < 40000; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      noise += "abcdefghijklmnopqrstuvwxyz0123456789"[(seed >>> 16) % 36];
    }
    view.dispatch({ changes: { from: view.state.doc.length, insert: `\n${noise}\n` } });
  }, long);
  await page.click("#share");
  const tooLong = await message(page, "error");
  await page.evaluate(([p, t]) => {
    const view = window.mflsPlayground.views.get(p);
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t } });
  }, [long, before]);
  const lesson = "lessons/02-first-program.md";
  await openFile(page, lesson);
  const edited = "# Shared\n\nRead {{ A key only this link knows }} here — 共享。\n";
  await page.evaluate(([p, t]) => {
    const view = window.mflsPlayground.views.get(p);
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t } });
  }, [lesson, edited]);
  const sent = {};
  for (const file of await listed(page)) sent[file] = await text(page, file);
  await page.click("#share");
  await page.waitForSelector("#message:not([hidden]) input:not([hidden])", { timeout: WAIT });
  const link = await page.inputValue("#message input");
  const steps = { tooLong, link, sent, url: page.url(), message: await message(page, "info") };
  // The first visit keeps the runtime and a snapshot of Python, made before any course.
  const snapshotCached = () => page.evaluate(async () => Boolean(await caches.match(new URL("pyodide/mfls-snapshot.bin", location.href).href)));
  await until(snapshotCached, "the snapshot of Python cached", WAIT, 200);
  // Which of these the snapshot's bytes hold: text of the first visit's course (the
  // example's lessons, the key edited in above) must not be there (the snapshot is made
  // before any course); the name of mfls's playground module must (the search finds text).
  steps.snapshotHolds = await page.evaluate(async (needles) => {
    const found = await caches.match(new URL("pyodide/mfls-snapshot.bin", location.href).href);
    const image = new TextDecoder("latin1").decode(new Uint8Array(await found.arrayBuffer()));
    return needles.filter((needle) => image.includes(needle));
  }, ["Greet the learner and introduce the course", "What is your preferred editor?", "A key only this link knows", "mfls.lsp.playground"]);
  const other = await context.newPage();
  record(other);
  const opening = Date.now();
  await other.goto(link);
  await waitReady(other);
  await other.waitForFunction(() => document.querySelectorAll("#problems li").length >= 1, null, { timeout: WAIT });
  const received = {};
  for (const file of await listed(other)) received[file] = await text(other, file);
  steps.opened = {
    message: await other.textContent("#message .text"),
    list: await listed(other),
    current: await other.getAttribute("#file-list li[aria-current=true]", "data-path"),
    received,
    problems: await problemsShown(other),
    cached: await other.evaluate(() => window.mflsStarted.cached),
    snapshot: await other.evaluate(() => window.mflsStarted.snapshot),
    snapshotProblem: await other.evaluate(() => window.mflsStarted.snapshotProblem),
    seconds: (Date.now() - opening) / 1000,
  };
  await other.click("#message #dismiss");
  // A link of one lesson, as the page made them before: the lesson with the example's
  // mfcourse.toml.
  const oldLink = `#lesson=${require("zlib").deflateRawSync(JSON.stringify({ path: lesson, text: edited })).toString("base64url")}`;
  await other.evaluate((hash) => { location.hash = hash; }, oldLink);
  steps.oldLink = { message: await message(other, "info") };
  await other.waitForFunction(() => document.querySelectorAll("#file-list li").length === 2, null, { timeout: WAIT });
  steps.oldLink.list = await listed(other);
  steps.oldLink.text = await text(other, lesson);
  // A course link whose paths mfls's one rule refuses (mfls's own .mfls records, a path a
  // Windows unzipper reads as folders): pasted, and opened in a new tab (the rule applied
  // when the course reaches the worker, before Python was up), they are left out and named.
  const refusedFiles = {
    "mfcourse.toml": 'host = "generic"\n',
    "lessons/shared-01.md": "# Shared\n",
    ".mfls/rename-records.jsonl": "planted\n",
    "a\\..\\..\\x.md": "# Out\n",
  };
  const refusedLink = `#course=${require("zlib").deflateRawSync(JSON.stringify({ files: refusedFiles })).toString("base64url")}`;
  await other.evaluate((hash) => { location.hash = hash; }, refusedLink);
  steps.leftOut = { pasted: await message(other, "error") };
  await other.waitForFunction(() => document.querySelectorAll("#file-list li").length === 2 && document.querySelector("#file-list li[data-path='lessons/shared-01.md']"), null, { timeout: WAIT });
  steps.leftOut.pastedList = await listed(other);
  const third = await context.newPage();
  record(third);
  await third.goto(`${new URL(link).origin}${new URL(link).pathname}${refusedLink}`);
  steps.leftOut.opened = await message(third, "error");
  await waitReady(third);
  steps.leftOut.openedList = await listed(third);
  await third.close();
  await other.evaluate(() => { location.hash = `#course=${"A".repeat(40000)}`; });
  steps.tooLongOpened = { message: await message(other, "error") };
  await other.waitForFunction(() => document.querySelectorAll("#file-list li").length === 4, null, { timeout: WAIT });
  await other.evaluate(() => { location.hash = "#lesson=not-a-lesson!"; });
  steps.damaged = { message: await message(other, "error") };
  await other.waitForFunction(() => document.querySelectorAll("#file-list li").length === 4, null, { timeout: WAIT });
  await other.waitForFunction(() => document.querySelectorAll("#problems li").length >= 2, null, { timeout: WAIT });
  steps.damaged.list = await listed(other);
  steps.damaged.problems = await problemsShown(other);
  // A fragment that is no shared lesson (a place in the page) leaves the course alone.
  await openFile(other, "lessons/03-practice.md");
  await other.evaluate(() => { location.hash = "#top"; });
  await other.waitForTimeout(300);
  steps.otherFragment = { list: await listed(other), current: await other.getAttribute("#file-list li[aria-current=true]", "data-path") };
  await other.close();
  return steps;
}

// 10b. The host and target picker (mfcourse.toml written, the problems mfls's for it, the
// picker following a hand edit), the course as a zip download and as Markdown on the
// clipboard.
async function courseTools(context, page) {
  const began = Date.now();
  const toml = "mfcourse.toml";
  const original = await text(page, toml);
  const pickers = () => page.evaluate(() => ({
    host: document.getElementById("host-picker").value,
    target: document.getElementById("target-picker").value,
  }));
  const rows = (code) => page.$$eval("#problems li", (items, c) => items.filter((li) => li.textContent.includes(c)).length, code);
  const steps = {
    original,
    choices: await page.evaluate(() => ["host-picker", "target-picker"].map((id) =>
      [...document.getElementById(id).options].map((o) => [o.value, o.textContent]))),
    picked: [await pickers()],
  };
  await page.selectOption("#host-picker", "generic");
  await until(async () => (await rows("page-unreadable-binding")) === 0, "the ai-shifu problems to go", WAIT, 100);
  steps.generic = { toml: await text(page, toml), problems: await problemsShown(page) };
  await page.selectOption("#target-picker", "markdown-flow-0.3");
  await until(async () => (await rows("runtime-binding-ignored")) > 0, "markdown-flow 0.3's problems", WAIT, 100);
  steps.old = { toml: await text(page, toml), problems: await problemsShown(page) };
  // By hand: the host typed over in the file; the picker follows.
  await openFile(page, toml);
  await cursorAt(page, toml, '"generic"', 1);
  for (let i = 0; i < "generic".length; i++) await page.keyboard.press("Shift+ArrowRight");
  await page.keyboard.type("playground");
  steps.picked.push(await pickers());
  await page.selectOption("#target-picker", "");
  steps.noTarget = { toml: await text(page, toml), picked: await pickers() };
  await page.evaluate(([p, t]) => {
    const view = window.mflsPlayground.views.get(p);
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t }, userEvent: "input" });
  }, [toml, original]);
  steps.picked.push(await pickers());
  await until(async () => (await rows("page-unreadable-binding")) > 0, "the ai-shifu problems back", WAIT, 100);

  // The course as a zip, named after it.
  const files = {};
  for (const file of await listed(page)) files[file] = await text(page, file);
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: WAIT }), page.click("#download-zip")]);
  const zip = path.join(process.env.MFLS_DOWNLOADS, `zip-${download.suggestedFilename()}`);
  await download.saveAs(zip);
  steps.zip = { suggested: download.suggestedFilename(), path: zip, files, message: await message(page, "info") };

  // Copy as Markdown: what lands on the clipboard.
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(process.env.MFLS_URL).origin });
  await page.click("#copy-markdown");
  steps.markdown = {
    message: await message(page, "info"),
    clipboard: await page.evaluate(() => navigator.clipboard.readText()),
    version: await page.evaluate(() => window.mflsStarted.version),
  };
  steps.seconds = (Date.now() - began) / 1000;
  return steps;
}

// The page's own strings (every element that has them), for the English and Chinese pages.
const pageStrings = (page) => page.$$eval("[data-i18n], [data-i18n-aria-label], [data-i18n-title]", (els) =>
  els.map((e) => [e.getAttribute("data-i18n") ? e.textContent : null, e.getAttribute("aria-label"), e.getAttribute("title")]));

async function chinese(browser) {
  const context = await browser.newContext({ locale: "zh-CN", viewport: { width: 1400, height: 820 } });
  await context.addInitScript(watchViolations);
  try {
    const page = await context.newPage();
    record(page);
    await page.goto(process.env.MFLS_URL);
    await page.waitForFunction(() => document.querySelectorAll("#problems li").length >= 2, null, { timeout: WAIT });
    const shown = {
      languages: await page.evaluate(() => navigator.languages),
      lang: await page.getAttribute("html", "lang"),
      title: await page.title(),
      status: await page.textContent("#status"),
      strings: await pageStrings(page),
      problems: await problemsShown(page),
      violations: await page.evaluate(() => window.mflsViolations),
    };
    await page.click("#open-learner-view");
    await page.waitForSelector(".learner-lesson .learner-interaction", { timeout: WAIT });
    shown.learner = {
      heading: await page.textContent("#learner-view h2 span"),
      note: await page.textContent(".learner-note"),
      shown: await learnerShown(page),
    };
    await page.evaluate(() => window.mflsPlayground.breakPython());
    await page.waitForSelector("#restart:not([hidden])", { timeout: WAIT });
    await page.waitForSelector("#message[data-kind=error]:not([hidden])", { timeout: WAIT });
    shown.dead = {
      message: await page.textContent("#message .text"),
      button: await page.textContent("#restart"),
      status: await page.textContent("#status"),
      state: await page.getAttribute("#status", "data-state"),
    };
    return shown;
  } finally {
    await context.close();
  }
}

async function main() {
  await recorded(results, async (browser) => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 820 }, acceptDownloads: true });
    await context.addInitScript(watchViolations);
    const page = await context.newPage();
    record(page);
    const started = Date.now();
    await page.goto(process.env.MFLS_URL);

    // 1. The example course's problems, in the list and as underlines in the lesson.
    await page.waitForFunction(() => document.querySelectorAll("#problems li").length >= 2, null, { timeout: WAIT });
    results.steps.problems = {
      seconds: (Date.now() - started) / 1000,
      cached: await page.evaluate(() => window.mflsStarted.cached),
      status: await page.textContent("#status"),
      list: await page.$$eval("#problems li", (items) => items.map((li) => li.textContent)),
      files: await page.$$eval("#file-list li", (items) => items.map((li) => li.textContent)),
    };
    await page.waitForSelector(".cm-mfls-variable", { timeout: WAIT });
    results.steps.semantic = await page.$$eval(".file-editor:not([hidden]) [class*=cm-mfls-]", (els) =>
      els.map((e) => [e.className, e.textContent]));
    const lesson2 = "lessons/02-first-program.md";
    await openFile(page, lesson2);
    await page.waitForSelector(`.file-editor[data-path="${lesson2}"] .cm-lintRange-warning`, { timeout: WAIT });
    results.steps.underlines = {
      ranges: await page.$$eval(`.file-editor[data-path="${lesson2}"] .cm-lintRange-warning`, (els) => els.map((e) => e.textContent)),
      gutter: await page.$$eval(`.file-editor[data-path="${lesson2}"] .cm-lint-marker-warning`, (els) => els.length),
    };

    // 2. The quick fix of the near miss, from the diagnostic's tooltip. The page asks the
    // fixes of problems a few lines apart together: once the near miss's have come, the
    // other problem's tooltip shows its own, which may be none.
    const nearMissFixes = await fixesShown(page, lesson2, "would you like to lern");
    await page.mouse.move(5, 5);
    const unboundFixes = await fixesNow(page, lesson2, "preferred editor");
    await page.mouse.move(5, 5);
    await fixesShown(page, lesson2, "would you like to lern");
    const action = await page.waitForSelector(".cm-tooltip-lint .cm-diagnosticAction", { timeout: WAIT });
    const fixTitle = await action.textContent();
    await action.click();
    await page.waitForFunction(
      (p) => !window.mflsPlayground.views.get(p).state.doc.toString().includes("lern"),
      lesson2,
      { timeout: WAIT },
    );
    const fixedLine = (await visibleText(page, lesson2)).split("\n").find((l) => l.includes("Start from"));
    await page.mouse.move(5, 5);
    results.steps.quickFix = { title: fixTitle, line: fixedLine, nearMissFixes, unboundFixes };
    await page.mouse.move(5, 5);

    // 3. Completion of a course key after `{{ Wh`, the first item accepted with Enter.
    const lesson3 = "lessons/03-practice.md";
    await openFile(page, lesson3);
    await page.evaluate((p) => {
      const view = window.mflsPlayground.views.get(p);
      view.dispatch({ selection: { anchor: view.state.doc.length } });
      view.focus();
    }, lesson3);
    await page.keyboard.type("\nRecall {{ Wh", { delay: 40 });
    // As a person does: the list is up and has stopped changing, then Enter.
    const list = ".cm-tooltip-autocomplete li[aria-selected=true]";
    await page.waitForSelector(list, { timeout: WAIT });
    await page.waitForTimeout(500);
    await page.waitForSelector(list, { timeout: WAIT });
    const offered = await page.$$eval(".cm-tooltip-autocomplete li", (items) => items.map((li) => li.textContent));
    await page.keyboard.press("Enter");
    await page.waitForTimeout(300);
    const lastLine = (await text(page, lesson3)).trimEnd().split("\n").pop();
    results.steps.completion = { offered, lastLine, text: await text(page, lesson3), shown: (await visibleText(page, lesson3)).trimEnd().split("\n").pop() };

    // 4. Go to binding (F12) from a read in lesson 3 to the interaction of lesson 1.
    await cursorAt(page, lesson3, "{{ How did the first", 5);
    await cursorAt(page, lesson3, "{{ What would you like to learn? }} to", 5);
    await page.keyboard.press("F12");
    const lesson1 = "lessons/01-welcome.md";
    await page.waitForSelector(`.file-editor[data-path="${lesson1}"]:not([hidden])`, { timeout: WAIT });
    results.steps.definition = await page.evaluate((p) => {
      const view = window.mflsPlayground.views.get(p);
      const head = view.state.selection.main.head;
      const line = view.state.doc.lineAt(head);
      return { current: document.querySelector("#file-list li[aria-current=true]").dataset.path, line: line.text, column: head - line.from };
    }, lesson1);

    // 4b. Shift-F12 there: the references of the key in every lesson, in a panel.
    await page.keyboard.press("Shift+F12");
    await page.waitForSelector(".cm-lsp-reference-panel .cm-lsp-reference", { timeout: WAIT });
    results.steps.references = {
      files: await page.$$eval(".cm-lsp-reference-panel .cm-lsp-reference-file", (els) => els.map((e) => e.textContent)),
      lines: await page.$$eval(".cm-lsp-reference-panel .cm-lsp-reference-line", (els) => els.map((e) => e.textContent)),
    };
    await page.keyboard.press("Escape");

    // 5. Hover on a marker: the exact key and where it is read.
    const marker = await cursorAt(page, lesson1, "How many hours", 4);
    await page.mouse.move(marker.x, marker.y);
    await page.waitForSelector(".cm-tooltip-hover", { timeout: WAIT });
    await page.waitForTimeout(200);
    results.steps.hover = { tooltip: await page.innerText(".cm-tooltip-hover") };
    await page.screenshot({ path: process.env.MFLS_SHOT });
    // Its link to the binding's place moves the cursor there, in the page.
    await cursorAt(page, lesson1, "# Welcome", 0);
    await page.mouse.move(marker.x, marker.y);
    const link = await page.waitForSelector(".cm-tooltip-hover a[href]", { timeout: WAIT });
    results.steps.hover.href = await link.getAttribute("href");
    await link.click();
    results.steps.hover.followed = await page.evaluate((p) => {
      const view = window.mflsPlayground.views.get(p);
      return { url: location.href, line: view.state.doc.lineAt(view.state.selection.main.head).number };
    }, lesson1);
    await page.mouse.move(5, 5);

    // 6. Rename with F2 at the binding of lesson 1, applied to every lesson.
    await cursorAt(page, lesson1, "What would you like to learn?", 5);
    await page.keyboard.press("F2");
    const input = await page.waitForSelector(".cm-lsp-rename-panel input[name=name]", { timeout: WAIT });
    await input.fill("Which language will you learn?");
    await input.press("Enter");
    await page.waitForFunction(
      (p) => window.mflsPlayground.views.get(p).state.doc.toString().includes("Which language will you learn?"),
      lesson3,
      { timeout: WAIT },
    );
    const texts = {};
    for (const file of [lesson1, lesson2, lesson3]) texts[file] = await text(page, file);
    results.steps.rename = { texts, shown: await visibleText(page, lesson1) };

    // 7. The course map beside the editor.
    await page.click("#refresh-map");
    await page.waitForFunction(() => (document.getElementById("map-frame").srcdoc || "").includes("Which language will you learn?"), null, { timeout: WAIT });
    const frame = page.frameLocator("#map-frame");
    results.steps.map = { text: await frame.locator("body").innerText({ timeout: WAIT }) };

    // 8. The file list: a lesson added (its interaction binds the key lesson 2 read
    // unbound), renamed, then deleted (the problem comes back).
    const answers = [];
    page.on("dialog", (dialog) => dialog.accept(answers.shift()));
    const listed = () => page.$$eval("#file-list li", (items) => items.map((li) => li.dataset.path));
    const unbound = () => page.$$eval("#problems li", (items) => items.filter((li) => li.textContent.includes("unbound-reference")).length);
    const waitUnbound = (count) => page.waitForFunction(
      (n) => [...document.querySelectorAll("#problems li")].filter((li) => li.textContent.includes("unbound-reference")).length === n,
      count,
      { timeout: WAIT },
    );
    // A lesson added by the button (named `name` in its dialog), `text` pasted at its end.
    const addLesson = async (name, text) => {
      answers.push(name);
      await page.click("#add-lesson");
      const added = `lessons/${name}`;
      await page.waitForSelector(`.file-editor[data-path="${added}"]:not([hidden])`);
      await page.evaluate(([p, t]) => {
        const view = window.mflsPlayground.views.get(p);
        view.dispatch({ changes: { from: view.state.doc.length, insert: t }, userEvent: "input.paste" });
      }, [added, text]);
      return added;
    };
    const files = {};
    const added = await addLesson("04-editor.md", "?[{{ What is your preferred editor? }} Vim | Emacs | VS Code]\n");
    await waitUnbound(0);
    files.added = { list: await listed(), unbound: await unbound(), text: await text(page, added) };
    answers.push("lessons/05-editor.md");
    await page.click("#rename-file");
    await page.waitForSelector(`.file-editor[data-path="lessons/05-editor.md"]:not([hidden])`);
    await page.waitForTimeout(500);
    files.renamed = { list: await listed(), unbound: await unbound() };
    answers.push("");  // the confirm: accepted
    await page.click("#delete-file");
    await waitUnbound(1);
    files.deleted = { list: await listed(), unbound: await unbound() };
    // An unpadded marker read unbound: its tooltip offers asking for it and padding it.
    const unpadded = await addLesson("06-unpadded.md", "Recall {{What is your favourite colour?}}.\n");
    files.unpaddedFixes = await fixesShown(page, unpadded, "favourite colour");
    await page.mouse.move(5, 5);
    answers.push("");  // the confirm: accepted
    await page.click("#delete-file");
    await page.waitForFunction((p) => !window.mflsPlayground.views.has(p), unpadded, { timeout: WAIT });
    results.steps.files = files;
    results.steps.strings = await pageStrings(page);
    results.steps.courseFile = await courseFileEdit(page);
    results.steps.learner = await learnerView(page, addLesson, answers);

    // 9. The page's policy: what the page needs was never blocked; a request planted to
    // another origin is.
    results.steps.csp = {
      policy: await page.getAttribute("meta[http-equiv=Content-Security-Policy]", "content"),
      violations: await page.evaluate(() => [...window.mflsViolations]),
      planted: await page.evaluate(async (url) => {
        try {
          await fetch(url);
          return "fetched";
        } catch (error) {
          return `refused: ${error.name}`;
        }
      }, `${process.env.MFLS_FOREIGN_URL}planted`),
    };
    await page.waitForFunction(() => window.mflsViolations.length > 0, null, { timeout: WAIT });
    results.steps.csp.after = await page.evaluate(() => [...window.mflsViolations]);
    await page.evaluate(() => { window.mflsViolations.length = 0; });

    // 10. Share links, 11. exports and folders (the course replaced last), 12. Chinese.
    results.steps.share = await share(context, page);
    results.steps.courseTools = await courseTools(context, page);
    results.steps.courseFiles = await courseFiles(page);
    results.steps.survives = await survives(page);
    results.steps.csp.later = await page.evaluate(() => [...window.mflsViolations]);
    results.steps.chinese = await chinese(browser);
  });
}

main();
