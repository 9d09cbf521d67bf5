import math
import torch
import torch.nn as nn


class Model(nn.Module):
    """Single-head attention over 3-D tensors with bmm, divided by sqrt(d), an additive mask input, dropout."""
    def __init__(self, d):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.drop = nn.Dropout(0.1)
        self.d = d

    def forward(self, x, bias):
        q, k, v = self.q(x), self.k(x), self.v(x)
        s = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.d)
        s = s + bias
        p = self.drop(torch.softmax(s, dim=-1))
        return torch.bmm(p, v)


def get_inputs():
    return [torch.randn(16, 128, 64), torch.randn(16, 128, 128)]


def get_init_inputs():
    return [64]
