"""Start an engine job so that it dies with the server: `python -m hiera_ls.launch ARGV...`.

The server kills its jobs' process groups on shutdown, exit, stdin EOF and SIGTERM. If the server itself
is SIGKILLed (an editor giving up on it) none of that runs; on Linux this launcher asks the kernel to
SIGKILL the job when its parent dies (PR_SET_PDEATHSIG survives exec), then execs the engine in place.
It imports nothing heavy, so it adds a few milliseconds to a job's start.
"""

from __future__ import annotations

import os
import signal
import sys


def _die_with_parent() -> None:
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the server died before prctl took effect
        os._exit(137)


def main() -> None:
    argv = sys.argv[1:]
    if not argv:
        sys.stderr.write("usage: python -m hiera_ls.launch PROGRAM [ARGS...]\n")
        sys.exit(2)
    _die_with_parent()
    os.execvp(argv[0], argv)


if __name__ == "__main__":
    main()
