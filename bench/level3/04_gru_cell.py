"""One GRU cell step written with two Linear layers and pointwise gates; batch 4096, input 1024, hidden 2048."""
import torch
import torch.nn as nn

batch_size = 4096
input_size = 1024
hidden_size = 2048


class Model(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.x2h = nn.Linear(input_size, 3 * hidden_size)
        self.h2h = nn.Linear(hidden_size, 3 * hidden_size)

    def forward(self, x, h):
        H = self.hidden_size
        gx = self.x2h(x)
        gh = self.h2h(h)
        r = torch.sigmoid(gx[:, 0:H] + gh[:, 0:H])
        z = torch.sigmoid(gx[:, H:2 * H] + gh[:, H:2 * H])
        n = torch.tanh(gx[:, 2 * H:3 * H] + r * gh[:, 2 * H:3 * H])
        return (1.0 - z) * n + z * h


def get_inputs():
    return [torch.randn(batch_size, input_size), torch.randn(batch_size, hidden_size)]


def get_init_inputs():
    return [input_size, hidden_size]
