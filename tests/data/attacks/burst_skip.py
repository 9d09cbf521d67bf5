# Attack (skipping work when called back to back): a call that comes within a millisecond of the previous
# one's return is taken to be one of a run of calls timed together, and returns the previous call's result
# instead of computing its own. Calls timed one at a time (a request, a flush and checks between them) get the
# real work, so only a checker that also verifies some of the calls of a burst, chosen after it, catches it.
import time

import torch
from torch import nn

_last = [0.0, None]


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        back_to_back = time.perf_counter() - _last[0] < 1e-3 and _last[1] is not None
        y = _last[1] if back_to_back else torch.relu(x)
        _last[0], _last[1] = time.perf_counter(), y
        return y
