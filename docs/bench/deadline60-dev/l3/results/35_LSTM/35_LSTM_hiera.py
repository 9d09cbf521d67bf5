# The best of an optimize run (hiera run 20261206-025709-a661): 3.67x against eager on cuda:0 (NVIDIA H100 80GB HBM3), faster than eager (3.6–3.9x at 95%, all of it above 1).
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, output_size, dropout=0.0):
        """
        Initialize the LSTM model.

        :param input_size: The number of expected features in the input `x`
        :param hidden_size: The number of features in the hidden state `h`
        :param num_layers: Number of recurrent layers
        :param output_size: The number of output features
        :param dropout: If non-zero, introduces a Dropout layer on the outputs of each LSTM layer except the last layer
        """
        super(Model, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers,
                            batch_first=True, dropout=dropout, bidirectional=False)
        self.fc = nn.Linear(hidden_size, output_size)

    def forward(self, x, h0=None, c0=None):
        """
        Forward pass through the LSTM model.

        :param x: The input tensor, shape (batch_size, sequence_length, input_size)
        :param h0: Optional initial hidden state (num_layers, batch_size, hidden_size)
        :param c0: Optional initial cell state (num_layers, batch_size, hidden_size)
        :return: The output tensor, shape (batch_size, output_size)
        """
        batch_size = x.size(0)

        if h0 is None:
            h0 = torch.randn(self.num_layers, batch_size, self.hidden_size, device=x.device)
        if c0 is None:
            c0 = torch.randn(self.num_layers, batch_size, self.hidden_size, device=x.device)

        out, _ = self.lstm(x, (h0, c0))  # out: (batch_size, seq_length, hidden_size)
        out = self.fc(out[:, -1, :])     # out: (batch_size, output_size)

        return out

# === Test configuration ===
batch_size = 10
sequence_length = 512
input_size = 128
hidden_size = 256
num_layers = 6
output_size = 10
dropout = 0.0

def get_inputs():
    return [torch.rand(batch_size, sequence_length, input_size)]

def get_init_inputs():
    return [input_size, hidden_size, num_layers, output_size, dropout]

# =====================================================================================================
# hiera expert candidate (CUDA graph replay + cudnn.benchmark); strategy opener: CUDA graph replay.
# The task's source is above, verbatim; ModelNew subclasses its Model so the parameter names match.
# =====================================================================================================
import torch as _hiera_torch


def _hiera_clone(out):
    if isinstance(out, (tuple, list)):
        return type(out)(o.clone() if isinstance(o, _hiera_torch.Tensor) else o for o in out)
    return out.clone() if isinstance(out, _hiera_torch.Tensor) else out


class ModelNew(Model):
    """The reference forward captured once into a CUDA graph and replayed (CUDA graph replay + cudnn.benchmark)."""

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
        if False:
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
