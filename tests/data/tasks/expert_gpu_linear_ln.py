"""GPU-sized Linear 1024 -> 2048 followed by LayerNorm over the outputs, batch 4096."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(1024, 2048)
        self.norm = nn.LayerNorm(2048)
        with torch.no_grad():
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(2048))
            self.norm.bias.copy_(0.1 * torch.randn(2048))

    def forward(self, x):
        return self.norm(self.fc(x))


def get_inputs():
    return [torch.randn(4096, 1024)]


def get_init_inputs():
    return []
