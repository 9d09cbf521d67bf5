"""GEMM with bias (4096 x 4096 @ 4096 -> 4096), multiply by a scale, then Swish y * sigmoid(y)."""
import torch
import torch.nn as nn

batch_size = 4096
in_features = 4096
out_features = 4096
scale = 1.5


class Model(nn.Module):
    def __init__(self, in_features, out_features, scale):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) / in_features ** 0.5)
        self.bias = nn.Parameter(0.1 * torch.randn(out_features))
        self.scale = scale

    def forward(self, x):
        y = torch.addmm(self.bias, x, self.weight.t()) * self.scale
        return y * torch.sigmoid(y)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, scale]
