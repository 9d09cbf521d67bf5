import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Two attentions: self (causal via a tril built in forward, -1e9 fill) then cross, with an input padding mask."""
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, mem, pad):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, C // self.h).permute(2, 0, 3, 1, 4)
        att = q @ k.transpose(-2, -1) * (C // self.h) ** -0.5
        causal = torch.tril(torch.ones(T, T, device=x.device))
        att = att.masked_fill(causal == 0, -1e9)
        y = F.softmax(att, dim=-1) @ v
        s = (y @ mem.transpose(-2, -1)).masked_fill(pad[:, None, None, :], float("-inf"))
        y = F.softmax(s, dim=-1) @ mem
        return self.o(y.transpose(1, 2).reshape(B, T, C))


def get_inputs():
    pad = torch.zeros(4, 40, dtype=torch.bool)
    pad[:, 30:] = True
    return [torch.randn(4, 64, 128), torch.randn(4, 4, 40, 32), pad]


def get_init_inputs():
    return [128, 4]
