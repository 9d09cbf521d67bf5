# Attack (far too slow): correct, but sleeps three seconds per call, 30000 times the reference's 0.1 ms;
# with a fixed 600 s limit it holds the evaluation for minutes. A trusted evaluator's limit, derived from the
# reference's time, ends it as timeout within seconds. (One second once passed on a loaded 2-core machine,
# where the reference's fastest call read 5 ms and the limit, 0.75 s + 50x that, reached a second.)
import time

import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        time.sleep(3.0)
        return torch.relu(x)
