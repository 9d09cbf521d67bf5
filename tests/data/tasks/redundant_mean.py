"""The mean of 64 identical copies of x: a reference with wasted work, so a correct candidate is >10x faster."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.stack([x * 1.0 for _ in range(64)]).mean(0)


def get_inputs():
    return [torch.randn(256, 1024)]


def get_init_inputs():
    return []
