"""Conv2d 3x3 (64 -> 128 channels) -> ReLU -> add a learned per-channel bias, on 64 x 64 x 56 x 56."""
import torch
import torch.nn as nn

batch_size = 64
in_channels = 64
out_channels = 128
kernel_size = 3
height = 56
width = 56


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x):
        x = torch.relu(self.conv(x))
        return x + self.bias


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]
