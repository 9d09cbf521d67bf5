"""A chain of twelve cheap elementwise operations on 1024 x 2048: eager PyTorch makes a pass over the 8 MB
tensor (and allocates a new one) per operation, a fused kernel makes one pass in all. The module the
end-to-end test expects a 2-core CPU to speed up (e2e/run.sh)."""
import torch
import torch.nn as nn

rows = 1024
cols = 2048


class Model(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.scale = nn.Parameter(torch.rand(cols) + 0.5)
        self.shift = nn.Parameter(0.1 * torch.randn(cols))

    def forward(self, x):
        y = x * self.scale + self.shift
        y = torch.relu(y * 0.5 + 0.25)
        y = y * y - 0.125 * y
        y = torch.clamp(y, -2.0, 2.0) * 1.5 - 0.5
        y = torch.relu(y) + 0.25 * x
        return y * self.scale - self.shift


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return [cols]
