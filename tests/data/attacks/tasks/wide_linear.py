"""A wider Linear layer (x @ W^T + b): GEMM-bound, linear in its input."""
import torch
from torch import nn

batch, in_features, out_features = 256, 1024, 1024


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        return self.fc(x)


def get_inputs():
    return [torch.randn(batch, in_features)]


def get_init_inputs():
    return [in_features, out_features]
