"""Conv2d 3x3 (32 -> 64 channels) -> eval-mode BatchNorm (running stats + affine) -> ReLU on 32 x 32 x 128 x 128."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 32
in_channels = 32
out_channels = 64
kernel_size = 3
height = 128
width = 128
eps = 1e-5


class Model(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, eps):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.eps = eps
        # BatchNorm in eval form: fixed running statistics plus a learned affine transform.
        self.register_buffer("running_mean", 0.1 * torch.randn(out_channels))
        self.register_buffer("running_var", 0.5 + torch.rand(out_channels))
        self.bn_weight = nn.Parameter(1.0 + 0.1 * torch.randn(out_channels))
        self.bn_bias = nn.Parameter(0.1 * torch.randn(out_channels))

    def forward(self, x):
        x = self.conv(x)
        x = F.batch_norm(x, self.running_mean, self.running_var, self.bn_weight, self.bn_bias,
                         training=False, eps=self.eps)
        return torch.relu(x)


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel_size, eps]

# =====================================================================================================
# hiera expert candidate (reference forward (eager)); strategy T.cudnn_benchmark.
# The task's source is above, verbatim; ModelNew subclasses its Model so the parameter names match.
# =====================================================================================================
import torch as _hiera_torch


def _hiera_clone(out):
    if isinstance(out, (tuple, list)):
        return type(out)(o.clone() if isinstance(o, _hiera_torch.Tensor) else o for o in out)
    return out.clone() if isinstance(out, _hiera_torch.Tensor) else out


class ModelNew(Model):
    """The reference forward unchanged: a valid baseline when nothing faster applies."""
