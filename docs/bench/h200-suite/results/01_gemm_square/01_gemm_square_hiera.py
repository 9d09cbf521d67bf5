"""Square matrix product C = A @ B with M = N = K = 4096."""
import torch
import torch.nn as nn

M = 4096
K = 4096
N = 4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


def get_inputs():
    A = torch.randn(M, K)
    B = torch.randn(K, N)
    return [A, B]


def get_init_inputs():
    return []

# =====================================================================================================
# hiera expert candidate (reference forward (eager)); strategy T.cublas_sgemm.
# The task's source is above, verbatim; ModelNew subclasses its Model so the parameter names match.
# =====================================================================================================
import torch as _hiera_torch


def _hiera_clone(out):
    if isinstance(out, (tuple, list)):
        return type(out)(o.clone() if isinstance(o, _hiera_torch.Tensor) else o for o in out)
    return out.clone() if isinstance(out, _hiera_torch.Tensor) else out


class ModelNew(Model):
    """The reference forward unchanged: a valid baseline when nothing faster applies."""
