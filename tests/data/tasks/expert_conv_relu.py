"""Conv2d 3x3 (4 -> 8 channels) and ReLU on a 2 x 4 x 16 x 16 batch: no generator covers convolutions."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x))


def get_inputs():
    return [torch.randn(2, 4, 16, 16)]


def get_init_inputs():
    return []
