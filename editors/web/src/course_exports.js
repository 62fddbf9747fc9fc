// A course in and out as an AI-Shifu export or a folder: an export picked or dropped is
// unpacked by mfls in the worker (or refused with its reason, the course left as it is), a
// folder read from disk replaces the course, and the course is packed back by mfls into
// its export and downloaded.
import { t } from "./i18n.js";
import { say } from "./message_box.js";
import { folderFiles, pickedFiles } from "./folders.js";

export function download(bytes, type, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([bytes], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  say(t("saved", name), "info");
}

export function courseExports(state, worker) {
  async function openExport(file) {
    let bytes;
    try {
      bytes = await file.arrayBuffer();
    } catch (error) {
      say(t("exportRefused", `${file.name}: ${error.message}`), "error"); // a folder dropped
      return;
    }
    worker.post({ openExport: { name: file.name, bytes } }, [bytes]);
  }

  const exportInput = document.getElementById("export-input");
  document.getElementById("open-export").addEventListener("click", () => exportInput.click());
  exportInput.addEventListener("change", () => {
    if (exportInput.files[0]) openExport(exportInput.files[0]);
    exportInput.value = "";
  });
  document.addEventListener("dragover", (event) => {
    if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
  });
  document.addEventListener("drop", (event) => {
    const file = event.dataTransfer?.files[0];
    if (!file) return;
    event.preventDefault();
    openExport(file);
  });

  // A folder from disk: read through the File System Access API where the browser has it,
  // else from the files of an <input webkitdirectory>.
  function openFolder(name, files) {
    if (!Object.keys(files).some((path) => path.endsWith(".md") || path === "mfcourse.toml")) {
      say(t("folderEmpty"), "error");
      return;
    }
    worker.post({ replace: { files, title: name, saveAs: `${name}.json` } });
  }

  const folderInput = document.getElementById("folder-input");
  document.getElementById("open-folder").addEventListener("click", async () => {
    if (!window.showDirectoryPicker) {
      folderInput.click();
      return;
    }
    let folder;
    try {
      folder = await window.showDirectoryPicker({ mode: "read" });
    } catch {
      return; // the picker was closed
    }
    openFolder(folder.name, await folderFiles(folder));
  });
  folderInput.addEventListener("change", async () => {
    const picked = await pickedFiles(folderInput.files);
    folderInput.value = "";
    if (picked) openFolder(picked.name, picked.files);
  });

  // The course packed back (the files edited here written first); a file nothing edited
  // goes back byte for byte.
  document.getElementById("save-export").addEventListener("click", async () => {
    const edited = {};
    for (const path of state.views.keys()) {
      if (state.textOf(path) !== state.loaded.get(path)) edited[path] = state.textOf(path);
    }
    const packed = await worker.pack(edited);
    if (packed.refused !== undefined) {
      say(t("packRefused", packed.refused), "error");
      return;
    }
    download(packed.bytes, "application/json", state.exportName ?? "course.json");
  });
}
