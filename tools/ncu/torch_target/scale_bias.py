"""y = x * scale + bias over a 4096 x 4096 matrix: the task behind the live (torch-based) profiling fixture."""
import torch
from torch import nn

rows, cols = 4096, 4096


class Model(nn.Module):
    def __init__(self, cols, scale):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(cols))
        self.scale = scale

    def forward(self, x):
        return x * self.scale + self.bias


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return [cols, 0.5]
