"""relu(x * scale + bias): a pointwise chain with one parameter and one scalar constant."""
import torch
from torch import nn

rows, cols = 256, 512


class Model(nn.Module):
    def __init__(self, cols, scale):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(cols))
        self.scale = scale

    def forward(self, x):
        return torch.relu(x * self.scale + self.bias)


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return [cols, 0.5]
