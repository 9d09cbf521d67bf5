"""Average pools through torch.nn.functional: 1-D with dilation-free stride 3, then a 3-D 2x2x2 mean."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.pool3 = nn.AvgPool3d(2)

    def forward(self, x, y):
        return F.avg_pool1d(x, kernel_size=4, stride=3) * 2.0, self.pool3(y)


def get_inputs():
    return [torch.randn(3, 7, 50), torch.randn(2, 3, 6, 9, 5)]


def get_init_inputs():
    return []
