"""Multi-head self-attention (16 heads of 64) written with matmuls and softmax; batch 8, sequence 1024, width 1024."""
import math

import torch
import torch.nn as nn

batch_size = 8
seq_len = 1024
embed_dim = 1024
num_heads = 16


class Model(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def split_heads(self, t, b, s):
        # (b, s, embed) -> (b, heads, s, head_dim)
        return t.view(b, s, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, x):
        b, s = x.size(0), x.size(1)
        q = self.split_heads(self.q_proj(x), b, s)
        k = self.split_heads(self.k_proj(x), b, s)
        v = self.split_heads(self.v_proj(x), b, s)
        scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale
        attn = torch.softmax(scores, dim=-1)
        out = torch.matmul(attn, v)
        out = out.transpose(1, 2).reshape(b, s, self.num_heads * self.head_dim)
        return self.out_proj(out)


def get_inputs():
    return [torch.randn(batch_size, seq_len, embed_dim)]


def get_init_inputs():
    return [embed_dim, num_heads]

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
