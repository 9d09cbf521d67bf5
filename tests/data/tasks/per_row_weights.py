"""A module with a per-row float input (one value per batch row) and two outputs: at batch 1 that input holds a
single element, which the off-distribution transforms once failed on (the checker's worker died and every
candidate was blamed for it)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, weight):
        y = self.proj(x) * weight.unsqueeze(-1)
        n = y.norm(dim=-1, keepdim=True).clamp_min(1e-6)
        return y / n, n.squeeze(-1)


def get_inputs():
    return [torch.randn(8, 16), torch.rand(8) + 0.5]


def get_init_inputs():
    return [16]
