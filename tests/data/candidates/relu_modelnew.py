# A correct ModelNew for relu_positive (libraries_pytorch space: it calls a PyTorch operator).
import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)
