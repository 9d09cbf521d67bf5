"""Matrix product with a transposed right operand, C = A @ B^T, A: 8192x4096, B: 2048x4096."""
import torch
import torch.nn as nn

M = 8192
K = 4096
N = 2048


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B.t())


def get_inputs():
    A = torch.randn(M, K)
    B = torch.randn(N, K)
    return [A, B]


def get_init_inputs():
    return []
