// One cold start of code-server with the course folder, as a person sees it: the page is opened,
// the workbench comes up, the mfls extension activates on its own (the folder holds an
// mfcourse.toml), and the first problem appears in the status bar's problem count (the Problems
// panel's count) or as an underline. The page notes the wall-clock time of each, in the page.
// Environment: MFLS_NODE_MODULES, MFLS_URL, MFLS_COURSE, MFLS_RESULTS, MFLS_WAIT_MS, MFLS_CHROMIUM.
"use strict";
const path = require("node:path");
const kit = require(path.join(__dirname, "..", "editors", "kit", "driver_kit.cjs"));

const waitMs = Number(process.env.MFLS_WAIT_MS || "60000");
const result = { opened: null, workbench: null, problem: null, how: null, error: null };

// Runs in the page from its first script on: polls every animation frame.
function watch() {
  const seen = { workbench: null, problem: null, how: null };
  window.__mflsSeen = seen;
  function count(item) {
    const label = item ? item.getAttribute("aria-label") || item.textContent || "" : "";
    return (label.match(/\d+/g) || []).reduce((sum, n) => sum + Number(n), 0);
  }
  function look() {
    const now = Date.now();
    if (seen.workbench === null && document.querySelector(".monaco-workbench .part.editor")) {
      seen.workbench = now;
    }
    if (seen.problem === null) {
      const status = document.querySelector("#status\\.problems a, #status\\.problems");
      if (count(status) > 0) {
        seen.problem = now;
        seen.how = "status bar: " + (status.getAttribute("aria-label") || status.textContent);
      } else if (document.querySelector(".squiggly-error, .squiggly-warning, .squiggly-info")) {
        seen.problem = now;
        seen.how = "underline";
      }
    }
    if (seen.problem === null) {
      requestAnimationFrame(look);
    }
  }
  requestAnimationFrame(look);
}

async function main() {
  const browser = await kit.launch(waitMs);
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(watch);
    result.opened = Date.now();
    await page.goto(`${process.env.MFLS_URL}/?folder=${encodeURIComponent(process.env.MFLS_COURSE)}`, {
      timeout: waitMs,
    });
    const deadline = Date.now() + waitMs;
    for (;;) {
      const seen = await page.evaluate(() => window.__mflsSeen).catch(() => null);
      if (seen && seen.problem !== null) {
        Object.assign(result, seen);
        break;
      }
      if (Date.now() > deadline) {
        Object.assign(result, seen || {});
        result.error = `no problem shown within ${waitMs} ms`;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await browser.close().catch(() => undefined);
  }
}

kit.finish(main, result, (message) => {
  result.error = message;
});
