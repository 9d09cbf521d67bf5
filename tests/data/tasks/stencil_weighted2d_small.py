"""2-D weighted 5x5 stencil with bias, depthwise over 3 channels, batch 2, fp64, padding 'same', as an nn.Conv2d."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 3, 5, padding="same", groups=3, bias=True).double()

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 3, 21, 40, dtype=torch.float64)]


def get_init_inputs():
    return []
