"""A large Linear layer on the GPU (4096 x 4096 x 4096, about 3 ms in fp32 on an H200): a cache hit is ~100x faster."""
import torch
from torch import nn

batch, in_features, out_features = 4096, 4096, 4096


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
