"""A child process's stdout and stderr, kept in memory up to a small cap: its first and its last bytes.

A runner's output used to go to a log file on the host's disk, allowed what the runner's file-size limit allowed
(8 GB; a candidate wrote 3 GB of it in the third red-team pass, issue 42). What hiera reads of that output is a
crash's last words, so it keeps the head (where an import error starts) and a rolling tail, and counts what it
dropped in between; nothing reaches the disk. A thread drains the pipe, so a candidate that prints without end
never blocks on a full pipe (an honest one that prints a lot, a compiler's progress, is not made to hang): it
spends its own time printing, and only the cap's worth is kept.
"""

from __future__ import annotations

import contextlib
import os
import threading

HEAD_BYTES = 16 << 10
TAIL_BYTES = 64 << 10


class CappedOutput:
    """A pipe whose write end goes to a child (`fd`, for Popen's stdout and stderr) and whose read end a thread
    drains into a head and a tail of at most head + tail bytes."""

    def __init__(self, head: int = HEAD_BYTES, tail: int = TAIL_BYTES):
        self._head_cap, self._tail_cap = head, tail
        self._head = bytearray()
        self._tail = bytearray()
        self.dropped = 0  # bytes between the head and the tail that were not kept
        self.total = 0
        self._lock = threading.Lock()
        r, self.fd = os.pipe()
        self._thread = threading.Thread(target=self._drain, args=(r,), daemon=True, name="capped-output")
        self._thread.start()

    def child_started(self) -> None:
        """The child holds the write end now: close ours, so that the drain ends when the child's copies do."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def _drain(self, r: int) -> None:
        try:
            while True:
                chunk = os.read(r, 1 << 16)
                if not chunk:
                    return
                with self._lock:
                    self.total += len(chunk)
                    room = self._head_cap - len(self._head)
                    if room > 0:
                        self._head += chunk[:room]
                        chunk = chunk[room:]
                    self._tail += chunk
                    over = len(self._tail) - self._tail_cap
                    if over > 0:
                        del self._tail[:over]
                        self.dropped += over
        except OSError:
            return
        finally:
            with contextlib.suppress(OSError):
                os.close(r)

    def text(self, limit: int | None = None) -> str:
        """What was kept, as text (its last `limit` characters' worth of bytes when given), with the dropped
        middle said."""
        with self._lock:
            if limit is not None:
                data = bytes(self._head + self._tail)[-limit:] if not self.dropped else bytes(self._tail)[-limit:]
                return data.decode(errors="replace").strip()
            gap = f"\n[... {self.dropped} bytes of output not kept ...]\n".encode() if self.dropped else b""
            return bytes(self._head + gap + self._tail).decode(errors="replace").strip()

    def close(self, wait_s: float = 1.0) -> None:
        """Stop keeping output (the child is gone, or is being ended); the drain thread ends with the pipe."""
        self.child_started()
        self._thread.join(wait_s)
