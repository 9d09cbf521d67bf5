import torch
import torch.nn as nn


class Model(nn.Module):
    """A pre-norm transformer encoder block written out by hand: LayerNorm, multi-head self-attention (no mask),
    residual, LayerNorm, GELU MLP, residual."""
    def __init__(self, d, heads, hidden):
        super().__init__()
        self.h = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.fc1, self.fc2 = nn.Linear(d, hidden), nn.Linear(hidden, d)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).reshape(b, t, 3, self.h, d // self.h).permute(2, 0, 3, 1, 4).unbind(0)
        a = torch.softmax(q @ k.transpose(-2, -1) / (d // self.h) ** 0.5, dim=-1) @ v
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        return x + self.fc2(torch.nn.functional.gelu(self.fc1(self.ln2(x))))


def get_inputs():
    return [torch.randn(4, 197, 384)]


def get_init_inputs():
    return [384, 6, 1536]
