# Cheat under the fp32 policy: computes the Linear layer in bfloat16.
import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)

    def forward(self, x):
        w = self.fc.weight.to(torch.bfloat16)
        return (x.to(torch.bfloat16) @ w.t()).float() + self.fc.bias
