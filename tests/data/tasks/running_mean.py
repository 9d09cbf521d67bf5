"""A stateful forward: it updates a running mean in a buffer on every call, so its output depends on how many
times it was called (no candidate can be compared with it; the run must say so and stop)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.register_buffer("running", torch.zeros(dim))

    def forward(self, x):
        self.running.mul_(0.9).add_(0.1 * x.mean(dim=0))
        return x - self.running


def get_inputs():
    return [torch.randn(8, 32)]


def get_init_inputs():
    return [32]
