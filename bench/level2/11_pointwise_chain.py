"""A chain of 9 elementwise ops (scale, shift, swish, clamp, square, +1, log, residual subtract) on 8192 x 8192."""
import torch
import torch.nn as nn

batch_size = 8192
dim = 8192
scale = 1.25
shift = -0.1
clamp_min = -1.0
clamp_max = 3.0


class Model(nn.Module):
    def __init__(self, scale, shift, clamp_min, clamp_max):
        super().__init__()
        self.scale = scale
        self.shift = shift
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x):
        y = x * self.scale
        y = y + self.shift
        y = y * torch.sigmoid(y)
        y = torch.clamp(y, self.clamp_min, self.clamp_max)
        y = y * y + 1.0
        y = torch.log(y)
        return y - x


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [scale, shift, clamp_min, clamp_max]
