// The status item's course (asked of the server with `mfls.courseInfo` for the active
// document) and the menu a click on it opens: restart, show the log, open the course file.
import * as vscode from "vscode";
import { ExecuteCommandRequest, type LanguageClient, State } from "vscode-languageclient/node";
import type { CourseInfo } from "./courseSummary";
import type { IndexingStatus } from "./indexingStatus";

const COURSE_INFO = "mfls.courseInfo";
const LANGUAGES = new Set(["markdown", "markdownflow", "mfcourse-toml"]);
const QUIET_MS = 300; // after the last change of editor or diagnostics

export class CourseStatus implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private asked = 0;
  course: CourseInfo | undefined;

  constructor(
    private readonly status: IndexingStatus,
    private readonly client: () => LanguageClient | undefined,
    private readonly log: (line: string) => void,
  ) {
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.languages.onDidChangeDiagnostics(() => this.refresh()),
    );
  }

  /** Ask again, once things have been quiet for a moment. */
  refresh(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.ask();
    }, QUIET_MS);
  }

  private async ask(): Promise<void> {
    const client = this.client();
    const document = vscode.window.activeTextEditor?.document;
    const ticket = ++this.asked;
    if (client === undefined || client.state !== State.Running) {
      return;
    }
    if (document === undefined || !LANGUAGES.has(document.languageId) || document.uri.scheme !== "file") {
      return; // keep the last course: the output panel or a settings editor says nothing about it
    }
    let info: CourseInfo | undefined;
    try {
      info = await client.sendRequest(ExecuteCommandRequest.type, {
        command: COURSE_INFO,
        arguments: [client.code2ProtocolConverter.asUri(document.uri)],
      });
    } catch {
      info = undefined; // a file of no course
    }
    if (ticket !== this.asked || this.client() !== client) {
      return;
    }
    if (info && (info.server !== this.course?.server || info.python !== this.course?.python)) {
      this.log(`mfls runs from ${info.server} with ${info.python}`);
    }
    this.course = info ?? undefined;
    this.status.setCourse(this.course);
  }

  /** The server stopped: its course figures are gone with it. */
  clear(): void {
    this.course = undefined;
    this.status.setCourse(undefined);
  }

  dispose(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
    }
    for (const subscription of this.subscriptions.splice(0)) {
      subscription.dispose();
    }
  }
}

interface MenuItem extends vscode.QuickPickItem {
  run: () => unknown;
}

/** The menu of the status item. */
export async function showMenu(course: CourseInfo | undefined, output: vscode.OutputChannel): Promise<void> {
  const items: MenuItem[] = [
    {
      label: "$(debug-restart) Restart server",
      run: () => vscode.commands.executeCommand("mfls.restartServer"),
    },
    {
      label: "$(output) Show server log",
      detail: course ? `mfls: ${course.server} · Python: ${course.python}` : undefined,
      run: () => output.show(true),
    },
  ];
  if (course?.courseFile) {
    const file = vscode.Uri.parse(course.courseFile);
    items.push({
      label: "$(go-to-file) Open course file",
      description: course.name,
      detail: file.fsPath,
      run: () => openCourseFile(file),
    });
  }
  const chosen = await vscode.window.showQuickPick(items, {
    title: course ? `MarkdownFlow: ${course.name}` : "MarkdownFlow",
    placeHolder: "MarkdownFlow",
  });
  await chosen?.run();
}

async function openCourseFile(file: vscode.Uri): Promise<void> {
  try {
    await vscode.workspace.fs.stat(file);
  } catch {
    void vscode.window.showInformationMessage(
      `MarkdownFlow: this course has no course file yet; create ${file.fsPath} to name it and list its lessons.`,
    );
    return;
  }
  await vscode.window.showTextDocument(file);
}
