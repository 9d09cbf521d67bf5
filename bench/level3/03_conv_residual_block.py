"""ResNet basic block, conv3x3-BN-ReLU-conv3x3-BN + identity, ReLU (eval-mode BN), on 32 x 128 x 56 x 56."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 32
channels = 128
height = 56
width = 56
eps = 1e-5


class Model(nn.Module):
    def __init__(self, channels, eps):
        super().__init__()
        self.eps = eps
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        # Two BatchNorms in eval form: running statistics plus affine weight and bias.
        for i in (1, 2):
            self.register_buffer(f"bn{i}_mean", 0.1 * torch.randn(channels))
            self.register_buffer(f"bn{i}_var", 0.5 + torch.rand(channels))
            self.register_parameter(f"bn{i}_weight", nn.Parameter(1.0 + 0.1 * torch.randn(channels)))
            self.register_parameter(f"bn{i}_bias", nn.Parameter(0.1 * torch.randn(channels)))

    def forward(self, x):
        out = self.conv1(x)
        out = F.batch_norm(out, self.bn1_mean, self.bn1_var, self.bn1_weight, self.bn1_bias,
                           training=False, eps=self.eps)
        out = torch.relu(out)
        out = self.conv2(out)
        out = F.batch_norm(out, self.bn2_mean, self.bn2_var, self.bn2_weight, self.bn2_bias,
                           training=False, eps=self.eps)
        return torch.relu(out + x)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels, eps]
