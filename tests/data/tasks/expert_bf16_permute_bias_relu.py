"""A bf16 module: NCHW -> NHWC with a per-channel bias and a ReLU after the permute: two batch dims, ragged tiles."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, channels: int = 40):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(channels, dtype=torch.bfloat16))

    def forward(self, x):
        return torch.relu(x.permute(0, 2, 3, 1) + self.bias)


def get_inputs():
    return [torch.randn(2, 40, 5, 33, dtype=torch.bfloat16)]


def get_init_inputs():
    return [40]
