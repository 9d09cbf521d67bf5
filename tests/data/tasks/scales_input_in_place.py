"""A forward that works in place on its input (x.mul_), and writes its weight in place to the values it already
holds (a clamp that changes nothing, as an LSTM laying out its weights again does): a candidate that does the
same is correct, and the task is not stateful."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(dim) + 0.5)

    def forward(self, x):
        with torch.no_grad():
            self.scale.clamp_(-100.0, 100.0)
        x.mul_(2.0)
        return torch.relu_(x) * self.scale


def get_inputs():
    return [torch.randn(8, 32)]


def get_init_inputs():
    return [32]
