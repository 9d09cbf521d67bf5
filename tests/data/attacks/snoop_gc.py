# Attack (gc snooping): computes nothing of its own. Searches gc.get_objects() for a tensor that already
# holds the answer for its input (the reference's output, checked on 16 sampled elements) and returns a
# copy; failing that, finds the reference Model instance that has its own weights and calls it; failing
# both, returns zeros. A trusted evaluator keeps the reference and its outputs in a process the
# candidate cannot see: this candidate is incorrect.
import gc

import torch
from torch import nn


class ModelNew(nn.Module):
    def __init__(self, cols, scale):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(cols))
        self.scale = scale

    def _holds_answer(self, t, x):
        flat, cols = x.reshape(-1), x.shape[-1]
        idx = torch.linspace(0, flat.numel() - 1, 16, device=x.device).long()
        expected = torch.relu(flat[idx] * self.scale + self.bias[idx % cols])
        return torch.allclose(t.reshape(-1)[idx], expected, atol=1e-6)

    def _same_weights(self, model):
        # Each trial has its own reference (own seed, own weights): the one matching this candidate's.
        theirs = model.state_dict()
        return all(k in theirs and torch.equal(theirs[k], v) for k, v in self.state_dict().items())

    def forward(self, x):
        objects = gc.get_objects()
        for o in objects:
            if (type(o) is torch.Tensor and o.shape == x.shape and o.dtype == x.dtype and o.device == x.device
                    and o.data_ptr() != x.data_ptr() and self._holds_answer(o, x)):
                return o.clone()
        for o in objects:
            if isinstance(o, nn.Module) and type(o).__name__ == "Model" and self._same_weights(o):
                return o(x)
        return torch.zeros_like(x)
