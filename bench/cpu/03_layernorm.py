"""LayerNorm with affine weight and bias over the last dim of 512 x 1024 activations."""
import torch
import torch.nn as nn

num_tokens = 512
hidden_size = 1024
eps = 1e-5


class Model(nn.Module):
    def __init__(self, hidden_size, eps):
        super().__init__()
        self.norm = nn.LayerNorm(hidden_size, eps=eps)
        with torch.no_grad():  # non-trivial affine parameters
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(hidden_size))
            self.norm.bias.copy_(0.1 * torch.randn(hidden_size))

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(num_tokens, hidden_size)]


def get_init_inputs():
    return [hidden_size, eps]
