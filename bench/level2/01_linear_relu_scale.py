"""Linear (with bias) -> ReLU -> multiply by a constant scale; 4096 x 4096 input, 4096 -> 4096 features."""
import torch
import torch.nn as nn

batch_size = 4096
in_features = 4096
out_features = 4096
scale = 0.5


class Model(nn.Module):
    def __init__(self, in_features, out_features, scale):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x):
        x = self.linear(x)
        x = torch.relu(x)
        return x * self.scale


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, scale]
