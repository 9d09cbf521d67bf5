# Cheat: returns a tensor subclass standing in for a result computed later (a lazy output).
import torch
from torch import nn


class LazyResult(torch.Tensor):
    pass


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        return torch.relu(x).as_subclass(LazyResult)
