"""Two 3x3 convolutions (3 -> 8 -> 8 channels, the second strided) with a bias, ReLU and a residual-free epilogue on
a batch of 16 images of 12 x 12: a convolution stack whose batch varies (the batch at run time, issue 38)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 8, 3, stride=2, padding=1)

    def forward(self, x):
        return torch.relu(self.conv2(torch.relu(self.conv1(x)))) * 0.5


def get_inputs():
    return [torch.randn(16, 3, 12, 12)]


def get_init_inputs():
    return []
