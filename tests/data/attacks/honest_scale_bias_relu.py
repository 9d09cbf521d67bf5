# Honest control for scale_bias_relu: relu(x * scale + bias) with the reference's own parameter.
import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, cols, scale):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(cols))
        self.scale = scale

    def forward(self, x):
        return torch.relu(x * self.scale + self.bias)
