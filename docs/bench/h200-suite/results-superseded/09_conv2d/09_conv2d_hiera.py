"""2D convolution, 3x3, stride 1, padding 1, 64 -> 128 channels with bias, on a 128 x 64 x 112 x 112 batch."""
import torch
import torch.nn as nn

batch_size = 128
in_channels = 64
out_channels = 128
kernel_size = 3
height = 112
width = 112


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    x = torch.randn(batch_size, in_channels, height, width)
    return [x]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]

# =====================================================================================================
# hiera expert candidate (reference forward (eager)); strategy T.cudnn_benchmark.
# The task's source is above, verbatim; ModelNew subclasses its Model so the parameter names match.
# =====================================================================================================
import torch as _hiera_torch


def _hiera_clone(out):
    if isinstance(out, (tuple, list)):
        return type(out)(o.clone() if isinstance(o, _hiera_torch.Tensor) else o for o in out)
    return out.clone() if isinstance(out, _hiera_torch.Tensor) else out


class ModelNew(Model):
    """The reference forward unchanged: a valid baseline when nothing faster applies."""
