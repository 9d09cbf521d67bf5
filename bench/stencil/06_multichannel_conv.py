"""Multi-channel 3x3 convolution, 64 -> 64 channels, fp64, on a 2 x 64 x 256 x 256 batch: a cross-channel sum (a GEMM), where the library should win over any stencil kernel."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 2
channels = 64
height = 256
width = 256
kernel_size = 3


class Model(nn.Module):
    def __init__(self, channels, kernel_size):
        super().__init__()
        self.padding = kernel_size // 2
        w = torch.randn(channels, channels, kernel_size, kernel_size, dtype=torch.float64)
        self.register_buffer("weight", w / (channels * kernel_size * kernel_size) ** 0.5)

    def forward(self, x):
        return F.conv2d(x, self.weight, padding=self.padding)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width, dtype=torch.float64)]


def get_init_inputs():
    return [channels, kernel_size]
