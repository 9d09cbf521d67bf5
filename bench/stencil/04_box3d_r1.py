"""3-D box stencil, radius 1 (3x3x3 = 27 points, weights 1/27), fp64, one step on a 512^3 grid, as a cuDNN convolution."""
import torch
import torch.nn as nn
import torch.nn.functional as F

radius = 1
depth = 512
height = 512
width = 512


class Model(nn.Module):
    def __init__(self, radius):
        super().__init__()
        self.radius = radius
        k = 2 * radius + 1
        self.register_buffer("weight", torch.full((1, 1, k, k, k), 1.0 / k ** 3, dtype=torch.float64))

    def forward(self, x):
        return F.conv3d(x, self.weight, padding=self.radius)


def get_inputs():
    return [torch.randn(1, 1, depth, height, width, dtype=torch.float64)]


def get_init_inputs():
    return [radius]
