// The host and target of mfcourse.toml, read and written in place: only the value of a
// top-level `host = "..."` / `target = "..."` line changes (its comment and every other line
// stay); a key the file lacks is added before the file's first key or table (after its
// opening comments): a line there is top-level whatever follows, even a value that runs
// over several lines. The choices are mfls's
// own (mfls/workspace/hosts.py HOST_NAMES, mfls/workspace/config.py TARGETS), written into
// the bundle by the build.
/* global __MFLS_HOSTS__, __MFLS_TARGETS__ */
export const HOSTS = __MFLS_HOSTS__;
export const TARGETS = __MFLS_TARGETS__;

// A table header: `[name]` or `[[name]]` (bare or dotted keys), a comment after it; not a
// line of an array that runs over several lines (`["a", "b"],`).
const HEADER = /^[ \t]*\[\[?[ \t]*[A-Za-z0-9_-]+(?:[ \t]*\.[ \t]*[A-Za-z0-9_-]+)*[ \t]*\]\]?[ \t]*(?:#.*)?$/m;

// The lines before the first table header: where top-level keys live.
function topLevel(text) {
  const header = HEADER.exec(text);
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
  const first = /^[ \t]*[^\s#]/m.exec(text);
  if (first) return { from: first.index, to: first.index, insert: `${line}\n` };
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return { from: text.length, to: text.length, insert: `${text && !text.endsWith("\n") ? eol : ""}${line}${eol}` };
}
