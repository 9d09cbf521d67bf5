# Attack (the host's disk, issue 42): its forward prints 256 MB to stdout, then fails. Where a runner's output
# went to a log file on the host's disk (its file-size limit 8 GB), that much landed there; a trusted evaluator
# keeps a small cap of it in memory, and the failure's last words still reach the reason.
import os

import torch
from torch import nn


class ModelNew(nn.Module):
    def forward(self, x):
        chunk = b"flood " * (1 << 17)  # 768 KiB
        for _ in range(350):
            os.write(1, chunk)
        raise RuntimeError("flooded its output")
