"""A bf16 module (weights cast with .to(torch.bfloat16)): Linear 192 -> 160 with bias, ReLU and a scale, on 96 rows."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, fin, fout, scale):
        super().__init__()
        self.fc = nn.Linear(fin, fout).to(torch.bfloat16)
        self.scale = scale

    def forward(self, x):
        return torch.relu(self.fc(x)) * self.scale


def get_inputs():
    return [torch.randn(96, 192, dtype=torch.bfloat16)]


def get_init_inputs():
    return [192, 160, 0.5]
