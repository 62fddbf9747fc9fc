// Pushed diagnostics in the lint gutter and as underlines, each with the server's quick
// fixes as its actions, and changes sent to the server at once rather than after the
// half-second pause of @codemirror/lsp-client's own diagnostics extension.
import { ViewPlugin } from "@codemirror/view";
import { setDiagnostics } from "@codemirror/lint";
import { LSPPlugin } from "@codemirror/lsp-client";
import { applyWorkspaceEdit } from "./workspace.js";

export const SEVERITY = { 1: "error", 2: "warning", 3: "info", 4: "hint" };
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

// The quick fixes of `items`, diagnostics of `file` at `version`, asked in one request over
// the lines they span: a list of actions per item, matched by the diagnostics the server
// names as fixed. A fix's edit is placed in the text of that version: once the server has
// a newer one, it does nothing (the newer version's diagnostics bring their own fixes).
async function fixesFor(client, file, version, items) {
  if (!items.length) return [];
  const first = items.reduce((a, b) => (before(b.range.start, a.range.start) ? b : a));
  const last = items.reduce((a, b) => (before(a.range.end, b.range.end) ? b : a));
  const found = await client.request("textDocument/codeAction", {
    textDocument: { uri: file.uri },
    range: { start: first.range.start, end: last.range.end },
    context: { diagnostics: items, only: ["quickfix"] },
  });
  const byItem = items.map(() => []);
  const index = new Map(items.map((item, i) => [sameDiagnostic(item), i]));
  for (const action of found ?? []) {
    if (!action.edit) continue;
    const fix = {
      name: action.title,
      apply: () => {
        if (version == null || file.version === version) applyWorkspaceEdit(client, action.edit, "input.fix");
      },
    };
    for (const fixed of action.diagnostics ?? []) {
      const i = index.get(sameDiagnostic(fixed));
      if (i !== undefined) byItem[i].push(fix);
    }
  }
  return byItem;
}

function before(a, b) {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

function sameDiagnostic(item) {
  const { start, end } = item.range;
  return `${start.line}:${start.character}-${end.line}:${end.character} ${item.code ?? ""} ${item.message}`;
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
        fixesFor(client, file, params.version, asked).then((fixes) => {
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
