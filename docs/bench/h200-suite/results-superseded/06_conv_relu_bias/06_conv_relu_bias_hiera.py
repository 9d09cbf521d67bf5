"""Conv2d 3x3 (64 -> 128 channels) -> ReLU -> add a learned per-channel bias, on 64 x 64 x 56 x 56."""
import torch
import torch.nn as nn

batch_size = 64
in_channels = 64
out_channels = 128
kernel_size = 3
height = 56
width = 56


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x):
        x = torch.relu(self.conv(x))
        return x + self.bias


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size]

# =====================================================================================================
# hiera expert candidate (torch.compile(mode='default')); strategy T.cudnn_benchmark.
# The task's source is above, verbatim; ModelNew subclasses its Model so the parameter names match.
# =====================================================================================================
import torch as _hiera_torch


def _hiera_clone(out):
    if isinstance(out, (tuple, list)):
        return type(out)(o.clone() if isinstance(o, _hiera_torch.Tensor) else o for o in out)
    return out.clone() if isinstance(out, _hiera_torch.Tensor) else out


class ModelNew(Model):
    """The reference forward compiled by Inductor, mode 'default'."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._hiera_compiled = None

    def _hiera_forward(self, *inputs):
        return Model.forward(self, *inputs)

    def forward(self, *inputs):
        if self._hiera_compiled is None:
            # One compile thread: no worker pool left running in the evaluator's process.
            import torch._inductor.config as _cfg
            _cfg.compile_threads = 1
            self._hiera_compiled = _hiera_torch.compile(self._hiera_forward, mode='default', dynamic=False)
        return self._hiera_compiled(*inputs)
