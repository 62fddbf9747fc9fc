// The playground's page over `mfls serve --ws` in headless chromium: opened as
// `index.html?ws=...`, it waits for the problems of the server's course to be the ones
// `mfls check` gives (MFLS_EXPECTED, a JSON list; in any order), then types a read of a key no lesson
// asks at the end of a lesson (MFLS_LESSON) and waits for one more problem; then stops and
// kills the server (MFLS_SERVER_PID), and opens the page pointed where nothing listens
// (MFLS_NOBODY, a socket URL).
// Environment: MFLS_NODE_MODULES (with playwright-core), MFLS_CHROMIUM, MFLS_URL (the
// page with its ?ws=), MFLS_EXPECTED, MFLS_LESSON, MFLS_SERVER_PID, MFLS_NOBODY,
// MFLS_RESULTS (a JSON file written at the end).
const path = require("path");
const { recorded } = require(path.join(__dirname, "page_kit.cjs"));
const { until } = require(path.join(__dirname, "kit", "driver_kit.cjs"));

const WAIT = 60_000;
const results = { steps: {}, errors: [], console: [] };
const problemsShown = (page) => page.$$eval("#problems li", (items) => items.map((li) => li.textContent));

// The requests the page has sent over the socket and not had answered, id -> method (a
// command's name for workspace/executeCommand), read from the frames.
const unanswered = new Map();
function watchFrames(page) {
  page.on("websocket", (socket) => {
    const read = (payload) => {
      try {
        return JSON.parse(payload);
      } catch {
        return {};
      }
    };
    socket.on("framesent", ({ payload }) => {
      const message = read(payload);
      if (message.id !== undefined && message.method !== undefined) {
        unanswered.set(message.id, message.params?.command ?? message.method);
      }
    });
    socket.on("framereceived", ({ payload }) => {
      const message = read(payload);
      if (message.id !== undefined && message.method === undefined) unanswered.delete(message.id);
    });
  });
}

const mapsWaiting = () => [...unanswered.values()].filter((name) => name === "mfls.courseMap").length;

// The server stops answering while the page waits for the course map, then dies: the page
// says the connection closed, each course map request waiting fails at once rather than
// after the client's two-minute timeout, and so does the next one.
async function serverGone(page) {
  const pid = Number(process.env.MFLS_SERVER_PID);
  const failures = () => results.console.filter((line) => line.includes("course map:"));
  const failed = (count) => until(() => failures().length >= count, `${count} course map failures`, 10_000, 50)
    .then(() => true, () => false);
  const before = failures().length;
  let waiting = 0;
  process.kill(pid, "SIGSTOP");
  try {
    const asked = mapsWaiting();
    await page.click("#refresh-map");
    await until(() => mapsWaiting() > asked, "the course map asked", 10_000, 50);
    waiting = mapsWaiting();
  } finally {
    process.kill(pid, "SIGKILL");
  }
  const killed = Date.now();
  await page.waitForFunction(() => document.getElementById("status").dataset.state === "failed", null, { timeout: WAIT });
  const waitingFailed = await failed(before + waiting);
  const waitingMs = Date.now() - killed;
  await page.click("#refresh-map");
  const nextFailed = await failed(before + waiting + 1);
  return {
    status: await page.textContent("#status"),
    waiting,
    waitingFailed,
    waitingWithin10s: waitingMs < 10_000,
    nextFailed,
    failures: failures().slice(before),
  };
}

// The page pointed at a port where nothing listens says so in its status line.
async function unreachable(browser) {
  const page = await browser.newPage();
  const url = new URL(process.env.MFLS_URL);
  url.searchParams.set("ws", process.env.MFLS_NOBODY);
  await page.goto(url.href);
  await page.waitForFunction(() => document.getElementById("status").dataset.state === "failed", null, { timeout: WAIT });
  const status = await page.textContent("#status");
  await page.close();
  return { status };
}

async function main() {
  await recorded(results, async (browser) => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 820 } });
    page.on("console", (m) => results.console.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => results.errors.push(`page error: ${e.message}`));
    watchFrames(page);
    await page.goto(process.env.MFLS_URL);
    const expected = JSON.parse(process.env.MFLS_EXPECTED);
    try {
      await page.waitForFunction((want) => {
        const shown = [...document.querySelectorAll("#problems li")].map((li) => li.textContent).sort();
        return JSON.stringify(shown) === JSON.stringify([...want].sort());
      }, expected, { timeout: WAIT });
    } catch (error) {
      results.errors.push(`the problems never matched: ${error.message}`);
    }
    results.steps.opened = {
      files: await page.$$eval("#file-list li", (items) => items.map((li) => li.dataset.path)),
      problems: await problemsShown(page),
      status: await page.textContent("#status"),
      worker: await page.evaluate(() => performance.getEntriesByType("resource").some((r) => r.name.endsWith("worker.js"))),
    };
    const lesson = process.env.MFLS_LESSON;
    await page.click(`#file-list li[data-path="${lesson}"]`);
    await page.evaluate((p) => {
      const view = window.mflsPlayground.views.get(p);
      view.dispatch({ selection: { anchor: view.state.doc.length } });
      view.focus();
    }, lesson);
    await page.keyboard.type("\nUse {{ A key nobody asks }} here.\n");
    const before = expected.length;
    try {
      // Typed a letter at a time, the lesson passes through other problems (an unclosed `{{`).
      await page.waitForFunction((n) => {
        const shown = [...document.querySelectorAll("#problems li")].map((li) => li.textContent);
        return shown.length === n + 1 && shown.some((text) => text.includes("A key nobody asks"));
      }, before, { timeout: WAIT });
    } catch (error) {
      results.errors.push(`no new problem: ${error.message}`);
    }
    results.steps.typed = {
      problems: await problemsShown(page),
      text: await page.evaluate((p) => window.mflsPlayground.views.get(p).state.doc.toString(), lesson),
    };
    results.steps.closed = await serverGone(page);
    results.steps.unreachable = await unreachable(browser);
  });
}

main();
