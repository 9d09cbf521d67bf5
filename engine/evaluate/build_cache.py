"""The build cache's size: capped, the least recently used entries removed first.

Each candidate's build is kept under its content hash (build.py) so that a later evaluation of the same source
skips the compiler; nothing used to remove them, and a candidate can make its library large (a 480 MB `.so`
stayed in the cache after hiera exited, issue 42). After each batch of builds the cache is brought under its cap
(HIERA_BUILD_CACHE_BYTES, default 2 GiB): whole entries, least recently used first (a cache hit touches its
library), never one of the batch just built, which its evaluation is about to load.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import time
from collections.abc import Iterable
from pathlib import Path

ENV_CAP = "HIERA_BUILD_CACHE_BYTES"
DEFAULT_CAP = 2 << 30


def cap_bytes() -> int:
    """The cache's cap: HIERA_BUILD_CACHE_BYTES when it is a whole number of bytes, else DEFAULT_CAP."""
    raw = os.environ.get(ENV_CAP, "").strip()
    return int(raw) if raw.isdigit() else DEFAULT_CAP


def _size(entry: Path) -> int:
    total = 0
    for root, _, files in os.walk(entry):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


def _last_used(entry: Path) -> float:
    """When the entry was last built or loaded: its newest file's modification time."""
    times = [entry.stat().st_mtime]
    for p in entry.iterdir():
        with contextlib.suppress(OSError):
            times.append(p.stat().st_mtime)
    return max(times)


def touch(library: Path) -> None:
    """Mark an entry used (a cache hit), so that pruning keeps it over older ones."""
    with contextlib.suppress(OSError):
        os.utime(library)


def _being_built(entry: Path) -> bool:
    """Whether a build holds the entry's lock (build.py _building): a compile quiet for longer than IN_USE_S."""
    lock = entry / ".build.lock"
    if not lock.exists():
        return False
    try:
        with open(lock, "a") as f:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            fcntl.flock(f, fcntl.LOCK_UN)
        return False
    except OSError:
        return True


IN_USE_S = 60.0  # an entry used this recently may be in use by another process (a build, a profile): kept


def prune(cache_dir: Path, keep: Iterable[str] = (), cap: int | None = None, in_use_s: float = IN_USE_S
          ) -> list[str]:
    """Remove least recently used entries of `cache_dir` until it holds at most `cap` bytes (cap_bytes()), never
    an entry named in `keep` nor one used in the last `in_use_s` seconds. Returns the names removed."""
    cap = cap_bytes() if cap is None else cap
    now = time.time()
    keep = set(keep)
    try:
        entries = [p for p in cache_dir.iterdir() if p.is_dir() and not p.is_symlink()]
    except OSError:
        return []
    sized = []
    for e in entries:
        with contextlib.suppress(OSError):
            sized.append((_last_used(e), e, _size(e)))
    total = sum(s for _, _, s in sized)
    removed = []
    for _, entry, size in sorted(sized, key=lambda t: t[0]):
        if total <= cap:
            break
        if entry.name in keep or _last_used(entry) > now - in_use_s or _being_built(entry):
            continue
        shutil.rmtree(entry, ignore_errors=True)
        if not entry.exists():
            total -= size
            removed.append(entry.name)
    return removed
