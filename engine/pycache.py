"""Compiled bytecode for every Python process of a run, kept in one cache that hiera's trusted processes write.

A run starts a dozen Python processes that import torch (the CLI's probe, the checker, each profiled program,
each ModelNew candidate's runner). Where the installation carries no `.pyc` files and its folders are not
writable, as on the lent H200 machines, every one of them compiles torch's sources again: 3-5 s a process,
20 s of a 150 s run there (py-spy, docs/bench/h200-trace-2026-12-01). With a cache prefix the first process
compiles and the others load.

Who writes it: only trusted processes (the CLI and what it starts outside the sandbox). Sandboxed processes
see it read-only (engine/evaluate/sandbox.py binds it so), so no candidate can plant bytecode that a later
candidate, or the checker, would load.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from engine.cache_home import hiera_cache

ENV = "PYTHONPYCACHEPREFIX"


def cache_dir() -> Path:
    """hiera's cache folder for bytecode: $HIERA_PYCACHE, else $XDG_CACHE_HOME/hiera/pycache (~/.cache/...)."""
    explicit = os.environ.get("HIERA_PYCACHE")
    if explicit:
        return Path(explicit)
    return hiera_cache() / "pycache"


def enable() -> Path | None:
    """Use the cache in this process and in every process it starts (through the environment).

    Returns the folder, or None where it cannot be made (a read-only home): then nothing changes."""
    prefix = Path(os.environ[ENV]) if os.environ.get(ENV) else cache_dir()
    try:
        prefix.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    if not os.access(prefix, os.W_OK):
        return None
    sys.pycache_prefix = str(prefix)
    sys.dont_write_bytecode = False
    os.environ[ENV] = str(prefix)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    return prefix


def active() -> str | None:
    """The prefix this process uses, for passing on read-only to a sandboxed process (None: no cache)."""
    prefix = getattr(sys, "pycache_prefix", None)
    return prefix if prefix and os.path.isdir(prefix) else None


def readable_parts(dirs: list[str]) -> list[str]:
    """The parts of the cache a sandboxed process may read: the bytecode of the folders it already sees (the
    Python installation), never of anything else a trusted process imported (the user's own modules).
    Made now if missing, so that a bind of them sees what trusted processes write later."""
    prefix = active()
    if prefix is None:
        return []
    parts = []
    for d in dirs:
        part = os.path.join(prefix, os.path.abspath(d).lstrip(os.sep))
        try:
            os.makedirs(part, exist_ok=True)
        except OSError:
            continue
        parts.append(part)
    return parts
