# Cheat: reaches into the process that runs it and replaces the clock the runner times calls with, so every
# timed call reports a tiny time. The checker's own clock around the same calls must expose it.
import sys

import torch
from torch import nn

_main = sys.modules.get("__main__")
if _main is not None and hasattr(_main, "_perf_counter"):
    _ticks = [0.0]

    def _fake() -> float:
        _ticks[0] += 1e-9
        return _ticks[0]

    _main._perf_counter = _fake


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        y = x
        for _ in range(30):  # real work the fake clock hides
            y = torch.relu(y + 0.0)
        return y
