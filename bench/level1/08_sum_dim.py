"""Sum over the middle (strided) dim of a 128 x 4096 x 128 tensor, giving 128 x 128."""
import torch
import torch.nn as nn

batch_size = 128
reduce_size = 4096
inner_size = 128


class Model(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.sum(x, dim=self.dim)


def get_inputs():
    x = torch.randn(batch_size, reduce_size, inner_size)
    return [x]


def get_init_inputs():
    return [1]
