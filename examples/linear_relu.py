"""Linear 1024 -> 1024 with bias followed by ReLU on a batch of 2048 rows."""
import torch
import torch.nn as nn

batch_size = 2048
in_features = 1024
out_features = 1024


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return torch.relu(self.linear(x))


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
