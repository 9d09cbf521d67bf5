"""Sum of each row of a 4096 x 1024 matrix (reduction over the last dim), giving 4096 values."""
import torch
import torch.nn as nn

batch_size = 4096
dim = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.sum(x, dim=1)


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
