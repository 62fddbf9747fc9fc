import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { describeCommand, locateExecutable, startFailureMessage } from "../../src/serverCommand";

function scratch(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "mfls-vscode-"));
}

function executable(dir: string, name: string, mode = 0o755): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, "#!/bin/sh\n");
  fs.chmodSync(file, mode);
  return file;
}

test("a bare name is looked up on PATH, in PATH order", () => {
  const first = scratch();
  const second = scratch();
  const wanted = executable(second, "mfls");
  executable(first, "other");
  const env = { PATH: [first, second].join(path.delimiter) };
  assert.equal(locateExecutable("mfls", env, "linux"), wanted);
  assert.equal(locateExecutable("absent", env, "linux"), undefined);
});

test("a file without the execute bit is not an executable", () => {
  const dir = scratch();
  executable(dir, "mfls", 0o644);
  assert.equal(locateExecutable("mfls", { PATH: dir }, "linux"), undefined);
});

test("a path is checked as given, not looked up", () => {
  const dir = scratch();
  const file = executable(dir, "mfls");
  assert.equal(locateExecutable(file, { PATH: "" }, "linux"), file);
  assert.equal(locateExecutable(path.join(dir, "missing"), { PATH: dir }, "linux"), undefined);
  assert.equal(locateExecutable(dir, { PATH: "" }, "linux"), undefined);
});

test("the failure message names the command and how to install", () => {
  const server = { command: "/opt/my tools/mfls", args: ["serve", "--log", "a b"] };
  assert.equal(describeCommand(server), '"/opt/my tools/mfls" serve --log "a b"');
  const message = startFailureMessage(server, "not found on PATH");
  assert.match(message, /Tried `"\/opt\/my tools\/mfls" serve --log "a b"`/);
  assert.match(message, /not found on PATH/);
  assert.match(message, /bundled with the extension/);
  assert.match(message, /mfls\.server\.path/);
  assert.match(startFailureMessage(server, "exit 1", true), /bundled with the extension could not start/);
});
