# Attack (telling timed calls from verification by counting calls): verification comes first, so the
# first calls get the real relu; from the ninth call of a model on it skips the work (returns
# uninitialized memory). A trusted evaluator checks timed outputs too (all, or an unpredictable sample,
# interleaved with verification): this candidate is not valid-and-fast.
import torch
from torch import nn

_calls = [0]


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        _calls[0] += 1
        return torch.relu(x) if _calls[0] <= 8 else torch.empty_like(x)
