"""An fp32 module whose forward runs under torch.autocast(bfloat16): Linear 256 -> 512, GELU, a residual scale."""
import torch
from torch import nn


class Model(nn.Module):
    def __init__(self, fin, fout):
        super().__init__()
        self.fc = nn.Linear(fin, fout)

    def forward(self, x):
        with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
            y = self.fc(x)
        return nn.functional.gelu(y.float()) * 0.5


def get_inputs():
    return [torch.randn(128, 256)]


def get_init_inputs():
    return [256, 512]
