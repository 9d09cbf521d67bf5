"""3-D weighted stencil, 3x3x3, fp64, one channel, on a 1 x 1 x 11 x 13 x 37 grid, as F.conv3d with padding 1."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("weight", torch.rand(1, 1, 3, 3, 3, dtype=torch.float64))

    def forward(self, x):
        return F.conv3d(x, self.weight, padding=1)


def get_inputs():
    return [torch.randn(1, 1, 11, 13, 37, dtype=torch.float64)]


def get_init_inputs():
    return []
