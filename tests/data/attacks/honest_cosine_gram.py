# Honest control for tasks/cosine_gram.py.
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        u = x / x.norm(dim=1, keepdim=True)
        return u @ u.T
