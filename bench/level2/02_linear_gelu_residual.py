"""Residual branch: x + GELU(Linear(x)) on 8192 x 2048 activations."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8192
hidden_size = 2048


class Model(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.linear = nn.Linear(hidden_size, hidden_size)

    def forward(self, x):
        return x + F.gelu(self.linear(x))


def get_inputs():
    return [torch.randn(batch_size, hidden_size)]


def get_init_inputs():
    return [hidden_size]
