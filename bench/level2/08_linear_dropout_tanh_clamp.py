"""Linear 4096 -> 2048 -> Dropout(p=0, an identity) -> tanh -> clamp to [-0.5, 0.75]; batch 4096."""
import torch
import torch.nn as nn

batch_size = 4096
in_features = 4096
out_features = 2048
dropout_p = 0.0
clamp_min = -0.5
clamp_max = 0.75


class Model(nn.Module):
    def __init__(self, in_features, out_features, dropout_p, clamp_min, clamp_max):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.dropout = nn.Dropout(dropout_p)
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x):
        x = self.dropout(self.linear(x))
        x = torch.tanh(x)
        return torch.clamp(x, min=self.clamp_min, max=self.clamp_max)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features, dropout_p, clamp_min, clamp_max]
