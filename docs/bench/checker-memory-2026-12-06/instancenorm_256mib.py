"""InstanceNorm2d over a 16 x 64 x 256 x 256 fp32 batch: 256 MiB of input and 256 MiB of output, a CPU-sized copy
of KernelBench's level1/34_InstanceNorm (112 x 64 x 512 x 512: 7 GiB each), for scripts/checker_memory.py."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.norm = nn.InstanceNorm2d(c)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(16, 64, 256, 256)]


def get_init_inputs():
    return [64]
