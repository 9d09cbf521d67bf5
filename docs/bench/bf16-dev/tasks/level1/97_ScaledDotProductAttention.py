import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
        out = torch.nn.functional.scaled_dot_product_attention(Q, K, V)
        return out

batch_size = 32
num_heads = 32
sequence_length = 512
embedding_dimension = 1024

def get_inputs():
    Q = torch.rand(batch_size, num_heads, sequence_length, embedding_dimension)
    K = torch.rand(batch_size, num_heads, sequence_length, embedding_dimension)
    V = torch.rand(batch_size, num_heads, sequence_length, embedding_dimension)
    return [Q, K, V]

def get_init_inputs():
    return []


# --- hiera: the bfloat16 variant of this task (issue 43) ---------------------------------------------------------
# Written by scripts/make_precision_variants.py from kernelbench-dev/level1/97_ScaledDotProductAttention.py
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
