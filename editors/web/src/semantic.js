// Semantic highlighting: the server's tokens (markers, interactions and their parts) as
// marks with the classes `cm-mfls-<token type>` and `cm-mfls-<modifier>`, asked again after each change is sent.
import { RangeSetBuilder } from "@codemirror/state";
import { Decoration, ViewPlugin } from "@codemirror/view";
import { LSPPlugin } from "@codemirror/lsp-client";

const marks = new Map();
function markOf(type, modifiers) {
  const names = [type, ...modifiers].map((name) => `cm-mfls-${name}`).join(" ");
  if (!marks.has(names)) marks.set(names, Decoration.mark({ class: names }));
  return marks.get(names);
}

function decorations(plugin, data, { tokenTypes, tokenModifiers }) {
  const doc = plugin.view.state.doc;
  const builder = new RangeSetBuilder();
  let line = 0;
  let character = 0;
  for (let i = 0; i + 4 < data.length + 1; i += 5) {
    line += data[i];
    character = data[i] ? data[i + 1] : character + data[i + 1];
    if (line >= doc.lines) break;
    const from = plugin.fromPosition({ line, character });
    const to = Math.min(from + data[i + 2], doc.line(line + 1).to);
    const type = tokenTypes[data[i + 3]];
    const modifiers = tokenModifiers.filter((_, bit) => data[i + 4] & (1 << bit));
    if (type && to > from) builder.add(from, to, markOf(type, modifiers));
  }
  return builder.finish();
}

const highlighter = ViewPlugin.fromClass(class {
  constructor(view) {
    this.view = view;
    this.decorations = Decoration.none;
    this.asked = 0;
    this.ask();
  }

  update(update) {
    if (update.docChanged) {
      this.decorations = this.decorations.map(update.changes);
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.ask(), 250);
    }
  }

  async ask() {
    const plugin = LSPPlugin.get(this.view);
    if (!plugin) return;
    const asked = ++this.asked;
    await plugin.client.initializing;
    const legend = plugin.client.serverCapabilities?.semanticTokensProvider?.legend;
    if (!legend) return;
    plugin.client.sync();
    const doc = this.view.state.doc;
    try {
      const result = await plugin.client.request("textDocument/semanticTokens/full", { textDocument: { uri: plugin.uri } });
      if (asked !== this.asked || this.view.state.doc !== doc || !result) return;
      this.decorations = decorations(plugin, result.data, legend);
      this.view.dispatch({});
    } catch (error) {
      console.warn("semantic tokens:", error);
    }
  }

  destroy() {
    clearTimeout(this.timer);
  }
}, { decorations: (plugin) => plugin.decorations });

export function semanticHighlighting() {
  return {
    clientCapabilities: { textDocument: { semanticTokens: { requests: { full: true }, tokenTypes: [], tokenModifiers: [], formats: ["relative"] } } },
    editorExtension: highlighter,
  };
}
