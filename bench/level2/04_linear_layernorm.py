"""Linear projection 1024 -> 4096 followed by LayerNorm over the 4096 outputs; batch 8192."""
import torch
import torch.nn as nn

batch_size = 8192
in_features = 1024
out_features = 4096
eps = 1e-5


class Model(nn.Module):
    def __init__(self, in_features, out_features, eps):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.norm = nn.LayerNorm(out_features, eps=eps)
        with torch.no_grad():  # non-trivial affine parameters
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(out_features))
            self.norm.bias.copy_(0.1 * torch.randn(out_features))

    def forward(self, x):
        return self.norm(self.linear(x))


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, eps]
