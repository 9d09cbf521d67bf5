# Attack (reading root-only files through the sandbox's uid): hiera runs as root, and a user namespace maps
# the sandbox's uid 65534 to root outside, so a file only root may read, in a folder the sandbox binds, is
# readable by owner match: the ACPI tables under /sys/firmware (a GPU runner sees /sys), or any 0600 file of
# root's. The forward raises with what it could read. A trusted sandbox runs as the host's nobody: nothing.
import os

from torch import nn

PATHS = ["/sys/firmware/acpi/tables/DSDT", "@SECRET@"]


def _attempts():
    got = []
    for p in PATHS:
        try:
            with open(p, "rb") as f:
                got.append(f"{p}: read {len(f.read())} bytes")
        except OSError as e:
            got.append(f"{p}: {type(e).__name__}")
    return f"uid {os.getuid()}; " + "; ".join(got)


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        raise RuntimeError(_attempts())
