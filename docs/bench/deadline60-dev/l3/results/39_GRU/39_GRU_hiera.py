# The best of an optimize run (hiera run 20261206-025806-c0dc): 4.17x against eager on cuda:0 (NVIDIA H100 80GB HBM3), faster than eager (4.0–4.3x at 95%, all of it above 1).
import torch
import torch.nn as nn
import torch.nn.functional as F

class Model(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers=3, bias=True, batch_first=False):
        """
        :param input_size: The number of expected features in the input x
        :param hidden_size: The number of features in the hidden state h
        :param num_layers: Number of recurrent layers (default: 1)
        :param bias: If False, then the layer does not use bias weights b_ih and b_hh (default: True)
        :param batch_first: If True, then the input and output tensors are provided as (batch, seq, feature) (default: False)
        """
        super(Model, self).__init__()
        
        self.gru = nn.GRU(input_size, hidden_size, num_layers, bias, batch_first, dropout=0, bidirectional=False)
    
    def forward(self, x,h0):
        """
        :param x: The input tensor, shape (seq_len, batch_size, input_size) if batch_first=False, otherwise (batch_size, seq_len, input_size)
        :param h_0: The initial hidden state for the input sequence, shape (num_layers * num_directions, batch_size, hidden_size) (default: None)
        :return: output, h_n
            - output: The output features (h_t) from the last layer of the GRU, for each t, shape (seq_len, batch_size, num_directions * hidden_size) if batch_first=False, otherwise (batch_size, seq_len, num_directions * hidden_size)
            - h_n: The hidden state for t = seq_len, shape (num_layers * num_directions, batch_size, hidden_size)
        """
        output, h_n = self.gru(x, h0)
        return output

# Test code
batch_size = 10
seq_len = 512
input_size = 128
hidden_size = 256
num_layers = 6

def get_inputs():
    return [torch.rand(seq_len, batch_size, input_size),torch.rand((num_layers, batch_size, hidden_size))]

def get_init_inputs():
    return [input_size, hidden_size, num_layers]

# =====================================================================================================
# hiera expert candidate (CUDA graph replay over torch.compile + cudnn.benchmark); strategy R.torch_compile.
# The task's source is above, verbatim; ModelNew subclasses its Model so the parameter names match.
# =====================================================================================================
import torch as _hiera_torch


def _hiera_clone(out):
    if isinstance(out, (tuple, list)):
        return type(out)(o.clone() if isinstance(o, _hiera_torch.Tensor) else o for o in out)
    return out.clone() if isinstance(out, _hiera_torch.Tensor) else out


class ModelNew(Model):
    """The reference forward captured once into a CUDA graph and replayed (CUDA graph replay over torch.compile + cudnn.benchmark)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._hiera_graph = None
        self._hiera_key = None
        self._hiera_fn = None

    def _hiera_forward(self, *inputs):
        with _hiera_torch.backends.cudnn.flags(enabled=True, benchmark=True, deterministic=False, allow_tf32=_hiera_torch.backends.cudnn.allow_tf32):
            return Model.forward(self, *inputs)

    def _hiera_capture(self, inputs):
        fn = self._hiera_forward
        if True:
            import torch._inductor.config as _cfg
            _cfg.compile_threads = 1
            fn = _hiera_torch.compile(self._hiera_forward, mode="default", dynamic=False)
        self._hiera_in = [x.clone() if isinstance(x, _hiera_torch.Tensor) else x for x in inputs]
        side = _hiera_torch.cuda.Stream()
        side.wait_stream(_hiera_torch.cuda.current_stream())
        with _hiera_torch.cuda.stream(side):
            for _ in range(3):  # warm-up: library handles, workspaces and autotuning happen outside the graph
                fn(*self._hiera_in)
        _hiera_torch.cuda.current_stream().wait_stream(side)
        graph = _hiera_torch.cuda.CUDAGraph()
        with _hiera_torch.cuda.graph(graph):
            self._hiera_out = fn(*self._hiera_in)
        self._hiera_graph = graph

    def forward(self, *inputs):
        tensors = [x for x in inputs if isinstance(x, _hiera_torch.Tensor)]
        if not tensors or not tensors[0].is_cuda:
            return self._hiera_forward(*inputs)
        key = tuple((tuple(x.shape), x.dtype, x.device) if isinstance(x, _hiera_torch.Tensor) else x
                    for x in inputs)
        if self._hiera_graph is None or key != self._hiera_key:
            self._hiera_capture(inputs)
            self._hiera_key = key
        for dst, src in zip(self._hiera_in, inputs):
            if isinstance(src, _hiera_torch.Tensor):
                dst.copy_(src)
        self._hiera_graph.replay()
        return _hiera_clone(self._hiera_out)
