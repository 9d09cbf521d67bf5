"""2-D box stencil, radius 3 (49 points, weights 1/49), fp64, on a 1 x 1 x 45 x 70 grid (a ragged tile edge)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, radius):
        super().__init__()
        self.radius = radius
        k = 2 * radius + 1
        self.register_buffer("weight", torch.full((1, 1, k, k), 1.0 / (k * k), dtype=torch.float64))

    def forward(self, x):
        return F.conv2d(x, self.weight, padding=self.radius)


def get_inputs():
    return [torch.randn(1, 1, 45, 70, dtype=torch.float64)]


def get_init_inputs():
    return [3]
