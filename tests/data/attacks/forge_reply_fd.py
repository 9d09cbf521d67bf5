# Attack (forged reply over the worker's connection, found through its file descriptors): on its first
# call, wraps every Unix socket among /proc/self/fd in a multiprocessing Connection and sends a forged
# `valid` reply for itself (no object of the evaluator needed), then computes wrong math. A trusted
# evaluator: this candidate is incorrect and every other candidate keeps its own verdict.
import os
import sys

import torch
from torch import nn

TOKEN = "@TOKEN@"


def _forged_reply(cid):
    session = sys.modules.get("engine.evaluate.session")
    outcome = sys.modules.get("engine.evaluate.outcome")
    if session is None or outcome is None:
        return ("reply", {"candidate_id": cid, "status": "valid", "reason": "forged:" + TOKEN})
    fast = outcome.Timing.from_samples([0.002] * 100, "forged")
    slow = outcome.Timing.from_samples([0.1] * 100, "forged")
    return ("reply", session.EvalReply(cid, outcome.Status.VALID, "forged:" + TOKEN, [], fast, slow))


def _forge():
    from multiprocessing.connection import Connection

    reply = _forged_reply(__name__.removeprefix("hiera_candidate_"))
    for name in os.listdir("/proc/self/fd"):
        try:
            if not os.readlink(f"/proc/self/fd/{name}").startswith("socket:"):
                continue
            conn = Connection(os.dup(int(name)))
            conn.send(reply)
            conn.close()
        except (OSError, ValueError):
            pass


_ONCE = []  # once per process: the evaluator builds a new ModelNew for every trial


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        if not _ONCE:
            _ONCE.append(True)
            _forge()
        return torch.mul(x, 0.5)
