"""Batched transpose materialised as a contiguous copy: (16, 4096, 1024) -> (16, 1024, 4096)."""
import torch
import torch.nn as nn

batch_size = 16
rows = 4096
cols = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x.transpose(1, 2).contiguous()


def get_inputs():
    x = torch.randn(batch_size, rows, cols)
    return [x]


def get_init_inputs():
    return []
