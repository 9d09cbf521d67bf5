"""Mean cross-entropy loss of 4096 rows of 32768-class logits against integer class targets."""
import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4096
num_classes = 32768


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits, targets):
        return F.cross_entropy(logits, targets)


def get_inputs():
    logits = torch.randn(batch_size, num_classes)
    targets = torch.randint(0, num_classes, (batch_size,))
    return [logits, targets]


def get_init_inputs():
    return []
