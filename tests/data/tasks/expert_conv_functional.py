"""F.conv2d with stride, asymmetric padding, dilation and 2 groups, a bias, then tanh and a scale."""
import torch
import torch.nn.functional as F
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(0.3 * torch.randn(8, 2, 3, 2))
        self.bias = nn.Parameter(0.1 * torch.randn(8))

    def forward(self, x):
        y = F.conv2d(x, self.weight, self.bias, stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2)
        return torch.tanh(y) * 1.5


def get_inputs():
    return [torch.randn(3, 4, 13, 10)]


def get_init_inputs():
    return []
