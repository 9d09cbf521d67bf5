"""Exact (erf) GELU applied elementwise to a 4096 x 16384 tensor (64M elements)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4096
dim = 16384


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return F.gelu(x)


def get_inputs():
    x = torch.randn(batch_size, dim)
    return [x]


def get_init_inputs():
    return []
