// The course map and the course key table: "MarkdownFlow: Show Course Map" opens the map of
// the active lesson's course in a web view beside the editor and keeps it current as you type;
// "MarkdownFlow: Show Course Keys" shows the key table as a Markdown preview. Both ask the
// server (workspace/executeCommand mfls.courseMap / mfls.courseKeys with the document's URI).
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";

const MAP_COMMAND = "mfls.courseMap";
const KEYS_COMMAND = "mfls.courseKeys";
const KEYS_SCHEME = "mfls-course-keys";
const REFRESH_MS = 400;

interface MapAnswer {
  title: string;
  html: string;
}

interface KeysAnswer {
  course: string;
  markdown: string;
}

interface OpenMessage {
  open?: string;
  line?: number;
  column?: number;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function isLesson(document: vscode.TextDocument): boolean {
  return (
    document.uri.scheme === "file" &&
    (document.languageId === "markdown" || document.languageId === "markdownflow" ||
      document.fileName.endsWith("mfcourse.toml"))
  );
}

function activeLesson(): vscode.Uri | undefined {
  const document = vscode.window.activeTextEditor?.document;
  return document !== undefined && isLesson(document) ? document.uri : undefined;
}

async function ask<T>(client: LanguageClient | undefined, command: string, uri: vscode.Uri): Promise<T> {
  if (client === undefined) {
    throw new Error("the MarkdownFlow server is not running");
  }
  return client.sendRequest<T>("workspace/executeCommand", {
    command,
    arguments: [client.code2ProtocolConverter.asUri(uri)],
  });
}

export function registerCourseMap(
  context: vscode.ExtensionContext,
  currentClient: () => LanguageClient | undefined,
): void {
  let panel: vscode.WebviewPanel | undefined;
  let lesson: vscode.Uri | undefined;
  let timer: NodeJS.Timeout | undefined;
  let rendered = "";
  const keyTables = new Map<string, string>();
  const keysChanged = new vscode.EventEmitter<vscode.Uri>();

  async function render(): Promise<void> {
    if (panel === undefined || lesson === undefined) {
      return;
    }
    const answer = await ask<MapAnswer>(currentClient(), MAP_COMMAND, lesson);
    if (panel === undefined) {
      return;
    }
    panel.title = answer.title;
    if (answer.html !== rendered) {
      rendered = answer.html;
      panel.webview.html = answer.html;
    }
  }

  function refresh(): void {
    if (panel === undefined) {
      return;
    }
    if (timer !== undefined) {
      clearTimeout(timer);
    }
    timer = setTimeout(() => {
      timer = undefined;
      void renderOrWait();
    }, REFRESH_MS);
  }

  async function openAt(message: OpenMessage): Promise<void> {
    if (typeof message.open !== "string") {
      return;
    }
    const line = Math.max(0, (message.line ?? 1) - 1);
    const column = Math.max(0, (message.column ?? 1) - 1);
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(message.open));
    const at = new vscode.Position(line, column);
    await vscode.window.showTextDocument(document, {
      viewColumn: vscode.ViewColumn.One,
      selection: new vscode.Range(at, at),
    });
  }

  async function showMap(target?: vscode.Uri): Promise<void> {
    const uri = target instanceof vscode.Uri ? target : activeLesson();
    if (uri === undefined) {
      void vscode.window.showInformationMessage("Open a lesson of a MarkdownFlow course to see its map.");
      return;
    }
    lesson = uri;
    if (panel === undefined) {
      panel = vscode.window.createWebviewPanel(
        "mfls.courseMap",
        "Course map",
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: true, localResourceRoots: [], retainContextWhenHidden: true },
      );
      panel.onDidDispose(() => {
        panel = undefined;
        rendered = "";
      });
      panel.webview.onDidReceiveMessage((message: OpenMessage) => void openAt(message));
    } else {
      panel.reveal(vscode.ViewColumn.Beside, true);
    }
    await renderOrWait();
  }

  // Until the server answers (it may still be starting), the panel says so and asks again.
  async function renderOrWait(): Promise<void> {
    try {
      await render();
    } catch (error) {
      if (panel !== undefined && rendered === "") {
        const reason = error instanceof Error ? error.message : String(error);
        panel.webview.html = `<!DOCTYPE html><meta charset="utf-8"><p>${escapeHtml(reason)}; trying again…</p>`;
        setTimeout(() => void renderOrWait(), 1000);
      }
    }
  }

  async function showKeys(target?: vscode.Uri): Promise<void> {
    const uri = target instanceof vscode.Uri ? target : activeLesson();
    if (uri === undefined) {
      void vscode.window.showInformationMessage("Open a lesson of a MarkdownFlow course to see its keys.");
      return;
    }
    let answer: KeysAnswer;
    try {
      answer = await ask<KeysAnswer>(currentClient(), KEYS_COMMAND, uri);
    } catch (error) {
      void vscode.window.showErrorMessage(`Course keys: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const table = vscode.Uri.from({
      scheme: KEYS_SCHEME,
      path: `/${answer.course.replace(/[\\/]/g, "-")} keys.md`,
      query: uri.toString(),
    });
    keyTables.set(table.toString(), answer.markdown);
    keysChanged.fire(table);
    await vscode.commands.executeCommand("markdown.showPreviewToSide", table);
  }

  context.subscriptions.push(
    keysChanged,
    vscode.workspace.registerTextDocumentContentProvider(KEYS_SCHEME, {
      onDidChange: keysChanged.event,
      provideTextDocumentContent: (uri) => keyTables.get(uri.toString()) ?? "",
    }),
    vscode.commands.registerCommand("mfls.showCourseMap", showMap),
    vscode.commands.registerCommand("mfls.showCourseKeys", showKeys),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (isLesson(event.document) && event.contentChanges.length > 0) {
        refresh();
      }
    }),
    vscode.languages.onDidChangeDiagnostics(() => refresh()),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (panel !== undefined && editor !== undefined && isLesson(editor.document)) {
        lesson = editor.document.uri;
        refresh();
      }
    }),
    { dispose: () => timer !== undefined && clearTimeout(timer) },
  );
}
