# The best of an optimize run (hiera run 20261206-030640-7cfa): 1.00x against eager on cuda:0 (NVIDIA H100 80GB HBM3), level with eager (1.00x at 95%, which includes 1).
import torch
import torch.nn as nn

class Model(nn.Module):
    """
    Model that performs a matrix multiplication, division, summation, and scaling.
    """
    def __init__(self, input_size, hidden_size, scaling_factor):
        super(Model, self).__init__()
        self.weight = nn.Parameter(torch.randn(hidden_size, input_size))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        """
        Args:
            x (torch.Tensor): Input tensor of shape (batch_size, input_size).
        Returns:
            torch.Tensor: Output tensor of shape (batch_size, hidden_size).
        """
        x = torch.matmul(x, self.weight.T)  # Gemm
        x = x / 2  # Divide
        x = torch.sum(x, dim=1, keepdim=True) # Sum
        x = x * self.scaling_factor  # Scaling
        return x


batch_size   = 1024  
input_size   = 8192  
hidden_size  = 8192 
scaling_factor = 1.5

def get_inputs():
    return [torch.rand(batch_size, input_size)]

def get_init_inputs():
    return [input_size, hidden_size, scaling_factor]

# =====================================================================================================
# hiera expert candidate (channels_last + cudnn.benchmark); strategy R.torch_compile.
# The task's source is above, verbatim; ModelNew subclasses its Model so the parameter names match.
# =====================================================================================================
import torch as _hiera_torch


def _hiera_clone(out):
    if isinstance(out, (tuple, list)):
        return type(out)(o.clone() if isinstance(o, _hiera_torch.Tensor) else o for o in out)
    return out.clone() if isinstance(out, _hiera_torch.Tensor) else out


class ModelNew(Model):
    """The reference forward with channels_last + cudnn.benchmark, scoped to this model's own calls."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if True:
            self.to(memory_format=_hiera_torch.channels_last)

    def forward(self, *inputs):
        if True:
            inputs = tuple(x.contiguous(memory_format=_hiera_torch.channels_last)
                           if isinstance(x, _hiera_torch.Tensor) and x.dim() == 4 else x for x in inputs)
        with _hiera_torch.backends.cudnn.flags(enabled=True, benchmark=True, deterministic=False, allow_tf32=_hiera_torch.backends.cudnn.allow_tf32):
            out = Model.forward(self, *inputs)
        if True:
            out = (type(out)(o.contiguous() for o in out) if isinstance(out, (tuple, list)) else out.contiguous())
        return out
