# Attack (daemon outliving the evaluation): on its first call, double-forks with setsid (a new session:
# out of the worker's process group, reparented to init), ignores SIGTERM/SIGHUP, and execs a shell
# that sleeps, then writes a canary and lingers. A trusted evaluator ends every descendant with the
# evaluation (PID namespace / cgroup): no process named for the token and no canary file remain.
import os
import signal

import torch
from torch import nn

TOKEN = "@TOKEN@"
NAME = "hiera-attack-daemon-" + TOKEN + "-double-fork"
SCRIPT = f"trap '' TERM HUP INT; sleep 3; echo pwned > /tmp/hiera-attack-{TOKEN}-daemon-double-fork; i=0; while [ $i -lt 120 ]; do sleep 1; i=$((i+1)); done"


def _daemonize():
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        return
    try:
        os.setsid()
        if os.fork():
            os._exit(0)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
        os.execv("/bin/sh", [NAME, "-c", SCRIPT])
    finally:
        os._exit(0)


_ONCE = []  # once per process: the evaluator builds a new ModelNew for every trial


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        if not _ONCE:
            _ONCE.append(True)
            _daemonize()
        return torch.relu(x)
