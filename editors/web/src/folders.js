// A course folder read from disk, as {relative path: bytes}: through the File System Access
// API (Chromium's showDirectoryPicker) or the files of an <input webkitdirectory>.
// Folders of tools (.git, node_modules) are skipped; mfls's own (.mfls, with an unpacked
// export's manifest) is kept.
const SKIPPED = new Set([".git", "node_modules", "__pycache__"]);
const MOST_BYTES = 64 * 1024 * 1024;

function kept(parts) {
  return !parts.some((part) => SKIPPED.has(part) || part === "" || part === "." || part === "..");
}

export async function folderFiles(handle) {
  const files = {};
  let total = 0;
  async function walk(folder, prefix) {
    for await (const entry of folder.values()) {
      if (!kept([entry.name])) continue;
      const path = `${prefix}${entry.name}`;
      if (entry.kind === "directory") {
        await walk(entry, `${path}/`);
      } else {
        const file = await entry.getFile();
        if (total + file.size > MOST_BYTES) continue;
        total += file.size;
        files[path] = new Uint8Array(await file.arrayBuffer());
      }
    }
  }
  await walk(handle, "");
  return files;
}

// The files of an <input webkitdirectory>: their paths start with the folder's name.
export async function pickedFiles(list) {
  if (!list.length) return null;
  const files = {};
  let total = 0;
  let name = null;
  for (const file of list) {
    const [top, ...parts] = file.webkitRelativePath.split("/");
    name ??= top;
    if (!parts.length || !kept(parts) || total + file.size > MOST_BYTES) continue;
    total += file.size;
    files[parts.join("/")] = new Uint8Array(await file.arrayBuffer());
  }
  return { name, files };
}
