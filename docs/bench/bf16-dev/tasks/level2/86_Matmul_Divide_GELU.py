import torch
import torch.nn as nn

class Model(nn.Module):
    """
    A model that performs a matrix multiplication, divides by a scalar, and applies GELU activation.
    """
    def __init__(self, input_size, output_size, divisor):
        super(Model, self).__init__()
        self.linear = nn.Linear(input_size, output_size)
        self.divisor = divisor

    def forward(self, x):
        """
        Args:
            x (torch.Tensor): Input tensor of shape (batch_size, input_size).
        Returns:
            torch.Tensor: Output tensor of shape (batch_size, output_size).
        """
        x = self.linear(x)
        x = x / self.divisor
        x = torch.nn.functional.gelu(x)
        return x

batch_size = 1024
input_size = 8192
output_size = 8192
divisor = 10.0

def get_inputs():
    return [torch.rand(batch_size, input_size)]

def get_init_inputs():
    return [input_size, output_size, divisor]


# --- hiera: the bfloat16 variant of this task (issue 43) ---------------------------------------------------------
# Written by scripts/make_precision_variants.py from kernelbench-dev/level2/86_Matmul_Divide_GELU.py
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
