"""Linear projection 2048 -> 8192 followed by a softmax over each output row; batch 4096."""
import torch
import torch.nn as nn

batch_size = 4096
in_features = 2048
out_features = 8192


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.softmax(self.linear(x), dim=1)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
