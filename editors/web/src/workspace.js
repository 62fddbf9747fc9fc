// The client's view of the course: every file of the course is open, each in its own
// editor, so an edit the server sends (a rename, a quick fix) reaches every lesson, and a
// jump to another lesson shows that lesson's editor.
import { LSPPlugin, Workspace } from "@codemirror/lsp-client";

class CourseFile {
  constructor(uri, languageId, version, doc, view) {
    this.uri = uri;
    this.languageId = languageId;
    this.version = version;
    this.doc = doc;
    this.view = view;
  }

  getView() {
    return this.view;
  }
}

export class CourseWorkspace extends Workspace {
  constructor(client, show) {
    super(client);
    this.show = show; // path -> the EditorView, made visible
    this.files = [];
    this.versions = new Map();
  }

  nextVersion(uri) {
    const version = (this.versions.get(uri) ?? -1) + 1;
    this.versions.set(uri, version);
    return version;
  }

  syncFiles() {
    const result = [];
    for (const file of this.files) {
      const plugin = LSPPlugin.get(file.view);
      if (!plugin || plugin.unsyncedChanges.empty) continue;
      result.push({ changes: plugin.unsyncedChanges, file, prevDoc: file.doc });
      file.doc = file.view.state.doc;
      file.version = this.nextVersion(file.uri);
      plugin.clear();
    }
    return result;
  }

  openFile(uri, languageId, view) {
    const file = new CourseFile(uri, languageId, this.nextVersion(uri), view.state.doc, view);
    this.files.push(file);
    this.client.didOpen(file);
  }

  closeFile(uri) {
    if (!this.getFile(uri)) return;
    this.files = this.files.filter((file) => file.uri !== uri);
    this.client.didClose(uri);
  }

  // A jump to another lesson (go to binding, a reference) shows its editor and gives it the focus.
  displayFile(uri) {
    const file = this.getFile(uri);
    if (!file) return Promise.resolve(null);
    const view = this.show(file.view.dom.dataset.path);
    view.focus();
    return Promise.resolve(view);
  }
}

// A WorkspaceEdit (`changes` or `documentChanges` of text edits) applied to the open files.
export function applyWorkspaceEdit(client, edit, userEvent) {
  const byUri = new Map(Object.entries(edit.changes ?? {}));
  for (const change of edit.documentChanges ?? []) {
    if (change.textDocument && change.edits) byUri.set(change.textDocument.uri, change.edits);
  }
  for (const [uri, edits] of byUri) {
    const file = client.workspace.getFile(uri);
    const view = file && file.getView();
    const plugin = view && LSPPlugin.get(view);
    if (!plugin || !edits.length) continue;
    view.dispatch({
      changes: edits.map((e) => ({
        from: plugin.unsyncedChanges.mapPos(plugin.fromPosition(e.range.start, plugin.syncedDoc)),
        to: plugin.unsyncedChanges.mapPos(plugin.fromPosition(e.range.end, plugin.syncedDoc)),
        insert: e.newText,
      })),
      userEvent,
    });
  }
}
