#!/usr/bin/env bash
# One-time set-up: .venv with hiera, its dependencies and the test tools. Safe to run again.
#
# torch: a machine whose system Python already has a CUDA build of torch keeps it (the venv sees the
# system site-packages); a machine with an NVIDIA driver but no torch gets PyPI's default (CUDA) build;
# a machine without a GPU gets the CPU build, pinned (torch==2.13.0) so CI never downloads CUDA wheels.
# Override with HIERA_TORCH_SPEC (e.g. HIERA_TORCH_SPEC="torch==2.11.0").
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}

if [ ! -x .venv/bin/python ]; then
  if "$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" 2>/dev/null; then
    echo "setup: reusing the system's CUDA build of torch"
    "$PY" -m venv --system-site-packages .venv
  else
    "$PY" -m venv .venv
  fi
fi

if ! .venv/bin/python -c "import torch" 2>/dev/null; then
  if [ -n "${HIERA_TORCH_SPEC:-}" ]; then
    spec="$HIERA_TORCH_SPEC"
  elif command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    spec="torch"
  else
    spec="torch==2.13.0"
  fi
  echo "setup: installing $spec"
  .venv/bin/python -m pip install -q "$spec"
fi

.venv/bin/python -m pip install -q -e ".[dev]"

# Candidate kernels run in a bubblewrap sandbox (README, "How candidates are judged"). Install it where this
# script can (root with apt); otherwise say so: hiera refuses to evaluate without it unless --no-sandbox.
if ! command -v bwrap >/dev/null 2>&1 && [ -z "${HIERA_BWRAP:-}" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing bubblewrap (the sandbox for candidate code)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null 2>&1 || \
      { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends bubblewrap >/dev/null 2>&1; } || true
  fi
  command -v bwrap >/dev/null 2>&1 || echo "setup: bubblewrap (bwrap) is not installed: install it (sudo apt install" \
    "bubblewrap) or set HIERA_BWRAP; without it hiera evaluates candidates only with --no-sandbox"
fi
echo "setup: done ($(.venv/bin/python -c 'import torch; print("torch", torch.__version__, "cuda" if torch.cuda.is_available() else "cpu")'))"
