#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh machine. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
# mfls itself, editable; setup.py compiles the scanner with mypyc where a C compiler
# works and builds pure Python otherwise (MFLS_BUILD=pure or compiled forces either).
python3 -m pip install --quiet -e '.[test,ws]'
python3 -m mfls --version
# The release artifacts, built once, as a maintainer builds them (docs/releasing.md): an
# sdist and a pure wheel in dist/, which tests/cli/test_cli_release.py installs with pipx.
rm -f dist/mfls-*.whl dist/mfls-*.tar.gz
if ! build_log=$(MFLS_BUILD=pure python3 -m build --outdir dist . 2>&1); then
  printf '%s\n' "$build_log" >&2
  exit 1
fi
# markdown-flow 0.3.1 (the line AI-Shifu pins) in its own environment: it cannot sit
# beside 0.4.2. tests/hosts runs it through a subprocess.
if [ ! -x .venv-mf03/bin/python ]; then
  python3 -m venv .venv-mf03
fi
.venv-mf03/bin/python -m pip install --quiet --no-deps 'markdown-flow==0.3.1'
# markdown-flow 0.3.4 (what AI-Shifu's production runs, docs/guide/courses-and-hosts.md).
if [ ! -x .venv-mf034/bin/python ]; then python3 -m venv .venv-mf034; fi
.venv-mf034/bin/python -m pip install --quiet --no-deps 'markdown-flow==0.3.4'
# The real-editor tests: Neovim, Emacs, Chromium, code-server and the VS Code extension.
bash scripts/setup-editors.sh
# The handler tests under Pyodide (tests/pyodide): the pure wheels of pytest and of mfls's
# dependencies for Pyodide's Python 3.14, unpacked into it by tests/pyodide/run_pytest.mjs
# (Pyodide itself is editors/web's npm package, installed above).
rm -rf .pyodide-wheels
python3 -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
  --python-version 3.14 --implementation py --abi none --platform any --dest .pyodide-wheels \
  -r <(python3 tests/pyodide/requirements.py)
# The learner page's parser (tests/hosts/test_learner_page.py): remark-flow 0.1.6 and
# 1.0.0-alpha.7 side by side, npm ci only when the lock file changed.
(
  cd tests/hosts/remark_flow
  if [ ! -f node_modules/.package-lock.json ] \
    || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
  fi
)
