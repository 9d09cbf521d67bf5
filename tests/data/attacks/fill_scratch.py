# Attack (filling the host's disk through the scratch): writes 64 MB files into its working folder until it
# has written @LIMIT_MB@ MB or a write fails, then raises with how much it wrote. Unsandboxed the scratch is
# a folder on the host's disk; a trusted sandbox makes it a memory file system of a fixed size (1 GB).
import os

from torch import nn

CHUNK = b"\x5a" * (64 << 20)


def _fill():
    written = 0
    try:
        while written < (@LIMIT_MB@ << 20):
            with open(f"fill-{written >> 26}.bin", "wb") as f:
                f.write(CHUNK)
            written += len(CHUNK)
        why = "no write failed"
    except OSError as e:
        why = os.strerror(e.errno) if e.errno else str(e)
    for name in os.listdir("."):
        if name.startswith("fill-"):
            os.unlink(name)
    return f"wrote {written >> 20} MB in {os.getcwd()} ({why})"


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        raise RuntimeError(_fill())
