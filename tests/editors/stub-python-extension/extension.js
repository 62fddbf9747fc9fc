// The part of the Python extension's API that mfls uses, answering the interpreter named in
// the setting stubPython.interpreter (none when empty). Tests only: the real extension
// cannot be installed offline.
"use strict";
const vscode = require("vscode");

function interpreter() {
  return vscode.workspace.getConfiguration("stubPython").get("interpreter") || "";
}

function activate(context) {
  const changed = new vscode.EventEmitter();
  context.subscriptions.push(
    changed,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("stubPython.interpreter")) {
        changed.fire({ id: interpreter(), path: interpreter() });
      }
    }),
  );
  return {
    environments: {
      getActiveEnvironmentPath() {
        const path = interpreter();
        return path ? { id: path, path } : undefined;
      },
      async resolveEnvironment(environment) {
        return { executable: { uri: vscode.Uri.file(environment.path) } };
      },
      onDidChangeActiveEnvironmentPath: changed.event,
    },
    settings: {
      getExecutionDetails() {
        const path = interpreter();
        return { execCommand: path ? [path] : undefined };
      },
    },
  };
}

module.exports = { activate, deactivate() {} };
