// Opens a course map (an HTML file from disk) in headless chromium with playwright-core, as a
// person would look at it, and reports what is on the page as JSON on stdout.
// Environment: MFLS_NODE_MODULES (where playwright-core is), MFLS_CHROMIUM, MAP_HTML (the file),
// MAP_SHOT (a screenshot to write, optional), MAP_CLICK (JSON {key, lesson}: the cell to click,
// optional), MAP_SEARCH (text to type into the search box, optional).
"use strict";
const path = require("node:path");
const { chromium } = require(path.join(process.env.MFLS_NODE_MODULES, "playwright-core"));

const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

async function main() {
  const file = path.resolve(process.env.MAP_HTML);
  const url = "file://" + file;
  const browser = await chromium.launch({
    executablePath: process.env.MFLS_CHROMIUM || "/usr/bin/chromium",
    args: FLAGS,
  });
  const report = { requests: [], intercepted: [], consoleErrors: [] };
  try {
    const context = await browser.newContext({ viewport: { width: 1500, height: 900 } });
    const page = await context.newPage();
    // Every request the page makes: from the DevTools protocol's Network domain, and from
    // request interception (anything but the map itself is refused).
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    cdp.on("Network.requestWillBeSent", (event) => report.requests.push(event.request.url));
    await page.route("**/*", (route) => {
      const requested = route.request().url();
      if (requested === url) {
        return route.continue();
      }
      report.intercepted.push(requested);
      return route.abort();
    });
    page.on("console", (message) => {
      if (message.type() === "error") report.consoleErrors.push(message.text());
    });
    page.on("pageerror", (error) => report.consoleErrors.push(String(error)));
    page.on("dialog", (dialog) => {
      report.consoleErrors.push("dialog: " + dialog.message());
      return dialog.dismiss();
    });

    const started = Date.now();
    await page.goto(url);
    await page.waitForSelector("body[data-ready=true]", { timeout: 30000 });
    report.renderMs = Date.now() - started;
    report.scriptMs = Number(await page.evaluate(() => document.body.dataset.renderMs));

    report.title = await page.title();
    report.heading = await page.locator("#course").textContent();
    report.lessons = await page.$$eval("#heads .col", (cols) =>
      cols.map((col) => ({ index: Number(col.dataset.lesson), title: col.title, text: col.textContent })),
    );
    report.legend = await page.$$eval("#legend li", (items) =>
      items.map((item) => ({
        kind: item.dataset.kind,
        text: item.textContent,
        shape: getComputedStyle(item.querySelector(".mark")).backgroundColor +
          " " + getComputedStyle(item.querySelector(".mark")).borderTopColor +
          " " + getComputedStyle(item.querySelector(".mark")).clipPath +
          " " + getComputedStyle(item.querySelector(".mark")).transform,
      })),
    );
    report.lanes = await page.$$eval("#lanes .row[data-key]", (rows) =>
      rows.map((row) => ({
        key: row.dataset.key,
        label: row.querySelector(".label .key").textContent,
        cells: Array.from(row.querySelectorAll(".cell")).map((cell) => ({
          lesson: Number(cell.dataset.lesson),
          kind: cell.dataset.kind,
          visible: cell.getBoundingClientRect().width > 0,
        })),
      })),
    );
    report.groups = await page.$$eval("#lanes .row.group", (rows) => rows.map((row) => row.dataset.group));
    report.injected = await page.evaluate(() => document.querySelectorAll("img, iframe, object, embed").length);

    if (process.env.MAP_CLICK) {
      const target = JSON.parse(process.env.MAP_CLICK);
      const row = page.locator("#lanes .row[data-key]").filter({
        has: page.locator(".label .key", { hasText: target.key }),
      });
      const cell = row.locator(`.cell[data-lesson="${target.lesson}"]`).first();
      await cell.scrollIntoViewIfNeeded();
      await cell.click();
      await page.waitForSelector("#details .place");
      report.details = {
        heading: await page.locator("#details h2").textContent(),
        text: await page.locator("#details").innerText(),
        lines: await page.$$eval("#details pre.line", (items) => items.map((item) => item.textContent)),
        links: await page.$$eval("#details a.open", (items) => items.map((item) => item.href)),
        paths: await page.$$eval("#details code.path", (items) => items.map((item) => item.textContent)),
        kinds: await page.$$eval("#details .place", (items) => items.map((item) => item.dataset.kind)),
      };
    }
    if (process.env.MAP_SHOT) {
      await page.screenshot({ path: process.env.MAP_SHOT, fullPage: false });
    }
    if (process.env.MAP_SEARCH) {
      await page.locator("#search").fill(process.env.MAP_SEARCH);
      report.searched = await page.$$eval("#lanes .row[data-key]", (rows) => rows.map((row) => row.dataset.key));
    }
  } finally {
    await browser.close();
  }
  process.stdout.write(JSON.stringify(report));
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error) + "\n");
  process.exit(1);
});
