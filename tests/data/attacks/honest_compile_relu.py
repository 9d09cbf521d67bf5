# Honest control: relu through torch.compile (Inductor builds a C++ kernel inside the sandbox on its first
# call). Under load its calls scatter by milliseconds; it must stay valid, never `suspect`.
import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()
        self.fn = torch.compile(torch.relu)

    def forward(self, x):
        return self.fn(x)
