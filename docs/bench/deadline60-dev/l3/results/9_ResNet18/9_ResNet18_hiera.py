# The best of an optimize run (hiera run 20261206-030101-5dce): 0.85x against eager on cuda:0 (NVIDIA H100 80GB HBM3), slower than eager (1.1–1.3x slower at 95%, all of it below 1).
import torch
import torch.nn as nn
import torch.nn.functional as F

class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, in_channels, out_channels, stride=1, downsample=None):
        """
        :param in_channels: Number of input channels
        :param out_channels: Number of output channels
        :param stride: Stride for the first convolutional layer
        :param downsample: Downsample layer for the shortcut connection
        """
        super(BasicBlock, self).__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(out_channels, out_channels, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.downsample = downsample
        self.stride = stride

    def forward(self, x):
        """
        :param x: Input tensor, shape (batch_size, in_channels, height, width)
        :return: Output tensor, shape (batch_size, out_channels, height, width)
        """
        identity = x

        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)

        out = self.conv2(out)
        out = self.bn2(out)

        if self.downsample is not None:
            identity = self.downsample(x)

        out += identity
        out = self.relu(out)

        return out

class Model(nn.Module):
    def __init__(self, num_classes=1000):
        """
        :param num_classes: Number of output classes
        """
        super(Model, self).__init__()
        self.in_channels = 64

        self.conv1 = nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)

        self.layer1 = self._make_layer(BasicBlock, 64, 2, stride=1)
        self.layer2 = self._make_layer(BasicBlock, 128, 2, stride=2)
        self.layer3 = self._make_layer(BasicBlock, 256, 2, stride=2)
        self.layer4 = self._make_layer(BasicBlock, 512, 2, stride=2)

        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512 * BasicBlock.expansion, num_classes)

    def _make_layer(self, block, out_channels, blocks, stride=1):
        downsample = None
        if stride != 1 or self.in_channels != out_channels * block.expansion:
            downsample = nn.Sequential(
                nn.Conv2d(self.in_channels, out_channels * block.expansion, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(out_channels * block.expansion),
            )

        layers = []
        layers.append(block(self.in_channels, out_channels, stride, downsample))
        self.in_channels = out_channels * block.expansion
        for _ in range(1, blocks):
            layers.append(block(self.in_channels, out_channels))

        return nn.Sequential(*layers)

    def forward(self, x):
        """
        :param x: Input tensor, shape (batch_size, 3, height, width)
        :return: Output tensor, shape (batch_size, num_classes)
        """
        x = self.conv1(x)
        x = self.bn1(x)
        x = self.relu(x)
        x = self.maxpool(x)

        x = self.layer1(x)
        x = self.layer2(x)
        x = self.layer3(x)
        x = self.layer4(x)

        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        x = self.fc(x)

        return x

# Test code
batch_size = 2
num_classes = 1000
input_shape = (batch_size, 3, 224, 224)

def get_inputs():
    return [torch.rand(input_shape)]

def get_init_inputs():
    return [num_classes]

# =====================================================================================================
# hiera expert candidate (CUDA graph replay over torch.compile + cudnn.benchmark); strategy P.cuda_graph.
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
