"""Linear 192 -> 160 with bias, then ReLU and a constant scale, on a batch of 96 rows (ragged tiles)."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, fin, fout, scale):
        super().__init__()
        self.fc = nn.Linear(fin, fout)
        self.scale = scale

    def forward(self, x):
        return torch.relu(self.fc(x)) * self.scale


def get_inputs():
    return [torch.randn(96, 192)]


def get_init_inputs():
    return [192, 160, 0.5]
