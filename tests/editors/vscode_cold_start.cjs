// Cold start in code-server (real VS Code in chromium), a pull client: the first lesson opens
// with the workbench (while the server waits to index the course), the others from Quick Open,
// and the Problems panel, filtered on them, is read every 50 ms from then on. Every distinct set of problems it shows
// for an opened lesson is recorded, in order: the first one must already be `mfls check`'s.
// Environment: MFLS_NODE_MODULES, MFLS_URL, MFLS_COURSE, MFLS_OPEN (JSON list of the lessons'
// paths relative to the course), MFLS_RESULTS, MFLS_SHOTS, MFLS_WAIT_MS, MFLS_CHROMIUM.
"use strict";
const path = require("node:path");
const kit = require(path.join(__dirname, "kit", "driver_kit.cjs"));

const waitMs = Number(process.env.MFLS_WAIT_MS || "30000");
const course = process.env.MFLS_COURSE;
const opened = JSON.parse(process.env.MFLS_OPEN);
const results = { shown: {}, errors: [], log: [] };

async function until(condition, what, timeout = waitMs) {
  return kit.until(condition, what, timeout, 50);
}

// The Problems panel's rows: a file's row, then its problems' rows (the tree is expanded).
// Each problem as {file, severity, line, column, text}, the file by its name.
function panelProblems() {
  const found = [];
  let file = "";
  for (const row of document.querySelectorAll(".markers-panel .monaco-list-row")) {
    const icon = row.querySelector(".marker-icon");
    if (!icon) {
      const label = row.querySelector(".label-name");
      file = label ? (label.textContent || "").trim() : file;
      continue;
    }
    const severity = ["error", "warning", "info"].find((name) => icon.classList.contains(name)) || "hint";
    const part = (name) => ((row.querySelector(name) || {}).textContent || "").replace(/\s+/g, " ").trim();
    const at = /\[Ln (\d+), Col (\d+)\]/.exec(part(".marker-line"));
    found.push({
      file,
      severity: severity === "info" ? "information" : severity,
      line: at ? Number(at[1]) : 0,
      column: at ? Number(at[2]) : 0,
      code: part(".marker-code"),
      message: part(".marker-message"),
    });
  }
  return found;
}

async function main() {
  const names = opened.map((relative) => path.basename(relative));
  const browser = await kit.launch(waitMs);
  let watching = true;
  let page;
  let tabLabels;
  let noLessonEdited;
  try {
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(waitMs);
    tabLabels = () => page.$$eval(".tab", (items) => items.map((item) => item.getAttribute("aria-label") || ""));
    // The problems shown are only the server's answer for the lessons as they are on disk if
    // the driver typed nothing into them: an edited (dirty) tab is the driver's error.
    noLessonEdited = async (when) => {
      const dirty = await page.$$eval(".tab.dirty", (items) => items.map((item) => item.getAttribute("aria-label") || ""));
      if (dirty.length > 0) {
        throw new Error(`a lesson was edited by the driver while ${when}: ${dirty.join("; ")}`);
      }
    };
    const started = Date.now();
    // The first lesson opens with the workbench (its `payload` query), before the server indexes.
    const first = `vscode-remote://${new URL(process.env.MFLS_URL).host}${path.join(course, opened[0])}`;
    const payload = encodeURIComponent(JSON.stringify([["openFile", first]]));
    await page.goto(`${process.env.MFLS_URL}/?folder=${encodeURIComponent(course)}&payload=${payload}`, { timeout: waitMs });
    await page.locator(".monaco-workbench .part.editor").waitFor({ state: "visible", timeout: waitMs * 2 });
    results.log.push(`workbench at ${Date.now() - started} ms`);
    // Read the panel from now on, whatever the steps below do.
    const last = {};
    const watcher = (async () => {
      while (watching) {
        const rows = await page.evaluate(panelProblems).catch(() => []);
        for (const name of names) {
          const mine = rows.filter((row) => row.file === name);
          const key = JSON.stringify(mine);
          if (mine.length > 0 && last[name] !== key) {
            last[name] = key;
            (results.shown[name] ||= []).push(mine);
            results.log.push(`${name}: ${mine.length} problem(s) at ${Date.now() - started} ms`);
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    // The first lesson's editor opens after the workbench and takes the focus when it does:
    // typing before then can land in the lesson. Wait for its tab, then filter the Problems
    // panel on the opened lessons (a large course lists many files), and make sure the text
    // went to the filter.
    await until(() => tabLabels().then((labels) => labels.some((label) => label.includes(names[0]))), `the tab of ${names[0]}`);
    await until(
      () => page.evaluate(() => Boolean(document.activeElement && document.activeElement.closest(".editor-instance .monaco-editor"))),
      `the focus in ${names[0]}`,
      10_000,
    ).catch(() => results.log.push(`${names[0]} never took the focus`));
    await page.keyboard.press("Control+Shift+M");
    const filter = page.getByPlaceholder(/^Filter \(e\.g\./).first();
    const wanted = names.join(", ");
    await until(async () => {
      await filter.fill(wanted);
      return (await filter.inputValue()) === wanted;
    }, "the Problems filter to hold the lessons' names");
    await noLessonEdited("filtering the Problems panel");
    await page.locator(".editor-instance .monaco-editor textarea").first().focus();
    for (const relative of opened.slice(1)) {
      await page.keyboard.press("Control+P");
      const input = page.locator(".quick-input-widget input");
      await input.waitFor({ state: "visible" });
      await input.fill(relative);
      const name = path.basename(relative);
      await page.locator(".quick-input-list .monaco-list-row", { hasText: name }).first().waitFor({ state: "visible" });
      await page.keyboard.press("Enter");
      await input.waitFor({ state: "hidden" });
      await until(() => tabLabels().then((labels) => labels.some((label) => label.includes(name))), `the tab of ${name}`);
      await noLessonEdited(`opening ${name}`);
      results.log.push(`opened ${name} at ${Date.now() - started} ms`);
    }
    // Until every opened lesson shows `expected` problems (from mfls check), then a little longer.
    const expected = JSON.parse(process.env.MFLS_EXPECTED_COUNTS || "{}");
    await until(
      () => names.every((name) => (expected[name] ?? 0) === 0 || (results.shown[name] || []).length > 0 &&
        JSON.parse(last[name]).length === expected[name]),
      "the opened lessons' problems",
    ).catch((error) => results.errors.push(String(error.message || error)));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await noLessonEdited("the whole run");
    await page.screenshot({ path: path.join(process.env.MFLS_SHOTS, "problems.png") }).catch(() => undefined);
    watching = false;
    await watcher;
  } catch (error) {
    await page?.screenshot({ path: path.join(process.env.MFLS_SHOTS, "error.png") }).catch(() => undefined);
    throw error;
  } finally {
    watching = false;
    await browser.close().catch(() => undefined);
  }
}

kit.finish(main, results, (message) => results.errors.push(message));
