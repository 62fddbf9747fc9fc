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

// Problems this many lines apart or closer are asked for their fixes in one request.
const NEAR_LINES = 3;

// The quick fixes of `items`, diagnostics of `file` at `version`: a list of actions per item.
// Problems close together are asked in one request over the lines they span (a request per
// problem kept the worker busy past the next keystroke; one over problems far apart would
// have the server make fixes for every marker between them). An action goes to the
// problems the server names as fixed, or, naming none (padding a marker), to those its edit
// touches. A fix's edit is placed in the text of that version: once the server has a newer
// one, it does nothing (the newer version's diagnostics bring their own fixes).
async function fixesFor(client, file, version, items) {
  const byItem = items.map(() => []);
  await Promise.all(nearby(items).map(async (group) => {
    const asked = group.map((i) => items[i]);
    const found = await client.request("textDocument/codeAction", {
      textDocument: { uri: file.uri },
      range: { start: asked[0].range.start, end: asked.map((item) => item.range.end).reduce((a, b) => (before(a, b) ? b : a)) },
      context: { diagnostics: asked, only: ["quickfix"] },
    });
    for (const action of found ?? []) {
      if (!action.edit) continue;
      const fix = {
        name: action.title,
        apply: () => {
          if (version == null || file.version === version) applyWorkspaceEdit(client, action.edit, "input.fix");
        },
      };
      const named = action.diagnostics ?? [];
      const fixed = named.length
        ? group.filter((i) => named.some((item) => sameDiagnostic(item, items[i])))
        : group.filter((i) => touches(action.edit, file.uri, items[i].range));
      for (const i of fixed) byItem[i].push(fix);
    }
  }));
  return byItem;
}

// The indices of `items` in groups of problems close together, each group in text order.
function nearby(items) {
  const order = items.map((_, i) => i).sort((a, b) => compare(items[a].range.start, items[b].range.start));
  const groups = [];
  let last = -Infinity;
  for (const i of order) {
    const { start, end } = items[i].range;
    if (start.line > last + NEAR_LINES) groups.push([]);
    groups.at(-1).push(i);
    last = Math.max(last, end.line);
  }
  return groups;
}

function compare(a, b) {
  return a.line - b.line || a.character - b.character;
}

function before(a, b) {
  return compare(a, b) < 0;
}

function sameDiagnostic(a, b) {
  return compare(a.range.start, b.range.start) === 0 && compare(a.range.end, b.range.end) === 0 &&
    (a.code ?? null) === (b.code ?? null) && a.message === b.message;
}

// Whether an edit of `edit` in `uri` touches `range` (an insertion at its end counts).
function touches(edit, uri, range) {
  const inFile = [
    ...(edit.changes?.[uri] ?? []),
    ...(edit.documentChanges ?? []).filter((change) => change.textDocument?.uri === uri).flatMap((change) => change.edits),
  ];
  return inFile.some((text) => !before(range.end, text.range.start) && !before(text.range.end, range.start));
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
