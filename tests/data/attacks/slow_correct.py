# Attack (far too slow): correct, but sleeps one second per call, 10000 times the reference's 0.1 ms;
# with a fixed 600 s limit it holds the evaluation for a minute or more. A trusted evaluator's limit,
# derived from the reference's time, ends it as timeout within seconds.
import time

import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        time.sleep(1.0)
        return torch.relu(x)
