"""Pointwise chain on 1024 x 2048: GELU(x * scale) + bias, with the tanh-approximate GELU written out in torch ops."""
import math

import torch
import torch.nn as nn

batch_size = 1024
dim = 2048
scale = 0.5


class Model(nn.Module):
    def __init__(self, dim, scale):
        super().__init__()
        self.scale = scale
        self.bias = nn.Parameter(0.1 * torch.randn(dim))

    def forward(self, x):
        x = x * self.scale
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)
        x = 0.5 * x * (1.0 + torch.tanh(inner))
        return x + self.bias


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [dim, scale]
