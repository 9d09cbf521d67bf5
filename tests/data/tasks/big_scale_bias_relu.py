"""relu(x * scale + bias) on a GPU-sized input (128 MiB): long enough kernels to expose unsynchronized work."""
import torch
from torch import nn

rows, cols = 4096, 8192


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
