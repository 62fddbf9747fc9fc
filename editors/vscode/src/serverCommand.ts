import * as fs from "node:fs";
import * as path from "node:path";

export interface ServerCommand {
  command: string;
  args: string[];
}

/** Where an executable name would be found, or undefined when it would not be. */
export function locateExecutable(
  command: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const isExecutable = (candidate: string): boolean => {
    try {
      fs.accessSync(candidate, platform === "win32" ? fs.constants.F_OK : fs.constants.X_OK);
      return fs.statSync(candidate).isFile();
    } catch {
      return false;
    }
  };
  const extensions =
    platform === "win32" ? ["", ...(env.PATHEXT ?? ".EXE;.CMD;.BAT").split(";")] : [""];
  if (command.includes("/") || (platform === "win32" && command.includes("\\"))) {
    return extensions.map((ext) => command + ext).find(isExecutable);
  }
  const dirs = (env.PATH ?? "").split(path.delimiter).filter((dir) => dir.length > 0);
  for (const dir of dirs) {
    const found = extensions.map((ext) => path.join(dir, command + ext)).find(isExecutable);
    if (found !== undefined) {
      return found;
    }
  }
  return undefined;
}

export function describeCommand(server: ServerCommand): string {
  const quote = (part: string): string => (/[\s"']/.test(part) ? JSON.stringify(part) : part);
  return [server.command, ...server.args].map(quote).join(" ");
}

/** The message shown when the server cannot be started: what was tried, and how to fix it. */
export function startFailureMessage(server: ServerCommand, reason: string, bundled = false): string {
  if (bundled) {
    return (
      `MarkdownFlow: the language server bundled with the extension could not start. ` +
      `Tried \`${describeCommand(server)}\`: ${reason}. ` +
      'Run "MarkdownFlow: Show server log" for its output, or set mfls.server.path to an mfls executable.'
    );
  }
  return (
    `MarkdownFlow: the mfls language server could not start. ` +
    `Tried \`${describeCommand(server)}\` (from the settings mfls.server.path and mfls.server.args): ${reason}. ` +
    "Clear mfls.server.path to use the server bundled with the extension, or set it to the full path of " +
    "an mfls executable (`pip install -e .` in a checkout of mfls installs one), " +
    'then run "MarkdownFlow: Restart server".'
  );
}
