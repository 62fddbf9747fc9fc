// Starting the server's process: the mfls named in the settings, or the bundled one with the
// first Python that can run it. Nothing here loads the language client library, so that the
// entry (entry.ts) can start the server before loading it.
import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as vscode from "vscode";
import { pythonExtensionActivating, startBundledServer } from "./python";
import { locateExecutable, type ServerCommand } from "./serverCommand";

/** A started server process; `stop` ends it. */
export interface ServerProcess {
  server: ServerCommand;
  process: ChildProcess;
  startedAt: number; // Date.now() at the start
  stop(): void;
}

export type Launch =
  // probed: the bundled server's Python was probed first (else only its start will tell).
  | { ok: true; started: ServerProcess; bundled: boolean; probed: boolean; began: number; chosenAt: number }
  | { ok: false; server?: ServerCommand; reason: string; bundled: boolean }; // no server: no Python

/** The server named in the settings, or undefined when `mfls.server.path` is empty (bundled). */
export function configuredServer(): ServerCommand | undefined {
  const config = vscode.workspace.getConfiguration("mfls.server");
  const command = (config.get<string>("path") ?? "").trim();
  const args = config.get<string[]>("args") ?? [];
  return command ? { command, args } : undefined;
}

/** The folder the server runs in, as the language client would choose it: the first
 * workspace folder on disk, else none. */
function serverDirectory(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (folder?.scheme !== "file") {
    return undefined;
  }
  try {
    return fs.statSync(folder.fsPath).isDirectory() ? folder.fsPath : undefined;
  } catch {
    return undefined;
  }
}

/** Starts `server` with pipes for stdio (what the language client connects to). */
export function spawnServer(server: ServerCommand): ServerProcess {
  const child = spawn(server.command, server.args, { cwd: serverDirectory(), stdio: "pipe" });
  // A command that cannot run leaves no pid: `launchServer` reports it, not this event.
  child.on("error", () => undefined);
  return {
    server,
    process: child,
    startedAt: Date.now(),
    stop: () => {
      child.kill();
    },
  };
}

/** Whether the process has ended. */
export function ended(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * The configured server if it exists, else the bundled one with a Python that can run it,
 * started. `started` settles once a server process has been started, or as soon as the
 * choice waits for the Python extension to activate (the caller loads the rest meanwhile).
 * `probeFirst` false: the bundled server starts with the first Python found, unprobed
 * (`startBundledServer`); a Python that cannot run it is found out when it does not start.
 */
export function launchServer(
  extensionPath: string,
  log: (line: string) => void,
  probeFirst = false,
): { started: Promise<void>; launch: Promise<Launch> } {
  let settle: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const start = (server: ServerCommand): ServerProcess => {
    const begun = spawnServer(server);
    settle();
    return begun;
  };
  if (configuredServer() === undefined && pythonExtensionActivating()) {
    settle();
  }
  const launch = choose(extensionPath, log, start, probeFirst);
  void launch.finally(settle);
  return { started, launch };
}

async function choose(
  extensionPath: string,
  log: (line: string) => void,
  start: (server: ServerCommand) => ServerProcess,
  probeFirst: boolean,
): Promise<Launch> {
  const began = Date.now();
  const configured = configuredServer();
  let started: ServerProcess;
  let probed = true;
  if (configured !== undefined) {
    if (locateExecutable(configured.command) === undefined) {
      const where = configured.command.includes("/") ? "no executable file there" : "not found on PATH";
      return { ok: false, server: configured, reason: where, bundled: false };
    }
    started = start(configured);
  } else {
    const resource = vscode.window.activeTextEditor?.document.uri ?? vscode.workspace.workspaceFolders?.[0]?.uri;
    const found = await startBundledServer(extensionPath, resource, log, start, probeFirst);
    if ("message" in found) {
      return { ok: false, reason: found.message, bundled: true };
    }
    started = found.started;
    probed = found.probed;
  }
  if (started.process.pid === undefined && !probed) {
    log(`The first Python could not be run (${started.server.command}); looking for another.`);
    return choose(extensionPath, log, start, true);
  }
  if (started.process.pid === undefined) {
    const reason = `Launching server using command ${started.server.command} failed.`;
    return { ok: false, server: started.server, reason, bundled: configured === undefined };
  }
  return { ok: true, started, bundled: configured === undefined, probed, began, chosenAt: Date.now() };
}
