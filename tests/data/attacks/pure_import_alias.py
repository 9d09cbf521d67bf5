# Attack (reference call in pure CUDA, through an import alias): declared pure_cuda, it imports relu
# from torch under another name and calls it as a bare function, which the source check does not read
# as PyTorch. A trusted evaluator enforces the space at run time: space_violation.
from torch import nn
from torch import relu as fused_kernel


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        return fused_kernel(x)
