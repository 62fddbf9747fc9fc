import * as vscode from "vscode";
import {
  type BaseLanguageClient,
  type FeatureState,
  type StaticFeature,
  WorkDoneProgress,
  type WorkDoneProgressBegin,
  WorkDoneProgressCreateRequest,
  type WorkDoneProgressReport,
} from "vscode-languageclient";
import { type CourseInfo, courseLabel, courseText, courseTooltip } from "./courseSummary";

type ServerState = "starting" | "ready" | "stopped" | "failed";

/**
 * A status bar item for the server, which shows the server's work-done progress
 * (course indexing) while it runs.
 */
/** How long the last figures of a finished progress stay in the status item. */
const PROGRESS_LINGER_MS = 1500;

export class IndexingStatus implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly active = new Map<string, string>();
  private state: ServerState = "starting";
  private course: CourseInfo | undefined;

  constructor() {
    this.item = vscode.window.createStatusBarItem("mfls.status", vscode.StatusBarAlignment.Left, 10);
    this.item.name = "MarkdownFlow";
    this.item.command = "mfls.showMenu";
    this.render();
    this.item.show();
  }

  setState(state: ServerState): void {
    this.state = state;
    if (state !== "ready") {
      this.active.clear();
    }
    this.render();
  }

  /** The course of the active document, shown while the server runs (undefined: none). */
  setCourse(course: CourseInfo | undefined): void {
    this.course = course;
    this.render();
  }

  /** A feature that takes over window/workDoneProgress/create for this client. */
  feature(client: BaseLanguageClient): StaticFeature {
    return new ProgressTracking(client, this);
  }

  begin(token: string, value: WorkDoneProgressBegin): void {
    this.active.set(token, describe(value.title, value.message, value.percentage));
    this.render();
  }

  report(token: string, title: string, value: WorkDoneProgressReport): void {
    this.active.set(token, describe(title, value.message, value.percentage));
    this.render();
  }

  end(token: string): void {
    // A small course is indexed in milliseconds: its last figures would flash by unseen
    // (the status bar drops updates that follow each other closely), so they stay a moment.
    const last = this.active.get(token);
    setTimeout(() => {
      if (this.active.get(token) === last) {
        this.active.delete(token);
        this.render();
      }
    }, PROGRESS_LINGER_MS);
  }

  dispose(): void {
    this.item.dispose();
  }

  private render(): void {
    const running = [...this.active.values()];
    if (running.length > 0) {
      this.item.text = `$(sync~spin) MarkdownFlow: ${running[running.length - 1]}`;
      this.item.tooltip = running.join("\n");
      this.item.accessibilityInformation = { label: `MarkdownFlow: ${running.join(", ")}` };
      this.item.backgroundColor = undefined;
      return;
    }
    const labels: Record<ServerState, [string, string, string]> = {
      starting: ["$(sync~spin) MarkdownFlow", "starting", "The mfls language server is starting"],
      ready: ["$(check) MarkdownFlow", "running", "mfls is running. Click for the MarkdownFlow menu."],
      stopped: ["$(circle-slash) MarkdownFlow", "stopped", "mfls is stopped. Click for the MarkdownFlow menu."],
      failed: ["$(error) MarkdownFlow", "could not start", "mfls could not start. Click for the MarkdownFlow menu."],
    };
    const [text, state, tooltip] = labels[this.state];
    if (this.state === "ready" && this.course !== undefined) {
      const course = this.course;
      this.item.text = `${course.errors > 0 ? "$(error)" : "$(check)"} MarkdownFlow: ${courseText(course)}`;
      this.item.tooltip = courseTooltip(course);
      this.item.accessibilityInformation = { label: `MarkdownFlow: ${state}, ${courseLabel(course)}` };
      this.item.backgroundColor = undefined;
      return;
    }
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.accessibilityInformation = { label: `MarkdownFlow: ${state}` };
    this.item.backgroundColor =
      this.state === "failed" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
  }
}

function describe(title: string, message?: string, percentage?: number): string {
  const parts = [title];
  if (message) {
    parts.push(message);
  }
  if (percentage !== undefined) {
    parts.push(`${Math.round(percentage)}%`);
  }
  return parts.join(" ");
}

class ProgressTracking implements StaticFeature {
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly client: BaseLanguageClient,
    private readonly status: IndexingStatus,
  ) {}

  fillClientCapabilities(): void {
    // The built-in progress feature already announces window.workDoneProgress.
  }

  getState(): FeatureState {
    return { kind: "static" };
  }

  initialize(): void {
    // Registered after the built-in progress feature, so this handler replaces its one.
    this.subscriptions.push(
      this.client.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
        const key = String(token);
        let title = "working";
        const listener = this.client.onProgress(WorkDoneProgress.type, token, (value) => {
          switch (value.kind) {
            case "begin":
              title = value.title;
              this.status.begin(key, value);
              break;
            case "report":
              this.status.report(key, title, value);
              break;
            case "end":
              this.status.end(key);
              listener.dispose();
              break;
          }
        });
        this.subscriptions.push(listener);
      }),
    );
  }

  clear(): void {
    for (const subscription of this.subscriptions.splice(0)) {
      subscription.dispose();
    }
  }
}
