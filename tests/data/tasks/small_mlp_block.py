"""A three-layer MLP block (Linear -> GELU -> Linear -> GELU -> Linear) with a residual LayerNorm at the end."""
import torch
import torch.nn as nn

batch_size = 128
width = 256


class Model(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc1 = nn.Linear(width, 2 * width)
        self.fc2 = nn.Linear(2 * width, 2 * width)
        self.fc3 = nn.Linear(2 * width, width)
        self.norm = nn.LayerNorm(width)

    def forward(self, x):
        h = torch.nn.functional.gelu(self.fc1(x))
        h = torch.nn.functional.gelu(self.fc2(h))
        return self.norm(x + self.fc3(h))


def get_inputs():
    return [torch.randn(batch_size, width)]


def get_init_inputs():
    return [width]
