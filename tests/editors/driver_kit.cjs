// What the code-server drivers share: waiting for a condition, and the workbench's quick
// input (Quick Open, the command palette).
"use strict";

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

module.exports = { quickInput, until };
