# Attack (a cache across the secret scale, for a non-linear task): the rows' cosine similarities are the same
# for x and s x, so a timed call's result is looked up under the ratios of a few of x's elements (a scale
# does not change them) and the GEMM is skipped after each pool set's first call; every output is right. A
# trusted evaluator perturbs each element on its own: no lookup ever hits, the speedup stays about 1x.
import torch
from torch import nn


def _key(x):
    head = x.reshape(-1)[:16]
    return tuple(torch.round(head / head[0], decimals=5).tolist())


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.cache = {}

    def forward(self, x):
        key = _key(x)
        hit = self.cache.get(key)
        if hit is None:
            u = x / x.norm(dim=1, keepdim=True)
            hit = self.cache[key] = u @ u.T
        return hit.clone()
