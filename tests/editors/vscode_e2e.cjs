// Drives code-server (real VS Code in a browser) with playwright-core and Debian's chromium.
// Environment: MFLS_NODE_MODULES (where playwright-core is), MFLS_URL, MFLS_COURSE,
// MFLS_RESULTS, MFLS_SHOTS (screenshots of failed checks), MFLS_WAIT_MS, MFLS_RENAME ("1"
// when the server advertises renameProvider), MFLS_CHROMIUM, MFLS_SETTINGS (the user settings file,
// read only: changes go through the settings editor), MFLS_TOML_LINE (the line of the course
// file's ignored field).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const kit = require(path.join(__dirname, "kit", "driver_kit.cjs"));

const waitMs = Number(process.env.MFLS_WAIT_MS || "30000");
const course = process.env.MFLS_COURSE;
const shots = process.env.MFLS_SHOTS;
const { results, record, run } = kit.checkRunner(shots);
const KEY = "What would you like to learn?";
const FIRST_IN_PROJECT = "Which project will you build?";
const COURSE_NAME = "Learning to program";
// The status item's accessible label: the server state, then the course while running.
const STATE_LABEL = /^MarkdownFlow: (starting|running|stopped|could not start)(, course .*)?$/;

async function until(condition, what, timeout = waitMs) {
  return kit.until(condition, what, timeout, 100);
}

async function activeTab(page) {
  return (await page.locator(".tab.active").first().getAttribute("aria-label").catch(() => "")) || "";
}

async function quickInput(page, key, text) {
  return kit.quickInput(page, key, text, waitMs);
}

async function quickOpen(page, text) {
  return quickInput(page, "Control+P", text);
}

async function openFile(page, name) {
  await kit.quickOpenFile(page, name, waitMs);
  await until(async () => (await activeTab(page)).includes(name), `the tab of ${name}`);
  await page.locator(".editor-instance .monaco-editor textarea").first().focus();
}

async function cursorAt(page) {
  const label = page.locator(".statusbar-item", { hasText: /Ln \d+, Col \d+/ }).first();
  return (await label.textContent().catch(() => "")) || "";
}

async function goTo(page, line, column) {
  const input = await quickOpen(page, `:${line}:${column}`);
  await page.keyboard.press("Enter");
  await input.waitFor({ state: "hidden", timeout: waitMs });
  await until(async () => (await cursorAt(page)).includes(`Ln ${line}, Col ${column}`), `Ln ${line}, Col ${column}`);
}

async function command(page, label) {
  return kit.runCommand(page, label, waitMs);
}

// The screen rectangle of `needle` inside the rendered editor line that contains `lineText`.
async function textBox(page, lineText, needle) {
  return until(
    () =>
      page.evaluate(
        ([lineText, needle]) => {
          for (const line of document.querySelectorAll(".editor-instance .view-line")) {
            const text = line.textContent.replace(/\u00a0/g, " ");
            if (!text.includes(lineText) || !text.includes(needle)) {
              continue;
            }
            let offset = text.indexOf(needle);
            const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              if (offset < node.length) {
                const range = document.createRange();
                range.setStart(node, offset);
                range.setEnd(node, Math.min(node.length, offset + 4));
                const rect = range.getBoundingClientRect();
                return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
              }
              offset -= node.length;
            }
          }
          return null;
        },
        [lineText, needle],
      ),
    `"${needle}" on screen`,
  );
}

// VS Code draws an inlay hint as text inside the line, in spans of a generated class.
const HINT = '[class*="dyn-rule-"]';

// The text of the editor line that contains `needle` (as rendered, spaces normalized,
// without its inlay hints).
async function lineText(page, needle) {
  return until(
    () =>
      page.evaluate(
        ([needle, hint]) => {
          for (const line of document.querySelectorAll(".editor-instance .view-line")) {
            const copy = line.cloneNode(true);
            copy.querySelectorAll(hint).forEach((span) => span.remove());
            const text = copy.textContent.replace(/\u00a0/g, " ");
            if (text.includes(needle)) {
              return text;
            }
          }
          return "";
        },
        [needle, HINT],
      ),
    `a line with "${needle}"`,
  );
}

// The inlay hints drawn on the editor line that contains `needle`, as they read.
async function hintsOn(page, needle) {
  return page.evaluate(
    ([needle, hint]) => {
      for (const line of document.querySelectorAll(".editor-instance .view-line")) {
        const copy = line.cloneNode(true);
        copy.querySelectorAll(hint).forEach((span) => span.remove());
        if (copy.textContent.replace(/\u00a0/g, " ").includes(needle)) {
          return [...line.querySelectorAll(hint)]
            .map((span) => span.textContent.replace(/\u00a0/g, " ").trim())
            .filter(Boolean);
        }
      }
      return null;
    },
    [needle, HINT],
  );
}

function statusItem(page) {
  return page.locator(".part.statusbar .statusbar-item", { hasText: "MarkdownFlow" }).first();
}

async function statusLabel(page) {
  return (await statusItem(page).getAttribute("aria-label").catch(() => "")) || "";
}

// Clicks the status item; returns the rows of the menu it opens.
async function openMenu(page) {
  await statusItem(page).click();
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: waitMs });
  const rows = page.locator(".quick-input-list .monaco-list-row");
  await until(async () => (await rows.count()) >= 2, "the MarkdownFlow menu");
  return rows;
}

// {server, python} as the menu's "Show server log" row says once the course info arrived.
async function runningServer(page) {
  await openFile(page, "01-welcome.md");
  await until(async () => (await statusLabel(page)).includes(`course ${COURSE_NAME}`), "the course in the status item");
  const rows = await openMenu(page);
  const row = rows.filter({ hasText: "Show server log" }).first();
  // The row's text, less the separator label ("recently opened", ...) the quick pick may show.
  const text = (
    await row.evaluate((element) => {
      const copy = element.cloneNode(true);
      copy.querySelectorAll(".quick-input-list-separator").forEach((label) => label.remove());
      return copy.textContent || "";
    })
  ).replace(/\s+/g, " ");
  await page.keyboard.press("Escape");
  const match = /mfls: (.+?) · Python: (.+?)$/.exec(text.trim());
  if (!match) {
    throw new Error(`no server location in the menu row: ${text}`);
  }
  return { server: match[1].trim(), python: match[2].trim() };
}

// The user settings as the test wrote them, before any check changed them.
const ORIGINAL_SETTINGS = fs.readFileSync(process.env.MFLS_SETTINGS, "utf8");

// One line: typed into the editor, several lines would be indented again as they are typed.
function settingsWith(changes) {
  return JSON.stringify({ ...JSON.parse(ORIGINAL_SETTINGS), ...changes });
}

// Replaces the user settings through the settings.json editor, as a person does.
async function writeSettings(page, text) {
  await command(page, "Preferences: Open User Settings (JSON)");
  await until(async () => (await activeTab(page)).includes("settings.json"), "settings.json to open");
  await page.locator(".editor-instance .monaco-editor textarea").first().focus();
  // Select all and delete first: typing "{" over a selection would surround it.
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
  await page.keyboard.press("Control+S");
  const wanted = JSON.stringify(JSON.parse(text));
  await until(() => {
    try {
      return JSON.stringify(JSON.parse(fs.readFileSync(process.env.MFLS_SETTINGS, "utf8"))) === wanted;
    } catch {
      return false;
    }
  }, "settings.json to be saved with the new settings");
}

async function waitForStatus(page, state) {
  return until(async () => (await statusLabel(page)).startsWith(`MarkdownFlow: ${state}`), `status ${state}`);
}

// Edits whose change annotations need confirmation open the Refactor Preview with their
// boxes unticked; a person ticks them and presses Apply.
async function applyRefactorPreview(page) {
  const apply = page.locator(".part.panel .monaco-button", { hasText: /^Apply$/ }).first();
  const opened = await until(
    async () => (await apply.isVisible()) || (await page.locator(".tab.dirty").count()) > 0,
    "the rename to be applied or previewed",
  );
}

const checks = {
  async activation(page) {
    const item = page.locator(".statusbar-item", { hasText: "MarkdownFlow" }).first();
    await openFile(page, "02-first-program.md");
    await item.waitFor({ state: "visible", timeout: waitMs });
    const label = await until(async () => {
      const text = (await item.getAttribute("aria-label")) || "";
      return /MarkdownFlow: (running|could not start|stopped)/.test(text) ? text : "";
    }, "the MarkdownFlow status item to settle");
    const ready = label.includes("MarkdownFlow: running");
    record("activation", ready, label);
    return ready;
  },

  async progress(page) {
    // The status item shows the server's work-done progress while the course is indexed.
    const labels = await until(async () => {
      const seen = await page.evaluate(() => window.__mflsLabels);
      return seen.some((label) => !STATE_LABEL.test(label)) ? seen : null;
    }, "the status item to show indexing progress");
    record("progress", true, labels.join(" -> "));
  },

  async diagnostics(page) {
    await openFile(page, "03-practice.md");
    const squiggles = page.locator(".editor-instance .squiggly-error");
    await until(async () => (await squiggles.count()) > 0, "an error squiggle");
    record("diagnostics", true, `${await squiggles.count()} error squiggle(s)`);
  },

  async hover(page) {
    await openFile(page, "02-first-program.md");
    // Hover as a person does: the mouse onto the key, found by its text on screen.
    const box = await textBox(page, "Use {{ What would you like", "would you like");
    await page.mouse.move(box.x + 2, box.y + 2);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 10 });
    const block = page
      .locator(".monaco-hover:not(.hidden) .rendered-markdown .monaco-tokenized-source")
      .filter({ hasText: KEY })
      .first();
    await block.waitFor({ state: "visible", timeout: waitMs });
    const exact = ((await block.textContent()) || "").trim();
    const text = await page.locator(".monaco-hover:not(.hidden)").first().innerText();
    record("hover", exact === KEY, `${JSON.stringify(exact)} in: ${text}`);
    await page.mouse.move(5, 5);
    await page.keyboard.press("Escape");
  },

  async definition(page) {
    await openFile(page, "02-first-program.md");
    await goTo(page, 3, 12);
    await page.keyboard.press("F12");
    await until(async () => (await activeTab(page)).includes("01-welcome.md"), "01-welcome.md to open");
    const where = await until(async () => {
      const text = await cursorAt(page);
      return text.includes("Ln 7,") ? text : "";
    }, "the cursor on line 7 (the binding)");
    record("definition", true, `${await activeTab(page)} ${where}`);
  },

  async codeLens(page) {
    // The lens above a binding counts its reads; clicking it opens the references peek.
    await openFile(page, "01-welcome.md");
    const title = "asked here · read 4 times in 3 lessons";
    const lens = page.locator(".editor-instance .codelens-decoration a", { hasText: title }).first();
    await lens.waitFor({ state: "visible", timeout: waitMs });
    const shown = await page.locator(".editor-instance .codelens-decoration").allTextContents();
    await lens.click();
    const peek = page.locator(".editor-instance .peekview-widget").first();
    await peek.waitFor({ state: "visible", timeout: waitMs });
    let header = "";
    await until(async () => {
      header = ((await peek.innerText().catch(() => "")) || "").replace(/\s+/g, " ");
      // VS Code titles the peek of editor.action.showReferences "Locations (N)".
      return /Locations \(4\)/.test(header);
    }, "the references peek to list 4 locations", waitMs).catch((error) => {
      throw new Error(`${error.message}; the peek shows: ${header}`);
    });
    const rows = await peek.locator(".ref-tree .monaco-list-row").allTextContents();
    record("codeLens", true, `lenses: ${shown.join(" | ")}; peek: ${header}; rows: ${rows.join(" | ")}`);
    await page.keyboard.press("Escape");
  },

  async inlayHints(page) {
    // With VS Code's defaults (editor.inlayHints.enabled "on"): after a read, where the key
    // is asked and its choices; after an interaction, how many lessons read the answer.
    // mfls.inlayHints.enabled false takes them away (the server asks VS Code to refresh).
    const read = "Use {{ What would you like to learn? }}";
    const binding = "?[{{ How did the first program go? }}";
    const shown = async (what) =>
      until(async () => {
        const atRead = await hintsOn(page, read);
        const atBinding = await hintsOn(page, binding);
        return atRead && atRead.length && atBinding && atBinding.length ? { atRead, atBinding } : null;
      }, what);
    await openFile(page, "02-first-program.md");
    const on = await shown("the inlay hints of 02-first-program.md");
    const asked = on.atRead.some((text) => text.startsWith("asked in 01-welcome.md: Python, JavaScript"));
    const reads = on.atBinding.includes("read in 1 lesson");
    await writeSettings(page, settingsWith({ "mfls.inlayHints.enabled": false }));
    await openFile(page, "02-first-program.md");
    await until(async () => {
      const atRead = await hintsOn(page, read);
      return atRead !== null && atRead.length === 0 && (await hintsOn(page, binding)).length === 0;
    }, "the hints to go with mfls.inlayHints.enabled false");
    await writeSettings(page, settingsWith({}));
    await openFile(page, "02-first-program.md");
    const again = await shown("the hints to come back");
    record(
      "inlayHints",
      asked && reads && again.atRead.join() === on.atRead.join(),
      `after the read: ${JSON.stringify(on.atRead)}; after the binding: ${JSON.stringify(on.atBinding)}`,
    );
  },

  async snippets(page) {
    // `?[` offers the interaction snippets; Enter takes the first, "single choice"; Tab walks its stops.
    await openFile(page, "04-project.md");
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type("?[", { delay: 50 });
    const widget = page.locator(".suggest-widget.visible");
    const row = widget.locator(".monaco-list-row", { hasText: "single choice" }).first();
    try {
      await row.waitFor({ state: "visible", timeout: Math.min(waitMs, 8000) });
    } catch {
      await page.keyboard.press("Control+Space");
      await row.waitFor({ state: "visible", timeout: waitMs });
    }
    // Enter takes the focused row: the list may still be settling (a slow machine), so
    // Enter only once "single choice" is the focused one, else a click takes that row.
    const focused = widget.locator(".monaco-list-row.focused");
    const onIt = await until(
      async () => (await focused.allTextContents()).join(" ").includes("single choice"),
      "the single choice snippet to be focused",
      5000,
    ).then(() => true, () => false);
    // What a person sees when choosing: the settled list, "single choice" first.
    const offered = await widget.locator(".monaco-list-row").evaluateAll((rows) =>
      rows.sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index)).map((row) => row.textContent));
    if (onIt) {
      await page.keyboard.press("Enter");
    } else {
      await row.click();
    }
    // Typing in the key's stop asks for the course's keys; a person who sees suggestions
    // still up (a loaded machine answers late) waits for them to go or closes them before
    // Tab, which would take one (`?[{{ Which project will you build?Red }}`).
    const nextStop = async () => {
      const gone = await widget.waitFor({ state: "hidden", timeout: 3000 }).then(() => true, () => false);
      if (!gone) await page.keyboard.press("Escape");
      await page.keyboard.press("Tab");
    };
    await page.keyboard.type("Which color?", { delay: 20 });
    await nextStop();
    await page.keyboard.type("Red", { delay: 20 });
    await nextStop();
    await page.keyboard.type("Blue", { delay: 20 });
    await nextStop();
    const wanted = "?[{{ Which color? }} Red | Blue]";
    const line = await lineText(page, "Which color");
    record(
      "snippets",
      line === wanted && (offered[0] || "").includes("single choice"),
      `line: ${JSON.stringify(line)}; offered: ${offered.join(" | ")}`,
    );
    await page.keyboard.press("Escape");
    await command(page, "File: Revert File");
  },

  async hoverLink(page) {
    // The hover names where the key is bound as a link; clicking it opens that line.
    await openFile(page, "02-first-program.md");
    const box = await textBox(page, "Use {{ What would you like", "would you like");
    await page.mouse.move(box.x + 2, box.y + 2);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 10 });
    const link = page.locator(".monaco-hover:not(.hidden) .rendered-markdown a", { hasText: "01-welcome.md:7" }).first();
    await link.waitFor({ state: "visible", timeout: waitMs });
    await link.click();
    await until(async () => (await activeTab(page)).includes("01-welcome.md"), "01-welcome.md to open from the hover");
    const where = await until(async () => {
      const text = await cursorAt(page);
      return text.includes("Ln 7,") ? text : "";
    }, "the cursor on line 7 (the binding)");
    record("hoverLink", true, `${await activeTab(page)} ${where}`);
  },

  async documentLink(page) {
    // In mfcourse.toml a lessons glob is a link: Ctrl+click opens the first lesson.
    await openFile(page, "mfcourse.toml");
    const box = await textBox(page, "lessons = [", "lessons/*.md");
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    // VS Code asks for a document's links a moment after it opens: a person holding Ctrl
    // over the glob waits for the underline before clicking (under load it comes late).
    await page.keyboard.down("Control");
    try {
      await until(async () => {
        await page.mouse.move(box.x - 20, y);
        await page.mouse.move(x, y, { steps: 5 });
        return (await page.locator(".detected-link-active").count()) > 0;
      }, "the lessons glob to be underlined as a link under Ctrl");
      await page.mouse.click(x, y);
    } finally {
      await page.keyboard.up("Control");
    }
    const tab = await until(async () => {
      const label = await activeTab(page);
      return label.includes("01-welcome.md") ? label : "";
    }, "01-welcome.md to open from the link");
    record("documentLink", true, tab);
  },

  async fileTreeRename(page) {
    // A person renames a lesson of an AI-Shifu course folder in the file tree: the
    // server's answer to willRenameFiles keeps structure.json naming it.
    const folder = path.join(course, "ai-course");
    const structure = path.join(folder, "structure.json");
    await openFile(page, "lesson-01.md");
    await command(page, "File: Reveal Active File in Explorer View");
    const row = page.locator(".explorer-folders-view .monaco-list-row.selected", { hasText: "lesson-01.md" });
    await row.first().waitFor({ state: "visible", timeout: waitMs });
    await row.first().click(); // the file tree has the focus, as for a person
    await page.keyboard.press("F2");
    const input = page.locator(".explorer-folders-view .monaco-inputbox input").first();
    await input.waitFor({ state: "visible", timeout: waitMs });
    await input.fill("intro.md");
    await page.keyboard.press("Enter");
    // VS Code asks before it applies an extension's refactoring of a file move: OK.
    const dialog = page.locator(".monaco-dialog-box");
    await dialog.waitFor({ state: "visible", timeout: waitMs });
    const asked = (await dialog.textContent()) || "";
    await dialog.locator(".monaco-button", { hasText: /^OK$/ }).first().click();
    // The edit lands in structure.json's editor (unsaved): the person saves it.
    await page.locator(".tab", { hasText: "structure.json" }).first().waitFor({ state: "visible", timeout: waitMs });
    await command(page, "File: Save All");
    const text = await until(() => {
      const now = fs.readFileSync(structure, "utf8");
      return now.includes('"intro.md"') ? now : "";
    }, "structure.json to name intro.md");
    const moved = fs.existsSync(path.join(folder, "lessons", "intro.md"));
    record(
      "fileTreeRename",
      moved && !text.includes("lesson-01.md") && asked.includes("refactoring changes"),
      `${asked} || ${text.replace(/\s+/g, " ")}`,
    );
  },

  async completionSpace(page) {
    // Issue 22: the space typed after `{{` keeps the list of keys (the server asks for it
    // again), the course's keys before the Markdown extension's snippets; a space anywhere
    // else opens no list. No Ctrl+Space here: only what typing shows.
    await openFile(page, "04-project.md");
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    const widget = page.locator(".suggest-widget.visible");
    await page.keyboard.type("Plain words ", { delay: 50 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const afterPlain = await widget.count();
    // Typed at a person's pace, the space before the list of `{` has shown.
    await page.keyboard.type("then {{ ", { delay: 30 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const shown = (what) =>
      until(async () => {
        const found = await page.$$eval(".suggest-widget.visible .monaco-list-row", (items) =>
          items.map((item) => ({
            label: (item.querySelector(".label-name") || item).textContent.trim(),
            icon: (item.querySelector(".suggest-icon") || { className: "" }).className,
          })),
        );
        return found.some((row) => row.label === KEY) ? found : null;
      }, what);
    const isKey = (row) => /symbol-(variable|constant)/.test(row.icon);
    // The key asked first in this lesson (04-project.md) on top, no other item before a key.
    const keysFirst = (rows) =>
      rows.length > 0 && rows[0].label === FIRST_IN_PROJECT &&
      (rows.findIndex((row) => !isKey(row)) === -1 || rows.findIndex((row) => !isKey(row)) > rows.map(isKey).lastIndexOf(true));
    const describe = (rows) => rows.map((row) => `${row.label} [${row.icon.replace(/.*symbol-/, "")}]`).join(" | ");
    const typed = await shown("the keys after `{{ `");
    // Asked for (Ctrl+Space) at the same place: every provider answers, snippets too.
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+Space");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const asked = await shown("the keys on Ctrl+Space after `{{ `");
    const line = (await lineText(page, "then {{")).trim();
    record(
      "completionSpace",
      afterPlain === 0 && keysFirst(typed) && keysFirst(asked),
      `after "Plain words ": ${afterPlain} list(s); after "{{ " (${JSON.stringify(line)}): ${describe(typed)}; ` +
        `Ctrl+Space: ${describe(asked)}`,
    );
    await page.keyboard.press("Escape");
    await command(page, "File: Revert File");
  },

  async completion(page) {
    // Type `{{ Wh`, ask for completion, pick the key: the line holds one marker.
    await openFile(page, "04-project.md");
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Recall {{", { delay: 50 });
    const widget = page.locator(".suggest-widget.visible");
    const row = widget.locator(".monaco-list-row", { hasText: KEY }).first();
    try {
      await row.waitFor({ state: "visible", timeout: Math.min(waitMs, 8000) });
    } catch {
      await page.keyboard.press("Control+Space");
      await row.waitFor({ state: "visible", timeout: waitMs });
    }
    const offered = await widget.locator(".monaco-list-row").allTextContents();
    await page.keyboard.press("Escape");
    await page.keyboard.type(" Wh", { delay: 50 });
    await page.keyboard.press("Control+Space");
    await row.waitFor({ state: "visible", timeout: waitMs });
    const filtered = await widget.locator(".monaco-list-row").allTextContents();
    await row.click();
    await widget.waitFor({ state: "hidden", timeout: waitMs });
    const line = (await lineText(page, "Recall")).trim();
    const expected = `Recall {{ ${KEY} }}`;
    const onlyTyped = filtered.every((text) => /w.*h/i.test(text));
    record(
      "completion",
      line === expected && onlyTyped,
      `line=${JSON.stringify(line)} after {{: ${offered.join(" | ")} after {{ Wh: ${filtered.join(" | ")}`,
    );
    await command(page, "File: Revert File");
  },

  async rename(page) {
    if (process.env.MFLS_RENAME !== "1") {
      record("rename", false, "skipped: the server does not advertise renameProvider");
      return;
    }
    const newName = "How was your first program?";
    await openFile(page, "03-practice.md");
    await goTo(page, 13, 12);
    await page.keyboard.press("F2");
    const input = page.locator(".rename-box input, .rename-box textarea").first();
    await input.waitFor({ state: "visible", timeout: waitMs });
    await input.fill(newName);
    await page.keyboard.press("Enter");
    await input.waitFor({ state: "hidden", timeout: waitMs });
    // Applied at once: the lesson shows the new key, no Refactor Preview opens (VS Code may
    // save the files of a refactoring at once: `files.refactoring.autoSave`).
    await lineText(page, `{{ ${newName} }}`);
    const preview = await page.locator(".part.panel .monaco-button", { hasText: /^Apply$/ }).count();
    const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "Stored answers" }).first();
    await toast.waitFor({ state: "visible", timeout: waitMs });
    const warning = ((await toast.innerText()) || "").replace(/\s+/g, " ");
    await command(page, "File: Save All");
    const files = ["02-first-program.md", "03-practice.md"].map((name) => path.join(course, "lessons", name));
    await until(
      () => files.every((file) => fs.readFileSync(file, "utf8").includes(`{{ ${newName} }}`)),
      "both lessons on disk to hold the new key",
    );
    record("rename", preview === 0, `preview buttons: ${preview}; notification: ${warning}; ${files.join(" ")}`);
  },

  async restart(page) {
    // "MarkdownFlow: Restart server" stops the server and starts a new one.
    const before = (await page.evaluate(() => window.__mflsLabels)).length;
    await command(page, "MarkdownFlow: Restart server");
    // The extension host throttles status item updates: "stopped" may not show, but
    // "starting" lasts as long as the new server takes to answer initialize.
    const seen = await until(async () => {
      const labels = (await page.evaluate(() => window.__mflsLabels)).slice(before);
      const away = labels.findIndex((label) => /^MarkdownFlow: (stopped|starting)$/.test(label));
      return away >= 0 && (labels.at(-1) || "").startsWith("MarkdownFlow: running") ? labels : null;
    }, "the status item to go through starting and back to running");
    record("restart", true, seen.join(" -> "));
  },

  async mdflow(page) {
    // *.mdflow files are the markdownflow language, highlighted and served like Markdown.
    await openFile(page, "scratch.mdflow");
    const mode = page.locator("#status\\.editor\\.mode");
    const language = await until(async () => {
      const text = ((await mode.textContent().catch(() => "")) || "").trim();
      return text === "MarkdownFlow" ? text : "";
    }, "the language mode MarkdownFlow");
    const squiggles = page.locator(".editor-instance .squiggly-error");
    await until(async () => (await squiggles.count()) > 0, "an error squiggle in the .mdflow file");
    record("mdflow", true, `${language}, ${await squiggles.count()} error squiggle(s)`);
  },

  async startFailure(page) {
    // A wrong mfls.server.path, typed into the user settings: the server restarts and fails, and
    // the message says what was tried and how to fix it.
    const missing = path.join(course, "no-such-dir", "mfls");
    await writeSettings(page, settingsWith({ "mfls.server.path": missing }));
    try {
      await waitForStatus(page, "could not start");
      const toast = page
        .locator(".notifications-toasts .notification-toast", { hasText: "bundled with the extension" })
        .first();
      await toast.waitFor({ state: "visible", timeout: waitMs });
      const message = (await toast.innerText()).replace(/\s+/g, " ");
      record("startFailure", message.includes(missing) && message.includes("Restart"), message);
    } finally {
      await writeSettings(page, settingsWith({}));
    }
    await waitForStatus(page, "running");
  },

  async bundled(page) {
    // mfls is neither on PATH nor importable; the stub Python extension reports a venv.
    record("bundled", true, JSON.stringify(await runningServer(page)));
  },

  async statusCourse(page) {
    // The status item shows the active lesson's course in the server's words: name, lessons,
    // reference documents, questions, problems.
    await openFile(page, "02-first-program.md");
    const label = await until(async () => {
      const text = await statusLabel(page);
      return /^MarkdownFlow: running, course Learning to program: 4 lessons, 1 reference document, \d+ questions?, [1-9]\d* problems?$/.test(text)
        ? text
        : "";
    }, "the course figures in the status item");
    const text = ((await statusItem(page).textContent()) || "").trim();
    record(
      "statusCourse",
      text.includes(`${COURSE_NAME} · 4 lessons · 1 reference document · `) &&
        / · \d+ questions? · [1-9]\d* problems?$/.test(text),
      `${label} | ${text}`,
    );
  },

  async problems(page) {
    // Problems of closed lessons and of the course file (never opened) are in the Problems panel.
    const tabs = await page.locator(".tab").allTextContents();
    if (tabs.some((tab) => tab.includes("03-practice.md") || tab.includes("mfcourse.toml"))) {
      throw new Error(`03-practice.md or mfcourse.toml is open: ${tabs.join(", ")}`);
    }
    await page.keyboard.press("Control+Shift+M");
    const rows = page.locator(".markers-panel .monaco-list-row");
    const shown = async () => (await rows.allTextContents()).map((text) => text.replace(/\s+/g, " "));
    const closed = await until(async () => {
      const all = await shown();
      return all.some((text) => text.includes("03-practice.md")) ? all : null;
    }, "03-practice.md in the Problems panel");
    // The list shows what fits: filter it on the course file, as a person would.
    const filter = page.getByPlaceholder(/^Filter \(e\.g\./).first();
    await filter.fill("mfcourse.toml");
    const line = process.env.MFLS_TOML_LINE;
    const toml = await until(async () => {
      const all = await shown();
      const atLine = all.some((text) => text.includes("colour-scheme") && text.includes(`[Ln ${line},`));
      return all.some((text) => text.includes("mfcourse.toml")) && atLine ? all : null;
    }, `mfcourse.toml's problem at Ln ${line} in the Problems panel`);
    await filter.fill("");
    record("problems", true, `${closed.join(" | ")} || ${toml.join(" | ")}`);
    await command(page, "View: Hide Panel").catch(() => undefined);
  },

  async menu(page) {
    // A click on the status item opens the menu; "Open course file" opens mfcourse.toml, in its
    // own language, with the ignored field's warning at its line.
    await openFile(page, "02-first-program.md");
    await until(async () => (await statusLabel(page)).includes(`course ${COURSE_NAME}`), "the course in the status item");
    const rows = await openMenu(page);
    const labels = (await rows.allTextContents()).map((text) => text.replace(/\s+/g, " ").trim());
    const wanted = ["Restart server", "Show server log", "Open course file"];
    if (!wanted.every((label) => labels.some((text) => text.includes(label)))) {
      throw new Error(`menu rows: ${labels.join(" | ")}`);
    }
    await rows.filter({ hasText: "Open course file" }).first().click();
    await until(async () => (await activeTab(page)).includes("mfcourse.toml"), "mfcourse.toml to open");
    const mode = page.locator("#status\\.editor\\.mode");
    const language = await until(async () => {
      const text = ((await mode.textContent().catch(() => "")) || "").trim();
      return text === "MarkdownFlow course file" ? text : "";
    }, "the language mode MarkdownFlow course file");
    const squiggles = page.locator(".editor-instance .squiggly-warning");
    await until(async () => (await squiggles.count()) > 0, "a warning squiggle in mfcourse.toml");
    record("menu", true, `${labels.join(" | ")}; ${language}, ${await squiggles.count()} warning squiggle(s)`);
  },

  async oldPython(page) {
    // The Python extension reports a Python 3.9 (MFLS_OLD_PYTHON, a script that says so): the
    // server started with it unprobed does not come up, and the extension finds python3 on PATH.
    const before = (await page.evaluate(() => window.__mflsLabels)).length;
    await writeSettings(page, settingsWith({ "stubPython.interpreter": process.env.MFLS_OLD_PYTHON }));
    await until(async () => {
      const labels = (await page.evaluate(() => window.__mflsLabels)).slice(before);
      return labels.some((label) => /^MarkdownFlow: (stopped|starting)/.test(label)) &&
        (labels.at(-1) || "").startsWith("MarkdownFlow: running");
    }, "the server to restart with another Python");
    record("oldPython", true, JSON.stringify(await runningServer(page)));
  },

  async pathPython(page) {
    // The Python extension reports no interpreter any more: the server restarts with python3.
    const before = (await page.evaluate(() => window.__mflsLabels)).length;
    await writeSettings(page, settingsWith({ "stubPython.interpreter": "" }));
    await until(async () => {
      const labels = (await page.evaluate(() => window.__mflsLabels)).slice(before);
      return labels.some((label) => /^MarkdownFlow: (stopped|starting)/.test(label)) &&
        (labels.at(-1) || "").startsWith("MarkdownFlow: running");
    }, "the server to restart");
    record("pathPython", true, JSON.stringify(await runningServer(page)));
  },
};

async function main() {
  const browser = await kit.launch(waitMs);
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // Every label the MarkdownFlow status item shows, however briefly (indexing is quick).
    await page.addInitScript(() => {
      window.__mflsLabels = [];
      const note = (element) => {
        const label = element.getAttribute && element.getAttribute("aria-label");
        const inStatusBar = element.closest && element.closest(".part.statusbar");
        if (inStatusBar && label && label.startsWith("MarkdownFlow: ") && window.__mflsLabels.at(-1) !== label) {
          window.__mflsLabels.push(label);
        }
      };
      new MutationObserver((mutations) => {
        for (const mutation of mutations) {
          note(mutation.target);
          for (const node of mutation.addedNodes) {
            if (node.querySelectorAll) {
              note(node);
              node.querySelectorAll("[aria-label]").forEach(note);
            }
          }
        }
      }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-label"] });
    });
    page.setDefaultTimeout(waitMs);
    await kit.openWorkbench(page, course, waitMs);
    const order = [
      "activation", "progress", "bundled", "statusCourse", "problems", "menu", "diagnostics", "hover",
      "definition", "codeLens", "inlayHints", "snippets", "hoverLink", "documentLink", "completionSpace", "completion",
      "rename",
      "restart", "mdflow", "startFailure", "oldPython", "pathPython", "fileTreeRename",
    ];
    // MFLS_CHECKS (comma-separated names) runs only those, after activation: for debugging.
    const only = (process.env.MFLS_CHECKS || "").split(",").filter(Boolean);
    const chosen = order.filter((name) => only.length === 0 || name === "activation" || only.includes(name));
    await run(page, checks, chosen, "the server did not start");
  } finally {
    await browser.close().catch(() => undefined);
  }
}

kit.finish(main, results);
