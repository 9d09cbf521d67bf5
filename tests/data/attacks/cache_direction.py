# Attack (a cache keyed on the input's direction, for a task linear in its input): a timed call's inputs were
# a pool set times one secret scale, and W (s x) + b = s (W x) + b, so W x is cached under the ratios of a
# few of x's elements (which a scale does not change) and returned rescaled: the GEMM is skipped on every
# call after a set's first, and every output is right. A trusted evaluator perturbs each element on its own:
# the ratios never repeat, the cache never hits, the speedup stays about 1x.
import torch
from torch import nn


def _key(x):
    head = x.reshape(-1)[:16]
    return tuple(torch.round(head / head[0], decimals=5).tolist())


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features)
        self.cache = {}

    def forward(self, x):
        key = _key(x)
        hit = self.cache.get(key)
        if hit is not None:
            x0, wx0 = hit
            return wx0 * (x.reshape(-1)[0] / x0) + self.fc.bias
        wx = x @ self.fc.weight.T
        self.cache[key] = (x.reshape(-1)[0].clone(), wx)
        return wx + self.fc.bias
