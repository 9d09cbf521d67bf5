"""A chain of twenty-two cheap elementwise operations on 1024 x 2048: eager PyTorch makes a pass over the 8 MB
tensor (and allocates a new one) per operation, a fused kernel makes one vectorized pass in all (the constants
are scalars, so nothing but x is read). The module the end-to-end test expects a 2-core CPU to speed up
(e2e/run.sh) by more than 10x (17x with one compute thread), so that the engine flags the figure
("over 10x — check before trusting") and the test sees the flag reach every view."""
import torch
import torch.nn as nn

rows = 1024
cols = 2048


class Model(nn.Module):
    def forward(self, x):
        y = x * 1.5 + 0.25
        y = torch.relu(y * 0.5 + 0.25)
        y = y * y - 0.125 * y
        y = torch.clamp(y, -2.0, 2.0) * 1.5 - 0.5
        y = torch.relu(y) + 0.25 * x
        y = y * 0.75 - 0.125
        y = torch.relu(y * 0.75 + 0.125)
        y = y * y - 0.25 * y
        y = torch.clamp(y, -1.5, 1.5) * 1.25 - 0.25
        y = torch.relu(y) + 0.5 * x
        return y * 1.25 + 0.5


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
