"""LayerNorm with learned affine weight and bias over the last dim of 16384 x 4096 activations."""
import torch
import torch.nn as nn

num_tokens = 16384
hidden_size = 4096
eps = 1e-5


class Model(nn.Module):
    def __init__(self, hidden_size, eps):
        super().__init__()
        self.norm = nn.LayerNorm(hidden_size, eps=eps)
        with torch.no_grad():  # non-trivial affine parameters, so a kernel that drops them is caught
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(hidden_size))
            self.norm.bias.copy_(0.1 * torch.randn(hidden_size))

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    x = torch.randn(num_tokens, hidden_size)
    return [x]


def get_init_inputs():
    return [hidden_size, eps]
