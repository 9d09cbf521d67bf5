# Attack (reference call in pure CUDA, through an alias): declared pure_cuda, it binds torch.relu to a
# module-level name and calls that, which the source check takes for a compiled extension function.
# A trusted evaluator enforces the space at run time (ATen compute dispatched while a pure CUDA candidate
# runs): space_violation.
import torch
from torch import nn

_kernel = torch.relu


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        return _kernel(x)
