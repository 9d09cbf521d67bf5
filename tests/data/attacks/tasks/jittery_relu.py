"""relu whose reference waits 5 ms on every other call, as a loaded machine's scheduler can make it: its
timings swing a hundredfold, and any speedup over its median says nothing."""
import time

import torch
from torch import nn

_calls = [0]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        _calls[0] += 1
        if _calls[0] % 2:
            time.sleep(0.005)
        return torch.relu(x)


def get_inputs():
    return [torch.rand(64, 64)]


def get_init_inputs():
    return []
