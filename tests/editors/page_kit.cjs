// What the drivers of the playground's page share: Debian's Chromium, launched headless as
// this machine runs it, and a run whose results are written to MFLS_RESULTS whatever
// happens. Environment: MFLS_NODE_MODULES (with playwright-core), MFLS_CHROMIUM,
// MFLS_RESULTS.
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require(path.join(process.env.MFLS_NODE_MODULES, "playwright-core"));

const OMNIBOX_WEBUI = ["WebUIOmniboxPopup", "WebUIOmniboxFullPopup", "WebUIOmniboxAimPopup", "PreloadTopChromeWebUI"];

// The features Playwright itself launches Chromium without (its chromiumSwitches): Chromium
// keeps only the last --disable-features given, so ours repeats them.
function playwrightDisabledFeatures() {
  const bundle = fs.readFileSync(path.join(process.env.MFLS_NODE_MODULES, "playwright-core", "lib", "coreBundle.js"), "utf8");
  const list = /disabledFeatures = \[([^\]]*)\]/.exec(bundle);
  const names = list ? [...list[1].matchAll(/^\s*"(\w+)",?$/gm)].map((found) => found[1]) : [];
  if (!names.includes("HttpsUpgrades")) throw new Error("playwright-core's own disabled Chromium features were not found");
  return names;
}

// Runs `drive(browser)`; what it throws is added to `results.errors`; then the browser is
// closed and `results` written to MFLS_RESULTS as JSON.
async function recorded(results, drive) {
  const browser = await chromium.launch({
    executablePath: process.env.MFLS_CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
      // Chromium's own omnibox popup, a WebUI page it loads in a renderer of its own for a
      // new window (each page a driver opens): about a CPU-second of its UI beside the page
      // measured, on a machine of two cores. The page never sees it.
      `--disable-features=${[...playwrightDisabledFeatures(), ...OMNIBOX_WEBUI].join(",")}`,
    ],
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
