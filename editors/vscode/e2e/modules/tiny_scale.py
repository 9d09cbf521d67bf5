"""One multiply on a 4 x 4 tensor: eager PyTorch does it in microseconds, and a generated kernel cannot win,
since calling it costs more than the work. The module the end-to-end test expects to lose (e2e/run.sh):
nothing may then be written beside it."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x * 2.0


def get_inputs():
    return [torch.randn(4, 4)]


def get_init_inputs():
    return []
