// The extension's entry: it starts the server's process first, then loads the rest of the
// extension (the language client library takes a tenth of a second or more to load) while
// the server's Python starts.
import * as vscode from "vscode";
import { launchServer } from "./launch";

let loaded: typeof import("./extension") | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const activatedAt = Date.now();
  const output = vscode.window.createOutputChannel("MarkdownFlow");
  const first = launchServer(context.extensionPath, (line) => output.appendLine(line));
  await first.started;
  loaded = await import("./extension");
  loaded.activate(context, output, { launch: first.launch, activatedAt });
}

export function deactivate(): Thenable<void> | undefined {
  return loaded?.deactivate();
}
