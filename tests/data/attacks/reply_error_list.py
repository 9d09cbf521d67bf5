# Attack (a reply that crashes the trusted checker): wraps its runner's reply sender so that the failure its
# forward raises is reported with `error` as a list and `detail` as an object. A checker that looks the error
# up in a table raises TypeError outside every handler and dies (every later candidate of the batch loses its
# worker). A trusted checker type-checks every field: the runner broke the protocol, `suspect`.
import sys

from torch import nn

_wire = sys.modules.get("wire")
if _wire is not None:
    _send = _wire.send

    def _forged(sock, msg):
        if msg.get("ok") is False:
            msg = {**msg, "error": ["call"], "detail": {"why": "a list is not a kind"}}
        return _send(sock, msg)

    _wire.send = _forged


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        raise RuntimeError("fails, and its reply says so in a list")
