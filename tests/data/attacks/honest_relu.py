# Honest control for relu tasks: the batch's other verdicts must not depend on what the attackers did.
import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)
