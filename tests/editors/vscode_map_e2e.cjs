// The course map and key table in code-server (real VS Code in chromium), as a person uses them:
// open a lesson, run "MarkdownFlow: Show Course Map" from the command palette, look at the web
// view beside the editor, type a new question into the lesson and watch the map follow; then
// run "MarkdownFlow: Show Course Keys" and read the preview.
// Environment: MFLS_NODE_MODULES, MFLS_URL, MFLS_COURSE, MFLS_RESULTS, MFLS_SHOTS, MFLS_WAIT_MS,
// MFLS_CHROMIUM.
"use strict";
const path = require("node:path");
const kit = require(path.join(__dirname, "kit", "driver_kit.cjs"));

const waitMs = Number(process.env.MFLS_WAIT_MS || "30000");
const course = process.env.MFLS_COURSE;
const shots = process.env.MFLS_SHOTS;
const { results, record, run } = kit.checkRunner(shots);
const LATE = "Which project will you build?";
const NEW_KEY = "Which language do you dream in?";

async function until(condition, what, timeout = waitMs) {
  return kit.until(condition, what, timeout, 200);
}

async function tabs(page) {
  return page.$$eval(".tab", (items) => items.map((item) => item.getAttribute("aria-label") || ""));
}

async function openFile(page, name) {
  await kit.quickOpenFile(page, name, waitMs);
  await until(async () => (await tabs(page)).some((label) => label.includes(name)), `the tab of ${name}`);
}

async function command(page, label) {
  return kit.runCommand(page, label, waitMs);
}

// The frame (of the web views nested in the workbench) where `probe` returns a value.
async function inFrames(page, probe, argument) {
  for (const frame of page.frames()) {
    const value = await frame.evaluate(probe, argument).catch(() => null);
    if (value) {
      return value;
    }
  }
  return null;
}

function mapLanes() {
  const rows = document.querySelectorAll("#lanes .row[data-key]");
  if (!rows.length) {
    return null;
  }
  return Array.from(rows).map((row) => ({
    key: row.dataset.key,
    cells: Array.from(row.querySelectorAll(".cell")).map((cell) => [Number(cell.dataset.lesson), cell.dataset.kind]),
  }));
}

// In the map's frame: each cell seen at its centre (the grid scrolled down to it when needed,
// never sideways), each lane name whole or cut short with its whole name as the title, and
// where the details panel sits.
function mapLayout() {
  const scroller = document.getElementById("scroller");
  const rows = Array.from(document.querySelectorAll("#lanes .row[data-key]"));
  if (!scroller || document.body.dataset.ready !== "true" || !rows.length) {
    return null;
  }
  function seen(cell) {
    const box = cell.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && (hit === cell || cell.contains(hit));
  }
  const cells = Array.from(document.querySelectorAll("#lanes .cell"));
  scroller.scrollTop = 0;
  scroller.scrollLeft = 0;
  const atOnce = cells.filter(seen).length;
  const hidden = [];
  for (const cell of cells) {
    if (!seen(cell)) {
      const row = cell.parentElement;
      scroller.scrollTop = Math.max(0, row.offsetTop - scroller.clientHeight / 2);
      if (!seen(cell) || scroller.scrollLeft !== 0) {
        hidden.push(`${row.dataset.key} @ lesson ${cell.dataset.lesson}`);
      }
    }
  }
  scroller.scrollTop = 0;
  const names = rows.map((row) => {
    const label = row.querySelector(".label");
    const name = label.querySelector(".key");
    const whole = name.textContent === row.dataset.key && name.scrollWidth <= name.clientWidth;
    return { key: row.dataset.key, whole, title: label.title, width: label.clientWidth };
  });
  const unreadable = names.filter((n) => n.width < 100 || !(n.whole || n.title === n.key));
  const grid = scroller.getBoundingClientRect();
  const details = document.getElementById("details").getBoundingClientRect();
  return {
    width: window.innerWidth,
    cells: cells.length,
    atOnce,
    hidden,
    cut: names.filter((n) => !n.whole).length,
    unreadable: unreadable.map((n) => n.key),
    details: details.top >= grid.bottom - 1 ? "below" : details.left >= grid.right - 1 ? "beside" : "over",
  };
}

async function mapWidth(page) {
  return inFrames(page, () => (document.getElementById("lanes") ? window.innerWidth : null));
}

// Resizes the browser until the map's web view is `wanted` px wide (the editor area splits).
async function fitMap(page, wanted) {
  let viewport = page.viewportSize();
  for (let attempt = 0; attempt < 6; attempt++) {
    const width = await until(() => mapWidth(page), "the map's width");
    if (Math.abs(width - wanted) <= 2) {
      return width;
    }
    viewport = { width: viewport.width + Math.round((wanted - width) * (attempt < 3 ? 2 : 1)), height: viewport.height };
    await page.setViewportSize(viewport);
    await new Promise((resolve) => setTimeout(resolve, 700));
  }
  return mapWidth(page);
}

function layoutDetail(layout) {
  return `${layout.width} px: ${layout.cells} cells, ${layout.atOnce} seen without scrolling, hidden ` +
    `${JSON.stringify(layout.hidden)}; ${layout.cut} names cut, unreadable ${JSON.stringify(layout.unreadable)}; ` +
    `details ${layout.details}`;
}

const checks = {
  async map(page) {
    await openFile(page, "03-practice.md");
    await command(page, "MarkdownFlow: Show Course Map");
    await until(
      async () => (await tabs(page)).find((label) => label.startsWith("Course map: ")),
      "the course map tab",
    );
    // Until the course is indexed the map may show the lesson alone; it follows the index.
    const lanes = await until(async () => {
      const found = await inFrames(page, mapLanes);
      return found && found.length === 16 ? found : null;
    }, "the whole course's map inside the web view", waitMs * 2);
    const title = (await tabs(page)).find((label) => label.startsWith("Course map: "));
    const late = lanes.find((lane) => lane.key === LATE);
    const marked = late !== undefined && late.cells.some(([lesson, kind]) => lesson === 2 && kind === "read-before-asked");
    await page.screenshot({ path: path.join(shots, "map.png") }).catch(() => undefined);
    record("map", title.startsWith("Course map: Learning to program") && title.includes("Editor Group 2") && lanes.length === 16 && marked,
      `${title}; ${lanes.length} lanes; ${JSON.stringify(late)}`);
  },

  async narrow(page) {
    // Beside the lesson, the web view 526 px wide (issue 22): every cell is seen, every lane
    // name readable, the details below the grid.
    const width = await fitMap(page, 526);
    const layout = await until(() => inFrames(page, mapLayout), "the map's layout");
    await page.screenshot({ path: path.join(shots, "map-526px.png") }).catch(() => undefined);
    record("narrow", Math.abs(width - 526) <= 2 && layout.cells >= 16 && layout.hidden.length === 0 &&
      layout.unreadable.length === 0 && layout.details === "below", layoutDetail(layout));
    await page.setViewportSize({ width: 1500, height: 900 });
  },

  async wide(page) {
    // The map's tab maximised, side bars hidden: the whole width, the details beside the grid.
    await page.locator(".tab", { hasText: "Course map" }).first().click();
    await command(page, "View: Maximize Editor Group and Hide Side Bars");
    const layout = await until(async () => {
      const found = await inFrames(page, mapLayout);
      return found && found.width > 1300 ? found : null;
    }, "the maximised map");
    await page.screenshot({ path: path.join(shots, "map-wide.png") }).catch(() => undefined);
    record("wide", layout.cells >= 16 && layout.hidden.length === 0 && layout.atOnce === layout.cells &&
      layout.unreadable.length === 0 && layout.details === "beside", layoutDetail(layout));
    await command(page, "View: Toggle Maximize Editor Group");
  },

  async follows(page) {
    // Type a new question into the lesson (not saved): the map gains its lane.
    await openFile(page, "03-practice.md");
    await page.locator(".editor-instance .monaco-editor textarea").first().focus();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.type(`Use {{ ${NEW_KEY} }} here.`);
    const lanes = await until(async () => {
      const found = await inFrames(page, mapLanes);
      return found && found.some((lane) => lane.key === NEW_KEY) ? found : null;
    }, "the new question in the map");
    const lane = lanes.find((item) => item.key === NEW_KEY);
    record("follows", lane.cells.length === 1 && lane.cells[0][1] === "unbound", JSON.stringify(lane));
  },

  async keys(page) {
    await command(page, "MarkdownFlow: Show Course Keys");
    const title = await until(
      async () => (await tabs(page)).find((label) => label.includes("Learning to program keys.md")),
      "the course keys preview tab",
    );
    const table = await until(
      () =>
        inFrames(page, () => {
          const rows = document.querySelectorAll("table tr");
          return rows.length > 1 ? Array.from(rows).map((row) => row.innerText.replace(/\s+/g, " ").trim()) : null;
        }),
      "the key table in the preview",
    );
    const late = table.find((row) => row.startsWith(LATE));
    const typed = table.find((row) => row.startsWith(NEW_KEY));
    await page.screenshot({ path: path.join(shots, "keys.png") }).catch(() => undefined);
    record("keys", title.startsWith("Preview") && late && late.includes("read-before-asked") && typed,
      `${title}; ${late}; ${typed}; ${table.length} rows`);
  },
};

async function main() {
  const browser = await kit.launch(waitMs);
  try {
    const page = await browser.newPage({ viewport: { width: 1500, height: 900 } });
    page.setDefaultTimeout(waitMs);
    await kit.openWorkbench(page, course, waitMs);
    await until(
      async () => (await page.locator(".statusbar-item[aria-label*='MarkdownFlow: running']").count()) > 0 ||
        (await page.locator(".statusbar-item", { hasText: "MarkdownFlow" }).count()) > 0,
      "the MarkdownFlow status item",
      waitMs * 2,
    );
    await run(page, checks, ["map", "narrow", "wide", "follows", "keys"]);
  } finally {
    await browser.close().catch(() => undefined);
  }
}

kit.finish(main, results);
