// The check runner every browser driver of tests/editors (code-server, the playground
// pages) and tests/bench uses: waiting for a condition, headless chromium, the workbench's
// quick input (Quick Open, the command palette), named checks recorded for the Python side
// (editor_harness.read_checks) and the results written to MFLS_RESULTS however the run ends.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

// The first truthy value of `condition()`, asked every `interval` ms; an error naming
// `what` after `timeout` ms.
async function until(condition, what, timeout, interval) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await condition();
    if (value) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

// The quick input opened by `key` and filled with `text`. The workbench closes the quick
// input when another part takes the focus (a web view reloading, an editor opening), or
// a key pressed meanwhile went elsewhere: then it is opened again, a few times, before
// giving up. An attempt waits a few seconds, not the whole `waitMs`: the input shows at
// once when the key reached it.
async function quickInput(page, key, text, waitMs) {
  const input = page.locator(".quick-input-widget input");
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press(key);
    try {
      await input.waitFor({ state: "visible", timeout: Math.min(waitMs, 8_000) });
      await input.fill(text, { timeout: 5_000 });
      return input;
    } catch (error) {
      if (attempt >= 5) {
        throw error;
      }
      await page.keyboard.press("Escape").catch(() => undefined);
    }
  }
}

// Pick `name` in Quick Open: its row clicked, the input closed (the caller waits for the
// editor it wants).
async function quickOpenFile(page, name, waitMs) {
  const input = await quickInput(page, "Control+P", name, waitMs);
  const row = page.locator(".quick-input-list .monaco-list-row", { hasText: name }).first();
  await row.waitFor({ state: "visible", timeout: waitMs });
  await row.click();
  try {
    await input.waitFor({ state: "hidden", timeout: Math.min(waitMs, 5_000) });
  } catch {
    // The click can land while the list is drawn again and be lost (CI saw the input stay
    // open for 30 s, the row active under it): Enter picks the active row, as a person does.
    await input.focus().catch(() => undefined);
    await page.keyboard.press("Enter");
    await input.waitFor({ state: "hidden", timeout: waitMs });
  }
}

// Run the workbench command `label` from the command palette.
async function runCommand(page, label, waitMs) {
  const input = await quickInput(page, "F1", `>${label}`, waitMs);
  await page
    .locator(".quick-input-list .monaco-list-row", { hasText: label })
    .first()
    .waitFor({ state: "visible", timeout: waitMs });
  await page.keyboard.press("Enter");
  await input.waitFor({ state: "hidden", timeout: waitMs });
}

// Debian's chromium (or MFLS_CHROMIUM), headless, through playwright-core from
// MFLS_NODE_MODULES.
async function launch(waitMs) {
  const { chromium } = require(path.join(process.env.MFLS_NODE_MODULES, "playwright-core"));
  return chromium.launch({
    executablePath: process.env.MFLS_CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
    timeout: waitMs,
  });
}

// The code-server workbench at MFLS_URL with `folder` open; waits for its editor area
// unless `editorArea` is false.
async function openWorkbench(page, folder, waitMs, editorArea = true) {
  await page.goto(`${process.env.MFLS_URL}/?folder=${encodeURIComponent(folder)}`, { timeout: waitMs });
  if (editorArea) {
    await page.locator(".monaco-workbench .part.editor").waitFor({ state: "visible", timeout: waitMs * 2 });
  }
}

// Named checks: `record(name, ok, detail)` adds one to `results.checks`; `run(page, checks,
// order, firstFailed)` runs each check of `order`, an error recorded as its failure with a
// screenshot in `shots` (when the first fails and `firstFailed` says why, the others are
// recorded as not run).
function checkRunner(shots, results = { checks: [] }) {
  results.checks = results.checks || [];
  function record(name, ok, detail) {
    results.checks.push({ name, ok: Boolean(ok), detail: String(detail ?? "") });
  }
  async function screenshot(page, name) {
    await page.screenshot({ path: path.join(shots, `${name}.png`) }).catch(() => undefined);
  }
  async function run(page, checks, order, firstFailed) {
    for (const [index, name] of order.entries()) {
      try {
        const ok = await checks[name](page);
        if (index === 0 && firstFailed && !ok) {
          for (const rest of order.slice(1)) {
            record(rest, false, `not run: ${firstFailed}`);
          }
          await screenshot(page, name);
          return;
        }
      } catch (error) {
        record(name, false, `error: ${error && error.message ? error.message : error}`);
        await screenshot(page, name);
        await page.keyboard.press("Escape").catch(() => undefined);
      }
    }
  }
  return { results, record, run, screenshot };
}

// Run `main`; its error goes to `onError` (by default the check "main"); the results are
// written to MFLS_RESULTS in every case.
function finish(main, results, onError) {
  const failed = onError ||
    ((message) => (results.checks = results.checks || []).push({ name: "main", ok: false, detail: message }));
  return main()
    .catch((error) => failed(`error: ${error && error.stack ? error.stack : error}`))
    .finally(() => fs.writeFileSync(process.env.MFLS_RESULTS, JSON.stringify(results)));
}

module.exports = { checkRunner, finish, launch, openWorkbench, quickInput, quickOpenFile, runCommand, until };
