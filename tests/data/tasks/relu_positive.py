"""relu(x) on non-negative inputs: returning x itself would give the right numbers (an aliasing trap)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.rand(512, 512)]


def get_init_inputs():
    return []
