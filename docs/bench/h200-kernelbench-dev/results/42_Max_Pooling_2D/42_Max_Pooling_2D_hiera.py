import torch
import torch.nn as nn

class Model(nn.Module):
    """
    Simple model that performs Max Pooling 2D.
    """
    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        """
        Initializes the Max Pooling 2D layer.

        Args:
            kernel_size (int): Size of the pooling window.
            stride (int): Stride of the pooling window.
            padding (int): Padding to be applied before pooling.
            dilation (int): Spacing between kernel elements.
        """
        super(Model, self).__init__()
        self.maxpool = nn.MaxPool2d(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """
        Applies Max Pooling 2D to the input tensor.

        Args:
            x (torch.Tensor): Input tensor of shape (batch_size, channels, height, width).

        Returns:
            torch.Tensor: Output tensor after Max Pooling 2D, shape (batch_size, channels, pooled_height, pooled_width).
        """
        return self.maxpool(x)

batch_size = 32
channels = 64
height = 512
width = 512
kernel_size = 4
stride = 1
padding = 1
dilation = 1

def get_inputs():
    x = torch.rand(batch_size, channels, height, width)
    return [x]

def get_init_inputs():
    return [kernel_size, stride, padding, dilation]

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
