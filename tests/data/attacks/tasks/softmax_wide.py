"""Softmax over 32768 columns of small logits: every output is about 3e-5, below fp32's absolute tolerance."""
import torch
from torch import nn

rows, cols = 16, 32768


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(rows, cols) * 0.1]


def get_init_inputs():
    return []
