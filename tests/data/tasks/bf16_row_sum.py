"""A bf16 module: the sum of each row of 4096 bf16 values (PyTorch accumulates it in fp32), times a bf16 weight."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(1, dtype=torch.bfloat16) * 0.5)

    def forward(self, x):
        return x.sum(dim=-1) * self.weight


def get_inputs():
    return [torch.rand(256, 4096, dtype=torch.bfloat16)]


def get_init_inputs():
    return [4096]
