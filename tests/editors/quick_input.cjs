// The workbench's quick input (Quick Open, the command palette), for the code-server drivers.
"use strict";

// The quick input opened by `key` and filled with `text`. The workbench closes the quick
// input when another part takes the focus (a web view reloading, an editor opening): then
// it is opened again, a few times, before giving up.
async function quickInput(page, key, text, waitMs) {
  const input = page.locator(".quick-input-widget input");
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press(key);
    try {
      await input.waitFor({ state: "visible", timeout: waitMs });
      await input.fill(text, { timeout: 5_000 });
      return input;
    } catch (error) {
      if (attempt >= 4) {
        throw error;
      }
      await page.keyboard.press("Escape").catch(() => undefined);
    }
  }
}

module.exports = { quickInput };
