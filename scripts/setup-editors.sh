#!/usr/bin/env bash
# Installs what the real-editor tests (tests/editors) need on a fresh Debian 12 machine, as
# root: Neovim, Emacs with eglot and markdown-mode, chromium, build tools, the Node packages
# of editors/vscode and editors/code-server, the packaged extension (editors/vscode/mfls.vsix)
# and the playground's built site (editors/web/dist: npm packages, and wheels from PyPI).
# Idempotent; root is needed only while Debian packages are missing. Node 20 and npm must
# already be installed. code-server 4.100.3 pins @vscode/ripgrep 1.15.11, whose cache is seeded.
# Packaging the extension lays the server into it (editors/vscode/scripts/bundle_server.py):
# python3 with pip, and the package index, for the pure-Python wheels of mfls's dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '[setup-editors %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
started=$(date +%s)

packages=(
  neovim chromium emacs-nox elpa-eglot elpa-markdown-mode ripgrep
  build-essential pkg-config python3 libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev
)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup-editors.sh: missing Debian packages (${missing[*]}); run it as root" >&2
    exit 1
  fi
  log "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "setup-editors.sh needs $tool (Node 20)" >&2; exit 1; }
done

# Runs a step with its output in a log, shown only when it fails.
quietly() {
  local name=$1
  shift
  local output="${TMPDIR:-/tmp}/setup-editors-$name.log"
  "$@" >"$output" 2>&1 || { tail -60 "$output" >&2; echo "setup-editors.sh: $name failed" >&2; return 1; }
}

# npm ci only when the lock file changed since the last install.
stale() {
  [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]
}

log "editors/vscode: npm ci, npm test, package"
(
  cd editors/vscode
  if stale; then
    quietly vscode-npm-ci npm ci --no-audit --no-fund
  fi
  quietly vscode-npm-test npm test
  quietly vscode-package npm run package
)
test -f editors/vscode/mfls.vsix

# code-server's dependency @vscode/ripgrep downloads rg from GitHub in its postinstall, which
# this network cannot reach: seed its download cache with Debian's rg instead.
log "editors/code-server: npm ci (code-server builds native modules; a few minutes)"
(
  cd editors/code-server
  if stale || ! node_modules/.bin/code-server --version >/dev/null 2>&1; then
    tmp=${TMPDIR:-/tmp}
    cache="$tmp/vscode-ripgrep-cache-1.15.11"
    asset="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
    if [ ! -s "$asset" ]; then
      staging=$(mktemp -d)
      cp "$(command -v rg)" "$staging/rg"
      mkdir -p "$cache"
      tar -czf "$asset" -C "$staging" rg
      rm -rf "$staging"
    fi
    export npm_config_unsafe_perm=true npm_config_yes=true
    quietly code-server-npm-ci npm ci --no-audit --no-fund --foreground-scripts
  fi
  node_modules/.bin/code-server --version | head -1
)

log "editors/web: npm ci, npm run build (the playground: Pyodide, CodeMirror, the wheels)"
(
  cd editors/web
  if stale; then
    quietly web-npm-ci npm ci --no-audit --no-fund
  fi
  quietly web-build npm run build
)
test -f editors/web/dist/index.html

log "done in $(( $(date +%s) - started )) s"
