import * as vscode from "vscode";
import {
  CloseAction,
  DidChangeConfigurationNotification,
  type ErrorHandler,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  State,
} from "vscode-languageclient/node";
import { registerCourseMap } from "./courseMap";
import { CourseStatus, showMenu } from "./courseStatus";
import { IndexingStatus } from "./indexingStatus";
import { configuredServer, ended, type Launch, launchServer, type ServerProcess, spawnServer } from "./launch";
import { onPythonChange } from "./python";
import { registerShowReferences } from "./references";
import { describeCommand, type ServerCommand, startFailureMessage } from "./serverCommand";

/** The server the entry started before loading this module, and when it was activated. */
export interface FirstLaunch {
  launch: Promise<Launch>;
  activatedAt: number;
}

const CLIENT_ID = "mfls";

let client: LanguageClient | undefined;
let serverProcess: ServerProcess | undefined; // the running client's
let firstLaunch: FirstLaunch | undefined; // until the first start takes it
let status: IndexingStatus | undefined;
let output: vscode.OutputChannel | undefined;
let traceOutput: vscode.OutputChannel | undefined;
let courseStatus: CourseStatus | undefined;
let extensionPath = "";
let lifecycle: Promise<void> = Promise.resolve();

export function activate(
  context: vscode.ExtensionContext,
  channel: vscode.OutputChannel,
  first: FirstLaunch,
): void {
  extensionPath = context.extensionPath;
  output = channel;
  firstLaunch = first;
  traceOutput = vscode.window.createOutputChannel("MarkdownFlow Trace");
  status = new IndexingStatus();
  context.subscriptions.push(output, traceOutput, status);
  registerCourseStatus(context, status, output);
  restartOnPythonChange(context);

  context.subscriptions.push(registerShowReferences(() => client));
  context.subscriptions.push(
    vscode.commands.registerCommand("mfls.restartServer", () => queue(restart)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("mfls.server")) {
        void queue(restart);
      } else if (event.affectsConfiguration("mfls")) {
        notifyConfigurationChange();
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

/** Tells a running server that the `mfls` settings changed; it reads them again itself. */
function notifyConfigurationChange(): void {
  if (client?.state === State.Running) {
    void client
      .sendNotification(DidChangeConfigurationNotification.type, { settings: null })
      .catch((error) => output?.appendLine(`Telling mfls about the settings failed: ${String(error)}`));
  }
}

/** The status item's course and the menu it opens (`mfls.showMenu`). */
function registerCourseStatus(
  context: vscode.ExtensionContext,
  indexing: IndexingStatus,
  channel: vscode.OutputChannel,
): void {
  const course = new CourseStatus(indexing, () => client, (line) => channel.appendLine(line));
  courseStatus = course;
  context.subscriptions.push(
    course,
    vscode.commands.registerCommand("mfls.showMenu", () => showMenu(course.course, channel)),
    vscode.commands.registerCommand("mfls.showLog", () => channel.show(true)),
  );
}

/** With the bundled server, a new interpreter selected in the Python extension restarts it. */
function restartOnPythonChange(context: vscode.ExtensionContext): void {
  void onPythonChange(() => {
    if (configuredServer() === undefined) {
      void queue(restart);
    }
  }).then((listener) => listener && context.subscriptions.push(listener));
}

async function start(): Promise<void> {
  if (client !== undefined || status === undefined || output === undefined) {
    return;
  }
  status.setState("starting");
  const first = firstLaunch;
  firstLaunch = undefined;
  const began = first?.activatedAt ?? Date.now();
  const launch = await (first?.launch ?? launchServer(extensionPath, (line) => output?.appendLine(line)).launch);
  await startClient(launch, began, first !== undefined);
}

/** The language client on the server `launch` started. A bundled server started unprobed
 * that does not come up (a Python too old, or not one) is followed by a start that probes
 * the Pythons (`launchServer`), whose failure is reported. */
async function startClient(launch: Launch, began: number, firstStart: boolean): Promise<void> {
  if (status === undefined || output === undefined) {
    return;
  }
  if (!launch.ok) {
    if (launch.server === undefined) {
      reportNoPython(launch.reason);
    } else {
      await reportStartFailure(launch.server, launch.reason, launch.bundled);
    }
    return;
  }
  const { started, chosenAt } = launch;
  const server = started.server;
  // The process started already; a restart by the client (after a crash) starts another.
  let unused: ServerProcess | undefined = started;
  const serverOptions: ServerOptions = async () => {
    const running = unused ?? spawnServer(server);
    unused = undefined;
    serverProcess = running;
    running.process.on("exit", (code, signal) =>
      output?.appendLine(`Server process exited with ${code !== null ? `code ${code}` : `signal ${signal}`}.`),
    );
    return running.process;
  };
  // Until it runs, an unprobed server that closes is not restarted: another Python is sought.
  let defaults: ErrorHandler | undefined;
  const errorHandler: ErrorHandler = {
    error: (error, message, count) => (defaults as ErrorHandler).error(error, message, count),
    closed: () =>
      client === candidate || launch.probed
        ? (defaults as ErrorHandler).closed()
        : { action: CloseAction.DoNotRestart, handled: true },
  };
  const clientOptions: LanguageClientOptions = {
    errorHandler,
    documentSelector: [
      { scheme: "file", language: "markdown" },
      { scheme: "untitled", language: "markdown" },
      { scheme: "file", language: "markdownflow" },
      { scheme: "untitled", language: "markdownflow" },
      // The course file: its problems in the Problems panel at their lines (open or not),
      // its globs linked to their files.
      { scheme: "file", language: "mfcourse-toml" },
    ],
    initializationOptions: { locale: vscode.workspace.getConfiguration("mfls").get("locale") },
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher(
        "**/{mfcourse.toml,*.md,*.markdown,*.mdflow}",
      ),
    },
    outputChannel: output,
    traceOutputChannel: traceOutput,
  };
  const candidate = new LanguageClient(CLIENT_ID, "MarkdownFlow", serverOptions, clientOptions);
  defaults = candidate.createDefaultErrorHandler();
  candidate.registerFeature(status.feature(candidate));
  candidate.onDidChangeState(({ newState }) => {
    if (client === candidate && newState === State.Stopped) {
      status?.setState("stopped");
      courseStatus?.clear();
    }
  });
  try {
    await candidate.start();
  } catch (error) {
    await candidate.dispose().catch(() => undefined);
    unused?.stop();
    endServerProcess();
    const reason = error instanceof Error ? error.message : String(error);
    if (!launch.probed) {
      output.appendLine(
        `The bundled server did not start with ${describeCommand(server)} (${reason}); looking for a Python that can run it.`,
      );
      const again = await launchServer(extensionPath, (line) => output?.appendLine(line), true).launch;
      await startClient(again, began, firstStart);
      return;
    }
    await reportStartFailure(server, reason, launch.bundled);
    return;
  }
  client = candidate;
  // The start-up's waits, for anyone asking why the first problems took their time.
  const startedAt = serverProcess?.startedAt ?? started.startedAt;
  const confirmed = launch.probed ? `its Python confirmed at ${chosenAt - began} ms, ` : "";
  output.appendLine(
    `mfls is running: the server started ${startedAt - began} ms after ${firstStart ? "activation" : "the restart began"}, ` +
      `${confirmed}initialized ${Date.now() - startedAt} ms after its start`,
  );
  status.setState("ready");
  courseStatus?.refresh();
}

/** Ends the running client's server process if it outlives the client's stop by 2 s (the
 * language client does so only for the processes it starts itself). */
function endServerProcess(): void {
  const running = serverProcess;
  serverProcess = undefined;
  if (running !== undefined && !ended(running.process)) {
    setTimeout(() => {
      if (!ended(running.process)) {
        running.stop();
      }
    }, 2000);
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running === undefined) {
    void firstLaunch?.launch.then((launch) => launch.ok && launch.started.stop());
    firstLaunch = undefined;
    return;
  }
  try {
    await running.stop(5000);
  } catch (error) {
    output?.appendLine(`Stopping mfls failed: ${String(error)}`);
  }
  endServerProcess();
  courseStatus?.clear();
  status?.setState("stopped");
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

function reportNoPython(message: string): void {
  status?.setState("failed");
  output?.appendLine(message);
  const select = "Select Interpreter";
  const retry = "Restart Server";
  const choices = vscode.extensions.getExtension("ms-python.python") ? [select, retry] : [retry];
  void vscode.window.showErrorMessage(message, ...choices).then((choice) => {
    if (choice === select) {
      void vscode.commands.executeCommand("python.setInterpreter");
    } else if (choice === retry) {
      void vscode.commands.executeCommand("mfls.restartServer");
    }
  });
}

async function reportStartFailure(server: ServerCommand, reason: string, bundled = false): Promise<void> {
  status?.setState("failed");
  const message = startFailureMessage(server, reason, bundled);
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
