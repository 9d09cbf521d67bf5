# Honest: starts an idle worker thread on first use (as torch.compile and thread pools do) but computes
# its result before returning. Must not be mistaken for deferred work.
import threading

import torch
from torch import nn

_idle = threading.Event()


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()
        self.pool = None

    def forward(self, x):
        if self.pool is None:
            self.pool = threading.Thread(target=_idle.wait, daemon=True, name="idle-pool")
            self.pool.start()
        return torch.relu(x)
