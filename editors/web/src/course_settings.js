// The host and target of mfcourse.toml, read and written in place: only the value of a
// top-level `host = "..."` / `target = "..."` line changes (its comment and every other line
// stay); a key the file lacks is added after the last top-level key. The choices are mfls's
// own (mfls/workspace/hosts.py HOST_NAMES, mfls/workspace/config.py TARGETS), written into
// the bundle by the build.
/* global __MFLS_HOSTS__, __MFLS_TARGETS__ */
export const HOSTS = __MFLS_HOSTS__;
export const TARGETS = __MFLS_TARGETS__;

// The lines before the first table header ([section]): where top-level keys live.
function topLevel(text) {
  const header = /^[ \t]*\[/m.exec(text);
  return header ? header.index : text.length;
}

function keyLine(key) {
  return new RegExp(`^([ \\t]*${key}[ \\t]*=[ \\t]*)("[^"\\n]*"|'[^'\\n]*'|[^#\\n]*?)([ \\t]*(#.*)?)$`, "m");
}

// The key's value as the file has it (a string), or null when the file has none.
export function settingOf(text, key) {
  const match = keyLine(key).exec(text.slice(0, topLevel(text)));
  if (!match) return null;
  const value = match[2].trim();
  return /^["'].*["']$/.test(value) ? value.slice(1, -1) : value;
}

// The change ({from, to, insert}) that gives the key this value, or removes its line when
// `value` is null; null when nothing changes.
export function settingChange(text, key, value) {
  const end = topLevel(text);
  const match = keyLine(key).exec(text.slice(0, end));
  if (match) {
    if (value === null) {
      const after = text.indexOf("\n", match.index);
      return { from: match.index, to: after < 0 ? text.length : after + 1, insert: "" };
    }
    const from = match.index + match[1].length;
    const insert = JSON.stringify(value);
    return match[2] === insert ? null : { from, to: from + match[2].length, insert };
  }
  if (value === null) return null;
  const line = `${key} = ${JSON.stringify(value)}`;
  let at = 0;
  for (const found of text.slice(0, end).matchAll(/^[ \t]*[A-Za-z0-9_-]+[ \t]*=.*$/gm)) at = found.index + found[0].length;
  if (at === 0) return { from: 0, to: 0, insert: `${line}\n` };
  return { from: at, to: at, insert: `\n${line}` };
}
