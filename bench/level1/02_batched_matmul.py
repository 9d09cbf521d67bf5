"""Batched matrix product C[b] = A[b] @ B[b] over 64 independent 1024x512 @ 512x1024 products."""
import torch
import torch.nn as nn

batch_size = 64
m = 1024
k = 512
n = 1024


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.bmm(A, B)


def get_inputs():
    A = torch.randn(batch_size, m, k)
    B = torch.randn(batch_size, k, n)
    return [A, B]


def get_init_inputs():
    return []
