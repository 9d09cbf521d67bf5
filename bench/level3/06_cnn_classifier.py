"""Tiny CNN classifier: conv 7x7/2 (3 -> 64), ReLU, global average pool, Linear 64 -> 1000; 128 x 3 x 224 x 224."""
import torch
import torch.nn as nn

batch_size = 128
in_channels = 3
height = 224
width = 224
conv_channels = 64
num_classes = 1000


class Model(nn.Module):
    def __init__(self, in_channels, conv_channels, num_classes):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, conv_channels, kernel_size=7, stride=2, padding=3)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(conv_channels, num_classes)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        x = torch.flatten(self.pool(x), 1)
        return self.fc(x)


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, conv_channels, num_classes]
