"""The scan worker's child process (`python -m hiera_ls.scanworker`, started by hiera_ls.scanner).

Requests and replies are length-prefixed pickles on stdin/stdout: (function name, arguments) in,
(ok, value or error text) out. Only the functions named in `FUNCTIONS` run; the server is the only writer.
"""

from __future__ import annotations

import os
import pickle
import struct
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from hiera_ls.index import read_disk_state, walk
from hiera_ls.modules import find_kernels, scan_python

FUNCTIONS: dict[str, Callable[..., Any]] = {"scan_python": scan_python, "find_kernels": find_kernels, "walk": walk,
                                            "read_disk_state": read_disk_state}
HEAD = struct.Struct("!Q")


def read_frame(f: BinaryIO) -> bytes | None:
    head = f.read(HEAD.size)
    if len(head) < HEAD.size:
        return None
    (n,) = HEAD.unpack(head)
    body = f.read(n)
    return body if len(body) == n else None


def frame(data: bytes) -> bytes:
    return HEAD.pack(len(data)) + data


def main() -> None:
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything printed by accident goes to stderr, not into the reply channel
    requests = sys.stdin.buffer
    while (body := read_frame(requests)) is not None:
        name, args = pickle.loads(body)
        try:
            answer: tuple[bool, Any] = (True, FUNCTIONS[name](*args))
        except Exception as e:  # the caller falls back or reports it
            answer = (False, f"{type(e).__name__}: {e}")
        replies.write(frame(pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)))
        replies.flush()


if __name__ == "__main__":
    main()
