# An honest ModelNew for bf16_row_sum: the row sum accumulated in fp32 (in another order than PyTorch's).
import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(1, dtype=torch.bfloat16) * 0.5)

    def forward(self, x):
        return (x.float().flip(-1).sum(dim=-1) * self.weight.float()).to(torch.bfloat16)
