import torch
import torch.nn as nn

class Model(nn.Module):
    """
    Model that performs a GEMM, GroupNorm, Swish, Multiply, and Swish operations.
    """
    def __init__(self, in_features, out_features, num_groups, multiply_weight_shape):
        super(Model, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.group_norm = nn.GroupNorm(num_groups, out_features)
        self.multiply_weight = nn.Parameter(torch.randn(multiply_weight_shape)) 

    def forward(self, x):
        # (batch_size, in_features) -> (batch_size, out_features)
        x = self.gemm(x)
        # (batch_size, out_features) -> (batch_size, out_features)
        x = self.group_norm(x)
        # (batch_size, out_features) -> (batch_size, out_features)
        x = x * torch.sigmoid(x)
        # (batch_size, out_features) -> (batch_size, out_features)
        x = x * self.multiply_weight
        # (batch_size, out_features) -> (batch_size, out_features)
        x = x * torch.sigmoid(x)
        return x

batch_size = 1024
in_features = 8192
out_features = 8192
num_groups = 256
multiply_weight_shape = (out_features,)

def get_inputs():
    return [torch.rand(batch_size, in_features)]

def get_init_inputs():
    return [in_features, out_features, num_groups, multiply_weight_shape]


# --- hiera: the bfloat16 variant of this task (issue 43) ---------------------------------------------------------
# Written by scripts/make_precision_variants.py from kernelbench-dev/level2/88_Gemm_GroupNorm_Swish_Multiply_Swish.py
# (KernelBench, MIT license): the source above is the task's own, unchanged; this block casts its parameters,
# buffers and floating-point inputs to torch.bfloat16.
_hiera_dtype = torch.bfloat16
_hiera_init = Model.__init__


def _hiera_cast_init(self, *args, **kwargs):
    _hiera_init(self, *args, **kwargs)
    self.to(_hiera_dtype)


Model.__init__ = _hiera_cast_init
_hiera_get_inputs = get_inputs


def get_inputs():
    return [x.to(_hiera_dtype) if isinstance(x, torch.Tensor) and x.is_floating_point() else x
            for x in _hiera_get_inputs()]
