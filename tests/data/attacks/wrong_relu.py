# Control for relu tasks: plain wrong math (x / 2), no trick. It must be judged incorrect wherever it runs.
import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        return torch.mul(x, 0.5)
