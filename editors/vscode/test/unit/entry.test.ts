import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";

// Run from out/test (the bundled tests): the sources are two folders up.
const SOURCES = path.resolve(__dirname, "..", "..", "src");

const IMPORT = /^import\s+(type\s+)?([\s\S]*?)\s+from\s+"([^"]+)";/gm;

/** The modules `file` imports for their values (an import of types only is erased). */
function runtimeImports(file: string): string[] {
  const text = fs.readFileSync(path.join(SOURCES, file), "utf8");
  const found: string[] = [];
  for (const [, typeOnly, names, from] of text.matchAll(IMPORT)) {
    const specifiers = names.replace(/^\{|\}$/g, "").split(",").map((name) => name.trim()).filter(Boolean);
    const allTypes = names.startsWith("{") && specifiers.every((name) => name.startsWith("type "));
    if (!typeOnly && !allTypes) {
      found.push(from);
    }
  }
  return found;
}

/** Every module loaded with `file`, following this extension's own modules. */
function loadedWith(file: string): Set<string> {
  const loaded = new Set<string>();
  const pending = [file];
  while (pending.length > 0) {
    const current = pending.pop() as string;
    for (const module of runtimeImports(current)) {
      const own = module.startsWith("./") ? `${module.slice(2)}.ts` : undefined;
      if (!loaded.has(own ?? module)) {
        loaded.add(own ?? module);
        if (own !== undefined) {
          pending.push(own);
        }
      }
    }
  }
  return loaded;
}

test("the entry starts the server before the language client library is loaded", () => {
  const withEntry = [...loadedWith("entry.ts")];
  assert.ok(withEntry.includes("launch.ts"));
  assert.deepEqual(
    withEntry.filter((module) => module.startsWith("vscode-languageclient") || module === "extension.ts"),
    [],
  );
  const entry = fs.readFileSync(path.join(SOURCES, "entry.ts"), "utf8");
  assert.match(entry, /await import\("\.\/extension"\)/);
});

test("the walk sees the language client where it is loaded", () => {
  assert.ok(loadedWith("extension.ts").has("vscode-languageclient/node"));
});
