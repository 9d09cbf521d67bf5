#!/usr/bin/env bash
# System packages the tests need: bubblewrap (the sandbox every candidate runs in) and headless Neovim
# (tests/test_ls_nvim.py drives hiera-ls from a real third-party LSP client). Idempotent; run as root (CI
# runs as root).
set -euo pipefail
if command -v nvim >/dev/null 2>&1 && command -v bwrap >/dev/null 2>&1; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null
bwrap --version
# Debian 12 ships Neovim 0.7.2: it has vim.lsp.start_client/buf_attach_client (vim.lsp.start came in 0.8);
# tests/nvim/init.lua uses only the 0.7 API so it runs on both.
apt-get install -y -qq --no-install-recommends neovim >/dev/null
nvim --version | head -1
