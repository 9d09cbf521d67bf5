"""Pre-norm transformer MLP: x + Linear(GELU(Linear(LayerNorm(x)))), 1024 -> 4096 -> 1024, 8 x 1024 tokens."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8
seq_len = 1024
embed_dim = 1024
mlp_ratio = 4


class Model(nn.Module):
    def __init__(self, embed_dim, mlp_ratio):
        super().__init__()
        self.norm = nn.LayerNorm(embed_dim)
        self.fc1 = nn.Linear(embed_dim, mlp_ratio * embed_dim)
        self.fc2 = nn.Linear(mlp_ratio * embed_dim, embed_dim)
        with torch.no_grad():  # non-trivial affine parameters
            self.norm.weight.copy_(1.0 + 0.1 * torch.randn(embed_dim))
            self.norm.bias.copy_(0.1 * torch.randn(embed_dim))

    def forward(self, x):
        h = self.norm(x)
        h = F.gelu(self.fc1(h))
        return x + self.fc2(h)


def get_inputs():
    return [torch.randn(batch_size, seq_len, embed_dim)]


def get_init_inputs():
    return [embed_dim, mlp_ratio]
