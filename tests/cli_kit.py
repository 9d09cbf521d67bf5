"""Running `hiera` as a user does, for the CLI tests: in its own process, and where a test needs it, with folders
mounted read-only.

Permission bits do not make a folder read-only for root (the tests run as root in CI), so a read-only folder is
a read-only bind mount: the command runs under bubblewrap with the rest of the file system as it is.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BWRAP = shutil.which("bwrap")


def env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200", **extra}


def flat(text: str) -> str:
    """Text with its line wrapping (and table borders) undone, for matching a sentence."""
    return " ".join(text.replace("│", " ").split())


@functools.lru_cache(maxsize=1)
def read_only_mounts_work() -> bool:
    if BWRAP is None:
        return False
    try:
        p = subprocess.run([BWRAP, "--dev-bind", "/", "/", "--ro-bind", "/tmp", "/tmp", "--", "true"],
                           capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return p.returncode == 0


needs_read_only = pytest.mark.skipif(
    not read_only_mounts_work(), reason="needs bubblewrap to mount a folder read-only (scripts/install_test_deps.sh)")


def hiera(args: list[str], cwd: Path, read_only: tuple[Path, ...] = (), timeout: float = 300.0
          ) -> subprocess.CompletedProcess[str]:
    """`hiera ARGS` in cwd; the folders in read_only are read-only for it (and everything under them)."""
    cmd = [sys.executable, "-m", "engine.cli", *args]
    if read_only:
        binds = [x for p in read_only for x in ("--ro-bind", str(p), str(p))]
        cmd = [BWRAP, "--dev-bind", "/", "/", *binds, "--", *cmd]  # type: ignore[list-item]
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env())
