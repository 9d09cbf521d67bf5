# Cheat: returns at once and fills the output from a thread afterwards (deferred work).
import threading
import time

import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        out = torch.zeros_like(x)

        def work():
            time.sleep(0.05)
            out.copy_(torch.relu(x))

        threading.Thread(target=work, daemon=True).start()
        return out
