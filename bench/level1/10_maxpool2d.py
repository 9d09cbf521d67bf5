"""2D max pooling, 3x3 window, stride 2, padding 1, on a 32 x 64 x 224 x 224 batch."""
import torch
import torch.nn as nn

batch_size = 32
channels = 64
height = 224
width = 224
kernel_size = 3
stride = 2
padding = 1


class Model(nn.Module):
    def __init__(self, kernel_size, stride, padding):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size, stride=stride, padding=padding)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    x = torch.randn(batch_size, channels, height, width)
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding]
