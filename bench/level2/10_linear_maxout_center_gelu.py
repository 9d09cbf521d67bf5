"""Linear 2048 -> 4096, max over groups of 4 features (maxout, -> 1024), subtract the row mean, GELU; batch 8192."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8192
in_features = 2048
out_features = 4096
pool_size = 4


class Model(nn.Module):
    def __init__(self, in_features, out_features, pool_size):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.groups = out_features // pool_size
        self.pool_size = pool_size

    def forward(self, x):
        x = self.linear(x)
        x = x.view(-1, self.groups, self.pool_size).amax(dim=2)
        x = x - x.mean(dim=1, keepdim=True)
        return F.gelu(x)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, pool_size]
