// Builds the playground into dist/: the page and its worker bundled by esbuild, Pyodide's
// runtime files copied from node_modules, and the wheels Python needs (mfls's pure build,
// made from this checkout, and the pure wheels of its dependencies from the package index)
// with a manifest the worker reads. Nothing in the built site is fetched from elsewhere.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { precompile, precompileStdlib } from "./precompile.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, "..");
const repo = path.resolve(web, "../..");
const out = path.join(web, "dist");
const python = process.env.PYTHON || "python3";
// Pyodide 314's Python; the wheels are chosen for it.
const PYODIDE_PYTHON = "3.14";
// (Pyodide's loader, pyodide.mjs, is bundled into the worker: one request less before the
// worker starts; the Node modules it imports only under Node stay external.)
const PYODIDE_FILES = ["pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json"];
// Parts of the standard library a language server in a worker never imports (the REPL,
// debuggers, test runners, mail, HTTP, XML-RPC and WSGI, archives it does not read) and
// the codecs of legacy encodings (mfls reads UTF-8): left out of the page's copy, for the
// first-load budget of 15 MB. The browser test exercises every feature on what is left.
const STDLIB_LEFT_OUT = [
  "_pyrepl/", "unittest/", "wsgiref/", "xmlrpc/", "email/", "http/", "pdb.py", "doctest.py", "pydoc.py",
  "imaplib.py", "smtplib.py", "ftplib.py", "mailbox.py", "pickletools.py", "tarfile.py",
];
const CODECS_KEPT = [
  "__init__", "aliases", "ascii", "charmap", "cp1252", "idna", "latin_1", "punycode", "raw_unicode_escape",
  "unicode_escape", "utf_16", "utf_16_be", "utf_16_le", "utf_32", "utf_32_be", "utf_32_le", "utf_8", "utf_8_sig",
];

// The page's Content-Security-Policy: nothing but its own origin, no inline script but the
// course map's (the map is shown in a srcdoc frame, which keeps the page's policy), allowed
// by its hash. Styles may be inline: CodeMirror sets them on its elements.
function contentSecurityPolicy() {
  const hash = execFileSync(python, ["-c", [
    "import base64, hashlib, re",
    "from mfls.features.course_map_html import _PAGE",
    "scripts = re.findall(r'<script>(.*?)</script>', _PAGE, re.S)",
    "assert len(scripts) == 1, scripts",
    "print(base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode())",
  ].join("\n")], { cwd: repo, encoding: "utf8" }).trim();
  return [
    "default-src 'self'",
    `script-src 'self' 'wasm-unsafe-eval' 'sha256-${hash}'`,
    "worker-src 'self'",
    "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

// The hosts and targets mfls knows (mfls/workspace/hosts.py, config.py), for the page's
// host and target picker.
function courseChoices() {
  const text = execFileSync(python, ["-c", [
    "import json",
    "from mfls.workspace.config import TARGETS",
    "from mfls.workspace.hosts import HOST_NAMES",
    "print(json.dumps({'hosts': list(HOST_NAMES), 'targets': list(TARGETS)}))",
  ].join("\n")], { cwd: repo, encoding: "utf8" });
  return JSON.parse(text);
}

// The runtime's version: a hash of every file the worker caches (Pyodide's and the wheels'
// archive). The worker keeps them in a cache of this name and drops the caches of others.
function runtimeBuild(files) {
  const hash = crypto.createHash("sha256");
  for (const file of files) hash.update(path.relative(out, file)).update(fs.readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

function log(message) {
  console.log(`[build] ${message}`);
}

function dependencies() {
  const text = execFileSync(python, ["-c", [
    "import tomllib, json",
    "print(json.dumps(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))",
  ].join("\n")], { cwd: repo, encoding: "utf8" });
  return JSON.parse(text);
}

function wheels(target) {
  fs.mkdirSync(target, { recursive: true });
  log("pip download: the pure wheels of mfls's dependencies");
  execFileSync(python, [
    "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--only-binary=:all:",
    "--python-version", PYODIDE_PYTHON, "--implementation", "py", "--abi", "none", "--platform", "any",
    "--dest", target, ...dependencies(),
  ], { stdio: "inherit" });
  log("the pure wheel of mfls from this checkout");
  const staging = fs.mkdtempSync(path.join(web, ".wheel-"));
  try {
    try {
      execFileSync(python, ["-m", "build", "--wheel", "--outdir", staging, repo], {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, MFLS_BUILD: "pure" },
      });
    } catch (error) {
      process.stderr.write(`${error.stdout}\n${error.stderr}\n`);
      throw error;
    }
    for (const name of fs.readdirSync(staging)) fs.copyFileSync(path.join(staging, name), path.join(target, name));
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  const names = fs.readdirSync(target).filter((name) => name.endsWith(".whl")).sort();
  const impure = names.filter((name) => !name.endsWith("-py3-none-any.whl"));
  if (impure.length) throw new Error(`not pure wheels: ${impure.join(", ")}`);
  if (!names.some((name) => name.startsWith("mfls-"))) throw new Error("no mfls wheel was built");
  return names;
}

async function main() {
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(path.join(out, "pyodide"), { recursive: true });
  for (const name of PYODIDE_FILES) {
    fs.copyFileSync(path.join(web, "node_modules/pyodide", name), path.join(out, "pyodide", name));
  }
  // The page loads none of Pyodide's own packages: its lock file keeps only its header.
  const lock = JSON.parse(fs.readFileSync(path.join(web, "node_modules/pyodide/pyodide-lock.json"), "utf8"));
  fs.writeFileSync(path.join(out, "pyodide", "pyodide-lock.json"), JSON.stringify({ ...lock, packages: {} }));
  log("esbuild: the page, the worker, and the learner page's parser");
  const bundle = { absWorkingDir: web, bundle: true, format: "esm", minify: true, sourcemap: false, target: "es2022", outdir: out, logLevel: "warning" };
  // learner_page.js (remark-flow) is a bundle of its own, imported by the page only when the
  // Learner view opens: nothing of it is loaded on the way to the first problems.
  // course_zip.js (fflate) too: imported when a zip is downloaded.
  const choices = courseChoices();
  await esbuild.build({
    ...bundle,
    entryPoints: { boot: "src/boot.js", main: "src/main.js", worker: "src/worker.js" },
    external: ["node:*", "ws", "./learner_page.js", "./course_zip.js"],
    define: { __MFLS_HOSTS__: JSON.stringify(choices.hosts), __MFLS_TARGETS__: JSON.stringify(choices.targets) },
  });
  await esbuild.build({ ...bundle, entryPoints: { learner_page: "src/learner_page.js", course_zip: "src/course_zip.js" } });
  fs.copyFileSync(path.join(web, "src", "style.css"), path.join(out, "style.css"));
  const page = fs.readFileSync(path.join(web, "src", "index.html"), "utf8");
  fs.writeFileSync(path.join(out, "index.html"), page.replace("@@CSP@@", contentSecurityPolicy()));
  const wheelDir = path.join(out, "wheels");
  const names = wheels(wheelDir);
  log(`wheels: ${names.join(", ")}`);
  const archive = "site-packages.zip";
  const modules = await precompile(wheelDir, names, path.join(wheelDir, archive));
  log(`${archive}: ${modules} modules byte-compiled by Pyodide's Python`);
  const stdlib = await precompileStdlib(
    path.join(wheelDir, archive),
    path.join(out, "pyodide", "python_stdlib.zip"),
    STDLIB_LEFT_OUT,
    CODECS_KEPT,
  );
  log(`python_stdlib.zip: ${stdlib} modules byte-compiled, ${STDLIB_LEFT_OUT.join(" ")} and the codecs but ${CODECS_KEPT.join(" ")} left out`);
  const cached = [...PYODIDE_FILES, "python_stdlib.zip"].map((name) => path.join(out, "pyodide", name));
  const build = runtimeBuild([...cached, path.join(wheelDir, archive)]);
  const manifest = { python: PYODIDE_PYTHON, wheels: names, archive, build };
  fs.writeFileSync(path.join(wheelDir, "manifest.json"), JSON.stringify(manifest, null, 1) + "\n");
  let total = 0;
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else total += fs.statSync(full).size;
    }
  };
  walk(out);
  log(`dist/: ${(total / 1e6).toFixed(2)} MB`);
}

await main();
