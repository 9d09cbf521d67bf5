# Attack (number of processes): on its first call, starts 4000 processes (each a `sleep 60` named for
# the token) and leaves them running. A trusted evaluator limits a candidate's processes (a pids cgroup
# or RLIMIT_NPROC in its own user namespace) well below 4000 (honest code may need a couple of thousand
# threads: an emulated CUDA block runs 1024): spawning fails, the outcome is runtime_error, and whatever it
# did start ends with the evaluation.
import os

import torch
from torch import nn

TOKEN = "@TOKEN@"
COUNT = 4000


def _spawn_many():
    started = 0
    try:
        for _ in range(COUNT):
            os.posix_spawn("/bin/sleep", [f"hiera-attack-fork-{TOKEN}", "60"], {})
            started += 1
    except OSError as e:
        raise RuntimeError(f"started only {started} of {COUNT} processes: {e}") from None
    return started


_ONCE = []  # once per process: the evaluator builds a new ModelNew for every trial


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        if not _ONCE:
            _ONCE.append(_spawn_many())
        return torch.relu(x)
