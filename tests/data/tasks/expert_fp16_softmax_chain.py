"""An fp16 module: softmax over rows of 1000 (not a multiple of 4) of tanh(x) * w, w an fp16 parameter."""
import torch
from torch import nn

rows, cols = 128, 1000


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(1.0 + 0.1 * torch.randn(cols, dtype=torch.float16))

    def forward(self, x):
        return torch.softmax(torch.tanh(x) * self.w * 4.0, dim=-1)


def get_inputs():
    return [torch.randn(rows, cols, dtype=torch.float16)]


def get_init_inputs():
    return []
