"""One tanh over a 1024 x 2048 tensor: eager PyTorch computes it with vectorized math (SLEEF), while the generated
kernel's loop calls libm's tanhf once per element, so it loses by an order of magnitude (15x slower on the 2-core
development machine). The module the end-to-end test expects to lose (e2e/run.sh): nothing may then be written
beside it, and every view must give the slowdown's size. (A 4 x 4 multiply used to be the loser, but only because
a generated kernel's OpenMP threads woke up slowly on a busy machine: with one compute thread it wins.)"""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.tanh(x)


def get_inputs():
    return [torch.randn(1024, 2048)]


def get_init_inputs():
    return []
