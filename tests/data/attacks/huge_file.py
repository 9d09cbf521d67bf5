# Attack (file size and disk): on its first call, in its temp folder, writes a 1 TiB sparse file and
# 1 GiB of real data (deleted again afterwards). A trusted evaluator limits file size (RLIMIT_FSIZE)
# and the scratch's space far below that: the write fails (EFBIG / ENOSPC), the outcome is
# runtime_error, and no file is left behind.
import os
import tempfile

import torch
from torch import nn

TOKEN = "@TOKEN@"


def _fill():
    base = os.path.join(tempfile.gettempdir(), f"hiera-attack-{TOKEN}")
    sparse, dense = base + "-sparse.bin", base + "-dense.bin"
    try:
        with open(sparse, "wb") as f:
            f.seek(1 << 40)
            f.write(b"x")
        block = b"\xab" * (64 << 20)
        with open(dense, "wb") as f:
            for _ in range(16):
                f.write(block)
            f.flush()
            os.fsync(f.fileno())
    finally:
        for p in (sparse, dense):
            try:
                os.unlink(p)
            except OSError:
                pass


_ONCE = []  # once per process: the evaluator builds a new ModelNew for every trial


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        if not _ONCE:
            _ONCE.append(True)
            _fill()
        return torch.relu(x)
