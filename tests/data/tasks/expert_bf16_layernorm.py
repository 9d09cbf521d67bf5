"""A bf16 LayerNorm over 768 features of 64 rows, then GELU: two row reductions and a pointwise tail."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d).to(torch.bfloat16)
        with torch.no_grad():  # non-trivial affine parameters
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(d))
            self.norm.bias.copy_(0.1 * torch.randn(d))

    def forward(self, x):
        return nn.functional.gelu(self.norm(x))


def get_inputs():
    return [torch.randn(64, 768, dtype=torch.bfloat16)]


def get_init_inputs():
    return [768]
