import torch
import torch.nn as nn

class Model(nn.Module):
    """
    Simple model that performs a matrix multiplication, applies sigmoid, and sums the result.
    """
    def __init__(self, input_size, hidden_size):
        super(Model, self).__init__()
        self.linear = nn.Linear(input_size, hidden_size)

    def forward(self, x):
        """
        Args:
            x: Input tensor of shape (batch_size, input_size).

        Returns:
            Output tensor of shape (batch_size, 1).
        """
        x = self.linear(x)
        x = torch.sigmoid(x)
        x = torch.sum(x, dim=1, keepdim=True)
        return x

batch_size = 128
input_size = 32768
hidden_size = 32768

def get_inputs():
    return [torch.rand(batch_size, input_size)]

def get_init_inputs():
    return [input_size, hidden_size]


# --- hiera: the bfloat16 variant of this task (issue 43) ---------------------------------------------------------
# Written by scripts/make_precision_variants.py from kernelbench-dev/level2/56_Matmul_Sigmoid_Sum.py
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
