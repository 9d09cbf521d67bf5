"""Reading workspace files without trusting them: regular files only, up to a size, never blocking.

A path the server is handed (a URI from the client, a name the disk walk found) may be a FIFO that blocks
`open()` until a writer appears, a device such as /dev/zero that never ends, or a file far too large to
hold. Every read of a file the server did not write itself goes through `read_text`.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

# What the server reads of a module or kernel file. Larger ones are refused with a reason, not truncated:
# a half-read source would index the wrong classes.
MAX_SOURCE_BYTES = 8 << 20


class FileRefused(OSError):
    """A file the server will not read; the message says why in words for the user."""


def read_text(path: Path | str, limit: int = MAX_SOURCE_BYTES) -> str:
    """The text of a regular file of at most `limit` bytes (undecodable bytes replaced).

    Opened non-blocking, so a FIFO or a device is seen for what it is (fstat) before anything waits on it.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        raise FileRefused(f"cannot open {path}: {e.strerror}") from e
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused(f"{path} is not a regular file (a device, FIFO, socket or folder)")
        if st.st_size > limit:
            raise FileRefused(f"{path} is {st.st_size / 1e6:.1f} MB, over the {limit / 1e6:.0f} MB limit")
        os.set_blocking(fd, True)  # a regular file: blocking reads are plain reads
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise FileRefused(f"{path} is over the {limit / 1e6:.0f} MB limit")
    finally:
        os.close(fd)
    return b"".join(chunks).decode("utf-8", errors="replace")


def read_text_or_none(path: Path | str | None, limit: int = MAX_SOURCE_BYTES) -> str | None:
    """read_text, or None when the file is missing or refused (callers that have a fallback)."""
    if not path:
        return None
    try:
        return read_text(path, limit)
    except OSError:
        return None
