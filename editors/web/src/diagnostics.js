// Pushed diagnostics in the lint gutter and as underlines, each with the server's quick
// fixes as its actions, and changes sent to the server at once rather than after the
// half-second pause of @codemirror/lsp-client's own diagnostics extension.
import { ViewPlugin } from "@codemirror/view";
import { setDiagnostics } from "@codemirror/lint";
import { LSPPlugin } from "@codemirror/lsp-client";
import { applyWorkspaceEdit } from "./workspace.js";

const SEVERITY = { 1: "error", 2: "warning", 3: "info", 4: "hint" };
const MOST_FIXES_ASKED = 30;

const syncAtOnce = ViewPlugin.fromClass(class {
  constructor() {
    this.pending = false;
  }

  update(update) {
    if (!update.docChanged || this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      LSPPlugin.get(update.view)?.client.sync();
    });
  }
});

function lintDiagnostic(plugin, item, actions) {
  return {
    from: plugin.unsyncedChanges.mapPos(plugin.fromPosition(item.range.start, plugin.syncedDoc)),
    to: plugin.unsyncedChanges.mapPos(plugin.fromPosition(item.range.end, plugin.syncedDoc)),
    severity: SEVERITY[item.severity ?? 1],
    source: item.code ? `mfls ${item.code}` : "mfls",
    message: item.message,
    actions,
  };
}

// The quick fixes of `item`, a diagnostic of `file` at `version`. A fix's edit is placed in
// the text of that version: once the server has a newer one, it does nothing (the newer
// version's diagnostics bring their own fixes).
async function fixesFor(client, file, version, item) {
  const found = await client.request("textDocument/codeAction", {
    textDocument: { uri: file.uri },
    range: item.range,
    context: { diagnostics: [item], only: ["quickfix"] },
  });
  return (found ?? [])
    .filter((action) => action.edit)
    .map((action) => ({
      name: action.title,
      apply: () => {
        if (version == null || file.version === version) applyWorkspaceEdit(client, action.edit, "input.fix");
      },
    }));
}

export function diagnosticsWithFixes(onProblems) {
  return {
    clientCapabilities: {
      textDocument: {
        publishDiagnostics: { versionSupport: true },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix", "refactor", "source"] } } },
      },
    },
    notificationHandlers: {
      "textDocument/publishDiagnostics": (client, params) => {
        const file = client.workspace.getFile(params.uri);
        if (!file || (params.version != null && params.version !== file.version)) return false;
        const view = file.getView();
        const plugin = view && LSPPlugin.get(view);
        if (!plugin) return false;
        onProblems(params.uri, params.diagnostics);
        const shown = params.diagnostics.map((item) => lintDiagnostic(plugin, item, []));
        view.dispatch(setDiagnostics(view.state, shown));
        if (!client.serverCapabilities?.codeActionProvider) return true;
        const asked = params.diagnostics.slice(0, MOST_FIXES_ASKED);
        Promise.all(asked.map((item) => fixesFor(client, file, params.version, item))).then((fixes) => {
          if (file.version !== params.version && params.version != null) return;
          if (!fixes.some((list) => list.length)) return;
          const withFixes = params.diagnostics.map((item, i) => lintDiagnostic(plugin, item, fixes[i] ?? []));
          view.dispatch(setDiagnostics(view.state, withFixes));
        }, (error) => console.warn("quick fixes:", error));
        return true;
      },
    },
    editorExtension: syncAtOnce,
  };
}
