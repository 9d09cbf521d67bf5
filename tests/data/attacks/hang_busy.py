# Attack (hang): ignores SIGTERM and SIGINT and spins forever in its first call. A trusted evaluator's
# per-candidate limit, derived from the reference's time (about 0.1 ms here), ends it as timeout within
# seconds, not minutes, kills it however it handles signals, and the batch goes on.
import signal

from torch import nn


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        while True:
            pass
