// Runs pytest under Pyodide in Node, on this checkout's tests and its pure-Python mfls.
//
//   node tests/pyodide/run_pytest.mjs WHEEL_DIR [PYTEST ARGS...]
//
// Pyodide comes from editors/web/node_modules (its `npm ci`); WHEEL_DIR holds the pure
// wheels of pytest and of mfls's dependencies (scripts/setup-test-env.sh downloads them),
// unpacked into Pyodide's site-packages: nothing is fetched here. The checkout is mounted
// with NODEFS at /checkout and put first on sys.path, so mfls is its source, pure
// (MFLS_PURE=1); a new temporary folder of the machine is mounted for pytest's tmp_path
// and removed afterwards. The exit status is pytest's.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CHECKOUT = "/checkout";
const TEMP = "/pytest-tmp";
const PYODIDE = path.join(repo, "editors/web/node_modules/pyodide/pyodide.mjs");

async function main() {
  const [wheelDir, ...args] = process.argv.slice(2);
  if (!wheelDir) {
    console.error("usage: node tests/pyodide/run_pytest.mjs WHEEL_DIR [PYTEST ARGS...]");
    return 2;
  }
  const { loadPyodide } = await import(pathToFileURL(PYODIDE).href);
  const pyodide = await loadPyodide({ env: { HOME: "/home/pyodide" } });
  const site = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  const wheels = fs.readdirSync(wheelDir).filter((name) => name.endsWith(".whl")).sort();
  for (const name of wheels) {
    if (!name.endsWith("-none-any.whl")) throw new Error(`not a pure wheel: ${name}`);
    pyodide.unpackArchive(new Uint8Array(fs.readFileSync(path.join(wheelDir, name))), "wheel", {
      extractDir: site,
    });
  }
  const { NODEFS } = pyodide.FS.filesystems;
  pyodide.FS.mkdirTree(CHECKOUT);
  pyodide.FS.mount(NODEFS, { root: repo }, CHECKOUT);
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), "mfls-pyodide-"));
  pyodide.FS.mkdirTree(TEMP);
  pyodide.FS.mount(NODEFS, { root: temp }, TEMP);
  try {
    pyodide.globals.set("checkout", CHECKOUT);
    pyodide.globals.set("basetemp", `${TEMP}/pytest`);
    pyodide.globals.set("arguments", pyodide.toPy(args));
    return pyodide.runPython(`
import os, sys
os.chdir(checkout)
sys.path.insert(0, checkout)
# Pyodide's Python writes no bytecode into the checkout (nor pytest its rewritten tests).
sys.dont_write_bytecode = True
os.environ.update(MFLS_PURE="1", MFLS_EXPECT_BUILD="pure", PYTHONDONTWRITEBYTECODE="1")
import pytest
int(pytest.main(["-p", "no:cacheprovider", "--basetemp", basetemp, *arguments]))
`);
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

process.exitCode = await main();
