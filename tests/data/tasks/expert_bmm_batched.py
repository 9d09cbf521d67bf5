import torch
import torch.nn as nn


class Model(nn.Module):
    """A batched product whose batch count is the batch (B x 48 x 40 @ B x 40 x 56), then a ReLU and a scale."""

    def forward(self, a, b):
        return torch.relu(torch.bmm(a, b)) * 0.5


def get_inputs():
    return [torch.randn(24, 48, 40), torch.randn(24, 40, 56)]


def get_init_inputs():
    return []
