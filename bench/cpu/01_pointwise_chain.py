"""Elementwise chain sigmoid(x * scale + shift) * tanh(x) + x on 1024 x 1024 (1M elements)."""
import torch
import torch.nn as nn

batch_size = 1024
dim = 1024
scale = 0.75
shift = 0.25


class Model(nn.Module):
    def __init__(self, scale, shift):
        super().__init__()
        self.scale = scale
        self.shift = shift

    def forward(self, x):
        gate = torch.sigmoid(x * self.scale + self.shift)
        return gate * torch.tanh(x) + x


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [scale, shift]
