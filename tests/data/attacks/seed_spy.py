# Attack (telling verification from timing by the construct's seed): every construct records
# torch.initial_seed(); the second call after a construct (which only timing makes: its warm-up) raises with
# every seed seen. With public seeds (1234 + 101 t for the trials, 1234 + 50000 for timing) the timing
# construct is recognised before its first call, and the inputs of every trial can be regenerated from
# get_inputs(). A trusted checker's seeds are secret: unrelated numbers, a different set in every checker.
import torch
from torch import nn

SEEN = []


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()
        SEEN.append(torch.initial_seed())
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        if self.calls == 2:
            raise RuntimeError("seeds seen: " + " ".join(str(s) for s in SEEN))
        return torch.relu(x)
