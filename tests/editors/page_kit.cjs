// What the drivers of the playground's page share: Debian's Chromium, launched headless as
// this machine runs it, and a run whose results are written to MFLS_RESULTS whatever
// happens. Environment: MFLS_NODE_MODULES (with playwright-core), MFLS_CHROMIUM,
// MFLS_RESULTS.
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require(path.join(process.env.MFLS_NODE_MODULES, "playwright-core"));

// Runs `drive(browser)`; what it throws is added to `results.errors`; then the browser is
// closed and `results` written to MFLS_RESULTS as JSON.
async function recorded(results, drive) {
  const browser = await chromium.launch({
    executablePath: process.env.MFLS_CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
  try {
    await drive(browser);
  } catch (error) {
    results.errors.push(String(error && error.stack || error));
  } finally {
    await browser.close();
    fs.writeFileSync(process.env.MFLS_RESULTS, JSON.stringify(results, null, 1));
  }
}

module.exports = { recorded };
