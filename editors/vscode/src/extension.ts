import * as vscode from "vscode";
import {
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  State,
} from "vscode-languageclient/node";
import { registerCourseMap } from "./courseMap";
import { IndexingStatus } from "./indexingStatus";
import { registerShowReferences } from "./references";
import { locateExecutable, type ServerCommand, startFailureMessage } from "./serverCommand";

const CLIENT_ID = "mfls";

let client: LanguageClient | undefined;
let status: IndexingStatus | undefined;
let output: vscode.OutputChannel | undefined;
let traceOutput: vscode.OutputChannel | undefined;
let lifecycle: Promise<void> = Promise.resolve();

export function activate(context: vscode.ExtensionContext): void {
  output = vscode.window.createOutputChannel("MarkdownFlow");
  traceOutput = vscode.window.createOutputChannel("MarkdownFlow Trace");
  status = new IndexingStatus();
  context.subscriptions.push(output, traceOutput, status);

  context.subscriptions.push(registerShowReferences(() => client));
  context.subscriptions.push(
    vscode.commands.registerCommand("mfls.restartServer", () => queue(restart)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("mfls.server")) {
        void queue(restart);
      }
    }),
  );
  registerCourseMap(context, () => client);
  void queue(start);
}

export function deactivate(): Thenable<void> {
  return queue(stop);
}

/** Start, stop and restart run one after another, never interleaved. */
function queue(step: () => Promise<void>): Promise<void> {
  lifecycle = lifecycle.then(step, step);
  return lifecycle;
}

function serverCommand(): ServerCommand {
  const config = vscode.workspace.getConfiguration("mfls.server");
  const command = (config.get<string>("path") ?? "").trim() || "mfls";
  const args = config.get<string[]>("args") ?? [];
  return { command, args };
}

async function start(): Promise<void> {
  if (client !== undefined || status === undefined || output === undefined) {
    return;
  }
  const server = serverCommand();
  status.setState("starting");
  if (locateExecutable(server.command) === undefined) {
    const where = server.command.includes("/") ? "no executable file there" : "not found on PATH";
    await reportStartFailure(server, where);
    return;
  }
  // No `transport`: TransportKind.stdio would append `--stdio`, which mfls does not take.
  const serverOptions: ServerOptions = { command: server.command, args: server.args };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "markdown" },
      { scheme: "untitled", language: "markdown" },
      { scheme: "file", language: "markdownflow" },
      { scheme: "untitled", language: "markdownflow" },
      // The course file: its lessons/references globs link to their files.
      { scheme: "file", pattern: "**/mfcourse.toml" },
    ],
    initializationOptions: { locale: vscode.workspace.getConfiguration("mfls").get("locale") },
    synchronize: {
      configurationSection: "mfls",
      fileEvents: vscode.workspace.createFileSystemWatcher(
        "**/{mfcourse.toml,*.md,*.markdown,*.mdflow}",
      ),
    },
    outputChannel: output,
    traceOutputChannel: traceOutput,
  };
  const candidate = new LanguageClient(CLIENT_ID, "MarkdownFlow", serverOptions, clientOptions);
  candidate.registerFeature(status.feature(candidate));
  candidate.onDidChangeState(({ newState }) => {
    if (client === candidate && newState === State.Stopped) {
      status?.setState("stopped");
    }
  });
  try {
    await candidate.start();
  } catch (error) {
    await candidate.dispose().catch(() => undefined);
    await reportStartFailure(server, error instanceof Error ? error.message : String(error));
    return;
  }
  client = candidate;
  status.setState("ready");
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running === undefined) {
    return;
  }
  try {
    await running.stop(5000);
  } catch (error) {
    output?.appendLine(`Stopping mfls failed: ${String(error)}`);
  }
  status?.setState("stopped");
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

async function reportStartFailure(server: ServerCommand, reason: string): Promise<void> {
  status?.setState("failed");
  const message = startFailureMessage(server, reason);
  output?.appendLine(message);
  const openSettings = "Open Settings";
  const retry = "Restart Server";
  // Not awaited: the start-up queue must not wait for someone to click.
  void vscode.window.showErrorMessage(message, openSettings, retry).then((choice) => {
    if (choice === openSettings) {
      void vscode.commands.executeCommand("workbench.action.openSettings", "mfls.server");
    } else if (choice === retry) {
      void vscode.commands.executeCommand("mfls.restartServer");
    }
  });
}
