# Attack (kill(-1)): on its first call, SIGKILLs every process it may signal. A trusted evaluator runs it
# in a PID namespace of its own (and as a user that owns nothing else): the CLI exits normally and every
# other candidate of the batch gets its verdict.
#
# Test-data safety: kill(-1) from an unsandboxed process would kill the whole machine's processes, so
# this fires only where it provably cannot reach beyond a PID namespace: /proc/1 is the test's own
# namespace init (named hiera-attack-pidns), or /proc shows at most 16 processes, or /proc is absent.
import os
import signal
from pathlib import Path

import torch
from torch import nn


def _inside_a_small_pid_namespace():
    proc = Path("/proc")
    try:
        if b"hiera-attack-pidns" in (proc / "1" / "cmdline").read_bytes():
            return True
        return sum(1 for d in proc.iterdir() if d.name.isdigit()) <= 16
    except FileNotFoundError:
        return not (proc / "self").exists()
    except OSError:
        return False


_ONCE = []  # once per process: the evaluator builds a new ModelNew for every trial


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        if not _ONCE:
            _ONCE.append(True)
            if _inside_a_small_pid_namespace():
                try:
                    os.kill(-1, signal.SIGKILL)
                except OSError:
                    pass
        return torch.relu(x)
