import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import type * as proto from "vscode-languageclient";

/** The command of mfls's code lenses: (document URI, position, locations) in LSP terms. */
export const SHOW_REFERENCES = "mfls.showReferences";

/**
 * `mfls.showReferences` as VS Code's references peek: the lens's LSP arguments converted
 * with the running client's converter, then `editor.action.showReferences`.
 */
export function registerShowReferences(client: () => LanguageClient | undefined): vscode.Disposable {
  return vscode.commands.registerCommand(
    SHOW_REFERENCES,
    async (uri: string, position: proto.Position, locations: proto.Location[]) => {
      const running = client();
      if (running === undefined) {
        return;
      }
      const convert = running.protocol2CodeConverter;
      await vscode.commands.executeCommand(
        "editor.action.showReferences",
        convert.asUri(uri),
        convert.asPosition(position),
        locations.map((location) => convert.asLocation(location)),
      );
    },
  );
}
