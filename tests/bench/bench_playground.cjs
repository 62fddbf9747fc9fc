// The driver of bench_playground.py: the playground in headless chromium, each round in a
// fresh browser context (nothing cached). Measures the bytes transferred by the first load
// (every response of the page and its worker: headers and bodies as sent), the time from
// navigation to the example course's problems on screen, and then the time from a keystroke
// to the problem list showing its diagnostics: in a 50 KB lesson added through the page, a
// quarter second between keys, and in a lesson of 30 problems with quick fixes, each key
// as soon as the last one's problems show; then the second visit in the same context, its
// runtime and a snapshot of Python from the cache the first visit filled.
// Environment: MFLS_NODE_MODULES, MFLS_URL, MFLS_CHROMIUM, MFLS_ROUNDS, MFLS_KEYSTROKES,
// MFLS_RESULTS.
const path = require("path");
const { recorded } = require(path.join(__dirname, "..", "editors", "page_kit.cjs"));

const WAIT = 120_000;
const BIG = "lessons/04-big.md";
const LAST_LINE = "Finally use {{ What would you like to learn? }} once more.";
const CROWDED = "lessons/05-crowded.md";
const CROWDED_PROBLEMS = 30;

function bigLesson(bytes) {
  const parts = ["# A long lesson\n\nOne deliberate problem: {{ A question nobody asks }}.\n\n"];
  let size = parts[0].length;
  for (let i = 1; size < bytes - 200; i++) {
    // Keys the learner page reads (the example is an AI-Shifu course): one problem in all.
    const block = `## Part ${i}\n\nUse {{ What would you like to learn? }} and {{ How many hours per week can you study? }} to plan part ${i}.\n\n?[%{{goal_of_part_${i}}} Easy | Hard]\n\nRecall {{goal_of_part_${i}}} at the end.\n\n`;
    parts.push(block);
    size += block.length;
  }
  parts.push(`${LAST_LINE}\n`);
  return parts.join("");
}

// The answer to the page's "name of the new lesson" dialog.
let dialogAnswer = BIG;

// A lesson of `count` lines, each reading a near miss of the course's key (each with a fix).
function crowdedLesson(count) {
  const lines = ["# Many problems\n"];
  for (let i = 1; i <= count; i++) lines.push(`Line ${i} recalls {{ What would you like to lern? }}.\n`);
  lines.push(`\n${LAST_LINE}\n`);
  return lines.join("");
}

// Adds `name` through the page's button and pastes `text` into it; resolves once its problems
// are on screen.
async function addLesson(page, name, text) {
  dialogAnswer = name;
  await page.click("#add-lesson");
  await page.waitForSelector(`.file-editor[data-path="${name}"]:not([hidden])`);
  await page.evaluate(([p, t]) => {
    const view = window.mflsPlayground.views.get(p);
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t }, userEvent: "input.paste" });
  }, [name, text]);
  await page.waitForFunction(([p]) => {
    const { problems, uriOf, views } = window.mflsPlayground;
    return (problems.get(uriOf(p)) || []).length > 0 && views.get(p).state.doc.length > 100;
  }, [name], { timeout: WAIT });
  await page.waitForTimeout(1000);
  console.error(`${name} pasted (${Buffer.byteLength(text)} bytes); problems listed: ${await page.$$eval("#problems li", (items) => items.length)}`);
}

// `pairs` times: "x" typed after "learn" in the last line (a near miss appears), then
// Backspace (it goes), each timed from the key to the problem list showing it, `pause` ms
// between keys.
async function typeNearMisses(page, name, pairs, pause) {
  const measured = [];
  for (let i = 0; i < pairs; i++) {
    for (const key of ["x", "Backspace"]) {
      const at = await page.evaluate(([p, line, typed]) => {
        const view = window.mflsPlayground.views.get(p);
        const doc = view.state.doc.toString();
        const start = line.slice(0, line.indexOf("learn") + 5);
        const pos = doc.lastIndexOf(start) + start.length + (typed ? 0 : 1);
        view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
        view.focus();
        const list = document.getElementById("problems");
        const shown = () => list.textContent.includes("learnx?") === typed;
        window.benchWait = new Promise((resolve) => {
          const observer = new MutationObserver(() => {
            if (shown()) {
              observer.disconnect();
              resolve(performance.now());
            }
          });
          observer.observe(list, { childList: true, subtree: true, characterData: true });
        });
        view.contentDOM.addEventListener("keydown", () => { window.benchKey = performance.now(); }, { once: true, capture: true });
        return pos;
      }, [name, LAST_LINE, key === "x"]);
      await page.keyboard.press(key);
      const ms = await page.evaluate(async (limit) => {
        const late = new Promise((resolve) => setTimeout(() => resolve(null), limit));
        const shown = await Promise.race([window.benchWait, late]);
        return shown === null ? null : shown - window.benchKey;
      }, 20_000);
      if (ms === null) throw new Error(`no change of the problems of ${name} within 20 s of "${key}"`);
      console.error(`${name} keystroke ${key}: ${ms.toFixed(0)} ms`);
      measured.push({ key, ms, at });
      if (pause) await page.waitForTimeout(pause);
    }
  }
  return measured;
}

async function round(browser, keystrokes) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 820 } });
  const page = await context.newPage();
  // Counts the page's messages to the worker, by LSP method.
  await page.addInitScript(() => {
    window.benchSent = {};
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      const found = typeof message?.lsp === "string" && /"method":"([^"]+)"/.exec(message.lsp);
      if (found) window.benchSent[found[1]] = (window.benchSent[found[1]] || 0) + 1;
      return post.call(this, message, ...rest);
    };
  });
  if (process.env.MFLS_DEBUG) page.on("console", (m) => console.error(m.text()));
  const responses = [];
  page.on("requestfinished", (request) => responses.push(request));
  const started = Date.now();
  await page.goto(process.env.MFLS_URL);
  await page.waitForFunction(() => document.querySelectorAll("#problems li").length >= 2, null, { timeout: WAIT });
  const problemsSeconds = (Date.now() - started) / 1000;
  let bytes = 0;
  for (const request of responses) {
    const sizes = await request.sizes();
    bytes += sizes.responseBodySize + sizes.responseHeadersSize;
  }
  const phases = await page.evaluate(() => window.mflsStarted);
  const result = { bytes, requests: responses.length, problemsSeconds, phases, keystrokes: [] };
  // The Learner view, opened on the first lesson: remark-flow's bundle is fetched then (it
  // was not part of the first load), and the lesson's interactions drawn.
  result.learnerFetchedFirst = responses.some((request) => request.url().endsWith("/learner_page.js"));
  const opening = Date.now();
  await page.click("#open-learner-view");
  await page.waitForSelector(".learner-lesson .learner-interaction", { timeout: WAIT });
  result.learnerMs = Date.now() - opening;
  await page.click("#close-learner-view");
  if (keystrokes > 0) {
    page.on("dialog", (dialog) => dialog.accept(dialogAnswer));
    const text = bigLesson(50_000);
    result.lessonBytes = Buffer.byteLength(text);
    await addLesson(page, BIG, text);
    for (const measured of await typeNearMisses(page, BIG, keystrokes, 250)) {
      result.keystrokes.push({ scenario: "big", ...measured });
    }
    // Every problem has a quick fix, and the next key comes as soon as the last one's
    // problems show: what the page asks after a publish delays the next keystroke's answer.
    await addLesson(page, CROWDED, crowdedLesson(CROWDED_PROBLEMS));
    const sent = await page.evaluate(() => ({ ...window.benchSent }));
    for (const measured of await typeNearMisses(page, CROWDED, keystrokes, 0)) {
      result.keystrokes.push({ scenario: "crowded", ...measured });
    }
    await page.waitForTimeout(1000);
    const after = await page.evaluate(() => ({ ...window.benchSent }));
    result.crowdedSent = Object.fromEntries(
      Object.entries(after).map(([method, count]) => [method, count - (sent[method] || 0)]).filter(([, n]) => n > 0),
    );
  }
  result.warm = await secondVisit(context);
  await context.close();
  return result;
}

// The page opened again in the same browser context, once the first visit has cached the
// runtime and its snapshot of Python: the time to the problems, and the bytes the network
// still sent.
async function secondVisit(context) {
  const first = context.pages()[0];
  const snapshotCached = () => first.evaluate(async () => Boolean(await caches.match(new URL("pyodide/mfls-snapshot.bin", location.href).href)));
  for (const deadline = Date.now() + WAIT; !(await snapshotCached());) {
    if (Date.now() > deadline) throw new Error("no snapshot of Python was cached");
    await first.waitForTimeout(200);
  }
  await first.close();
  const page = await context.newPage();
  const responses = [];
  page.on("requestfinished", (request) => responses.push(request));
  const started = Date.now();
  await page.goto(process.env.MFLS_URL);
  await page.waitForFunction(() => document.querySelectorAll("#problems li").length >= 2, null, { timeout: WAIT });
  const problemsSeconds = (Date.now() - started) / 1000;
  let bytes = 0;
  for (const request of responses) {
    const sizes = await request.sizes();
    bytes += sizes.responseBodySize + sizes.responseHeadersSize;
  }
  const phases = await page.evaluate(() => ({
    ...window.mflsStarted,
    began: (window.mflsStarted.began - performance.timeOrigin) / 1000,
    readyAt: (window.mflsStarted.readyAt - performance.timeOrigin) / 1000,
    initialized: window.mflsReady,
  }));
  return { problemsSeconds, bytes, phases };
}

async function main() {
  const results = { rounds: [], errors: [] };
  await recorded(results, async (browser) => {
    const count = Number(process.env.MFLS_ROUNDS || 3);
    for (let i = 0; i < count; i++) {
      results.rounds.push(await round(browser, i === count - 1 ? Number(process.env.MFLS_KEYSTROKES || 10) : 0));
    }
  });
}

main();
