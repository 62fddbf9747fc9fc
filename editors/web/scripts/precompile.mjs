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

// Pyodide's standard library holds sources: the modules a start of mfls imports (Pyodide's
// own start-up among them) are replaced by their bytecode, found by starting mfls here
// from the archive made above; `leftOut` (path prefixes) are dropped, and the codecs
// (encodings/*.py) neither imported nor in `codecsKept`.
export async function precompileStdlib(archive, target, leftOut, codecsKept) {
  const pyodide = await loadPyodide();
  pyodide.unpackArchive(new Uint8Array(fs.readFileSync(archive)), "zip", { extractDir: "/lib/python3.14/site-packages" });
  pyodide.FS.mkdirTree("/build");
  pyodide.globals.set("left_out", pyodide.toPy(leftOut));
  pyodide.globals.set("codecs_kept", pyodide.toPy(codecsKept));
  const count = pyodide.runPython(`
import importlib._bootstrap_external as bootstrap, importlib.util, sys, zipfile
from mfls.lsp.stepped_loop import SteppedLoop
from mfls.lsp.sync import SyncServer
SyncServer(loop=SteppedLoop())
STDLIB = "/lib/python314.zip/"
imported = {m.__file__[len(STDLIB):] for m in list(sys.modules.values())
            if (getattr(m, "__file__", None) or "").startswith(STDLIB) and m.__file__.endswith(".py")}
count = 0
with zipfile.ZipFile(STDLIB.rstrip("/")) as source, zipfile.ZipFile("/build/stdlib.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for info in source.infolist():
        name = info.filename
        if any(name == p or (p.endswith("/") and name.startswith(p)) for p in left_out):
            continue
        codec = name.startswith("encodings/") and name.endswith(".py")
        if codec and name not in imported and name[10:-3] not in codecs_kept:
            continue
        data = source.read(info)
        if name in imported:
            code = compile(data, STDLIB + name, "exec", dont_inherit=True, optimize=2)
            data = bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            name += "c"
            count += 1
        out.writestr(zipfile.ZipInfo(name, info.date_time), data, compress_type=zipfile.ZIP_DEFLATED)
count
`);
  fs.writeFileSync(target, pyodide.FS.readFile("/build/stdlib.zip"));
  return count;
}
