"""Linear 2048 -> 4096, sigmoid, then sum over the features: one value per row of an 8192-row batch."""
import torch
import torch.nn as nn

batch_size = 8192
in_features = 2048
out_features = 4096


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        x = torch.sigmoid(self.linear(x))
        return torch.sum(x, dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
