// The driver of bench_playground.py: the playground in headless chromium, each round in a
// fresh browser context (nothing cached). Measures the bytes transferred by the first load
// (every response of the page and its worker: headers and bodies as sent), the time from
// navigation to the example course's problems on screen, and then, in a 50 KB lesson added
// through the page, the time from a keystroke to the problem list showing its diagnostics.
// Environment: MFLS_NODE_MODULES, MFLS_URL, MFLS_CHROMIUM, MFLS_ROUNDS, MFLS_KEYSTROKES,
// MFLS_RESULTS.
const path = require("path");
const { recorded } = require(path.join(__dirname, "..", "editors", "page_kit.cjs"));

const WAIT = 120_000;
const BIG = "lessons/04-big.md";
const LAST_LINE = "Finally use {{ What would you like to learn? }} once more.";

function bigLesson(bytes) {
  const parts = ["# A long lesson\n\nOne deliberate problem: {{ A question nobody asks }}.\n\n"];
  let size = parts[0].length;
  for (let i = 1; size < bytes - 200; i++) {
    const block = `## Part ${i}\n\nUse {{ What would you like to learn? }} and {{ How many hours per week can you study? }} to plan part ${i}.\n\n?[{{ Goal of part ${i} }} Easy | Hard]\n\nRecall {{ Goal of part ${i} }} at the end.\n\n`;
    parts.push(block);
    size += block.length;
  }
  parts.push(`${LAST_LINE}\n`);
  return parts.join("");
}

async function round(browser, keystrokes) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 820 } });
  const page = await context.newPage();
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
  if (keystrokes > 0) {
    const text = bigLesson(50_000);
    result.lessonBytes = Buffer.byteLength(text);
    page.on("dialog", (dialog) => dialog.accept(BIG));
    await page.click("#add-lesson");
    await page.waitForSelector(`.file-editor[data-path="${BIG}"]:not([hidden])`);
    const before = await page.$$eval("#problems li", (items) => items.length);
    await page.evaluate(([p, t]) => {
      const view = window.mflsPlayground.views.get(p);
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t }, userEvent: "input.paste" });
    }, [BIG, text]);
    // The pasted lesson reads the course's keys; its problems (if any) are on screen once
    // the server has published them for this version.
    await page.waitForFunction(([p]) => {
      const { problems, uriOf, views } = window.mflsPlayground;
      return (problems.get(uriOf(p)) || []).length > 0 && views.get(p).state.doc.length > 1000;
    }, [BIG], { timeout: WAIT });
    await page.waitForTimeout(1000);
    result.problemsBefore = before;
    console.error(`50 KB lesson pasted; problems listed: ${await page.$$eval("#problems li", (items) => items.length)}`);
    for (let i = 0; i < keystrokes; i++) {
      // Type "x" after "learn" in the last line (a near miss appears), then Backspace (it goes).
      for (const key of ["x", "Backspace"]) {
        const at = await page.evaluate(([p, line, typed]) => {
          const view = window.mflsPlayground.views.get(p);
          const doc = view.state.doc.toString();
          const start = line.slice(0, line.indexOf("learn") + 5);
          const pos = doc.lastIndexOf(start) + start.length + (typed ? 0 : 1);
          view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
          view.focus();
          // Shown: the near miss "learnx" is in the problem list after "x", gone after Backspace.
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
        }, [BIG, LAST_LINE, key === "x"]);
        await page.keyboard.press(key);
        if (process.env.MFLS_DEBUG) {
          console.error(key, await page.evaluate((p) => window.mflsPlayground.views.get(p).state.doc.toString().trimEnd().split("\n").pop(), BIG));
          console.error(await page.evaluate(() => document.getElementById("problems").textContent.slice(0, 300)));
        }
        if (process.env.MFLS_DEBUG) console.error("key at", await page.evaluate(() => performance.now().toFixed(0)));
        const ms = await page.evaluate(async (limit) => {
          const late = new Promise((resolve) => setTimeout(() => resolve(null), limit));
          const shown = await Promise.race([window.benchWait, late]);
          return shown === null ? null : shown - window.benchKey;
        }, 20_000);
        if (ms === null) throw new Error(`no change of the problems within 20 s of "${key}"`);
        console.error(`keystroke ${key}: ${ms.toFixed(0)} ms`);
        result.keystrokes.push({ key, ms, at });
        await page.waitForTimeout(250);
      }
    }
  }
  await context.close();
  return result;
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
