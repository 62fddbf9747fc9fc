#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh machine. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
python3 -m pip install --quiet -e '.[test]'
# The real-editor tests: Neovim, Emacs, Chromium, code-server and the VS Code extension.
bash scripts/setup-editors.sh
