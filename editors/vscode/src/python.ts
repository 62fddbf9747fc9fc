// The bundled server and the Python that runs it: the Python extension's interpreter when
// that extension is installed, else python3 (py -3 on Windows) on PATH.
import { execFile } from "node:child_process";
import * as vscode from "vscode";
import {
  noPythonMessage,
  parseVersion,
  pathCandidates,
  type Probe,
  type PythonCandidate,
  type Started,
  startWithFirstPython,
  VERSION_PROBE,
} from "./pythonSearch";
import type { ServerCommand } from "./serverCommand";

const PYTHON_EXTENSION = "ms-python.python";

/** The part of the Python extension's API used here (both its current and its older form). */
interface PythonApi {
  environments?: {
    getActiveEnvironmentPath?(resource?: vscode.Uri): { id?: string; path: string } | undefined;
    resolveEnvironment?(
      environment: { id?: string; path: string },
    ): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
  settings?: {
    getExecutionDetails?(resource?: vscode.Uri): { execCommand?: string[] } | undefined;
  };
}

async function pythonApi(): Promise<PythonApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonApi>(PYTHON_EXTENSION);
  if (extension === undefined) {
    return undefined;
  }
  try {
    return extension.isActive ? extension.exports : await extension.activate();
  } catch {
    return undefined;
  }
}

/** The interpreter selected in the Python extension, if it is installed and has one. */
export async function pythonExtensionCandidate(
  resource?: vscode.Uri,
): Promise<PythonCandidate | undefined> {
  const api = await pythonApi();
  const source = "the interpreter selected in the Python extension";
  const environments = api?.environments;
  const active = environments?.getActiveEnvironmentPath?.(resource);
  if (active?.path) {
    const resolved = await environments?.resolveEnvironment?.(active).catch(() => undefined);
    const command = resolved?.executable?.uri?.fsPath || active.path;
    return { command, args: [], source };
  }
  const details = api?.settings?.getExecutionDetails?.(resource)?.execCommand;
  if (details !== undefined && details.length > 0 && details[0]) {
    return { command: details[0], args: details.slice(1), source };
  }
  return undefined;
}

/** Restarts when the Python extension's selected interpreter changes (nothing without it). */
export async function onPythonChange(listener: () => void): Promise<vscode.Disposable | undefined> {
  const event = (await pythonApi())?.environments?.onDidChangeActiveEnvironmentPath;
  return event ? event(() => listener()) : undefined;
}

/** The candidate's version. It runs while the server starts with the first candidate
 * (`startWithFirstPython`) and takes the same processor, so it skips `site` (`-S`, some 30 ms
 * on a developer's Python; Python 2 takes `-S` too and is told it is too old). */
function probe(candidate: PythonCandidate): Promise<Probe> {
  return new Promise((resolve) => {
    execFile(
      candidate.command,
      [...candidate.args, "-S", "-c", VERSION_PROBE],
      { timeout: 15000, windowsHide: true },
      (error, stdout) => {
        const version = parseVersion(String(stdout));
        if (version !== undefined) {
          resolve({ version });
        } else {
          const code = (error as NodeJS.ErrnoException | null)?.code;
          resolve({ error: code === "ENOENT" ? "not found" : error ? error.message : "no version printed" });
        }
      },
    );
  });
}

/** Whether choosing the Python waits for the Python extension to activate (installed, not yet active). */
export function pythonExtensionActivating(): boolean {
  const extension = vscode.extensions.getExtension(PYTHON_EXTENSION);
  return extension !== undefined && !extension.isActive;
}

/**
 * `python -I -S <extension>/server/launch.py serve`, started with the first Python that is new
 * enough: the first candidate's server is started while its version is probed
 * (`startWithFirstPython`). With `probeFirst` false, the first candidate's server is started
 * and not probed: the probe (a second Python, through a pyenv shim a dozen processes) took
 * the processors the server's start needs. The bundle holds all the server needs: `-S` skips
 * `site`, whose `.pth` files (editable installs, certifi, ...) took some 30 ms of the start
 * on a developer's Python, for nothing the server uses.
 */
export async function startBundledServer<T extends Started>(
  extensionPath: string,
  resource: vscode.Uri | undefined,
  log: (line: string) => void,
  start: (server: ServerCommand) => T,
  probeFirst = true,
): Promise<{ server: ServerCommand; started: T; probed: boolean } | { message: string }> {
  const first = await pythonExtensionCandidate(resource);
  const candidates = [...(first ? [first] : []), ...pathCandidates(process.platform)];
  const launcher = vscode.Uri.joinPath(vscode.Uri.file(extensionPath), "server", "launch.py").fsPath;
  const command = (python: PythonCandidate): ServerCommand => ({
    command: python.command,
    args: [...python.args, "-I", "-S", launcher, "serve"],
  });
  if (!probeFirst) {
    // Unprobed: the server answering `initialize` shows its Python can run it (launch.py
    // exits at once on an older one); if it does not, the caller starts again probing.
    const python = candidates[0];
    log(`Starting the bundled mfls with ${python.source}: ${[python.command, ...python.args].join(" ")}`);
    return { server: command(python), started: start(command(python)), probed: false };
  }
  const choice = await startWithFirstPython(candidates, probe, (python) => start(command(python)));
  for (const line of choice.tried) {
    log(`Python not used: ${line}`);
  }
  if (choice.python === undefined || choice.started === undefined) {
    return { message: noPythonMessage(choice.tried, process.platform) };
  }
  const python = choice.python;
  log(`Starting the bundled mfls with ${python.source}: ${[python.command, ...python.args].join(" ")}`);
  return { server: command(python), started: choice.started, probed: true };
}
