"""2D max pooling, 3x3 window, stride 2, padding 1, on a 32 x 64 x 224 x 224 batch."""
import torch
import torch.nn as nn

batch_size = 32
channels = 64
height = 224
width = 224
kernel_size = 3
stride = 2
padding = 1


class Model(nn.Module):
    def __init__(self, kernel_size, stride, padding):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size, stride=stride, padding=padding)

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    x = torch.randn(batch_size, channels, height, width)
    return [x]


def get_init_inputs():
    return [kernel_size, stride, padding]

# =====================================================================================================
# hiera expert candidate (torch.compile(mode='default')); strategy R.torch_compile.
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
