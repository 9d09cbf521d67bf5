"""Mean cross-entropy loss of 4096 rows of 32768-class logits against integer class targets."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4096
num_classes = 32768


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits, targets):
        return F.cross_entropy(logits, targets)


def get_inputs():
    logits = torch.randn(batch_size, num_classes)
    targets = torch.randint(0, num_classes, (batch_size,))
    return [logits, targets]


def get_init_inputs():
    return []

# =====================================================================================================
# hiera expert candidate (torch.compile(mode='max-autotune-no-cudagraphs')); strategy R.torch_compile.
# The task's source is above, verbatim; ModelNew subclasses its Model so the parameter names match.
# =====================================================================================================
import torch as _hiera_torch


def _hiera_clone(out):
    if isinstance(out, (tuple, list)):
        return type(out)(o.clone() if isinstance(o, _hiera_torch.Tensor) else o for o in out)
    return out.clone() if isinstance(out, _hiera_torch.Tensor) else out


class ModelNew(Model):
    """The reference forward compiled by Inductor, mode 'max-autotune-no-cudagraphs'."""

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
            self._hiera_compiled = _hiera_torch.compile(self._hiera_forward, mode='max-autotune-no-cudagraphs', dynamic=False)
        return self._hiera_compiled(*inputs)
