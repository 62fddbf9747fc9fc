// The wheels, installed into Pyodide (in Node, at build time) and byte-compiled by its
// Python, then packed as one zip of bytecode (packages keep their __init__.py) the worker unpacks into site-packages: the
// page's Python then imports bytecode instead of compiling some 200 modules on every
// first load (about half of mfls's start-up in the worker), in fewer bytes than the
// sources. The .pyc files are unchecked (`UNCHECKED_HASH`): the archive never changes.
import fs from "node:fs";
import path from "node:path";
import { loadPyodide } from "pyodide";

export async function precompile(wheelDir, names, target) {
  const pyodide = await loadPyodide();
  const site = "/build/site-packages";
  pyodide.FS.mkdirTree(site);
  for (const name of names) {
    pyodide.unpackArchive(new Uint8Array(fs.readFileSync(path.join(wheelDir, name))), "wheel", { extractDir: site });
  }
  pyodide.globals.set("site", site);
  const count = pyodide.runPython(`
import compileall, os, py_compile, zipfile
if not compileall.compile_dir(site, quiet=1, legacy=True, optimize=2, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH):
    raise SystemExit("byte-compiling the wheels failed")
count = 0
with zipfile.ZipFile("/build/site-packages.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
    for folder, dirs, files in os.walk(site):
        dirs.sort()
        for name in sorted(files):
            # Pyodide's import system finds a package by its __init__.py, not by a
            # sourceless __init__.pyc: those stay source (and their .pyc is left out).
            if name.endswith(".pyi") or (name.endswith(".py") and name != "__init__.py"):
                continue
            if name == "__init__.pyc":
                continue
            full = os.path.join(folder, name)
            archive.write(full, os.path.relpath(full, site))
            count += name.endswith(".pyc")
count
`);
  fs.writeFileSync(target, pyodide.FS.readFile("/build/site-packages.zip"));
  return count;
}
