"""Inputs built to expose a sum kept at low precision: the checker's accumulation trial under the bf16 and fp16
policies (issue 43).

Why random inputs are not enough: a kernel that adds its terms in bf16 (packed-half FMAs over a few elements,
a warp's shuffles in __nv_bfloat162) loses about 2^-9 of each partial sum, and on the task's own inputs
(torch.rand's [0, 1), say) the output's own bf16 rounding is as large: such a kernel passes KernelBench's
1e-2 and then diverges where sums run long and cancel (training's gradients). So one trial gets inputs where
every sum cancels: each floating-point input x becomes

    (x - mean(x)) + B * s,   s = +1 on the first half and -1 on the second half of every dim (a product over
                              the dims; 0 on the middle index of an odd one, +1 on a dim of one),

with B = rms(x - mean) * 2^u, u drawn in [4, 6) from the trial's secret seed (and each dim's halves swapped at
random), rounded to the input's dtype. Summed along any dim (or several) the B terms cancel exactly: a
reference that accumulates in fp32 (PyTorch's reductions and matrix products on bf16 data do) keeps the
small parts, exactly where its partial sums stay below 2^24 ulps of B. A kernel that accumulates in bf16 drops
them: its partial sums reach (n/2) * B, whose ulp is B * n / 512, and the small parts are a sixteenth to a
sixty-fourth of B. Measured (docs, README's tolerance section): bf16 runs of 8 terms summed in fp32 over rows
of 4096 of torch.rand data read 0.78 of the tolerance on the task's own inputs and 150-250 times it on these;
fp32 accumulation in any order reads 0.

Where the reference leaves its domain on these (a log, a sqrt of the inputs), a weaker non-negative twin is
used: |x - mean|, plus B (2^3 to 2^4 times the rms) where every dim's sign above is +1: a bf16 running sum
that has reached (n/2) * B swamps the small terms after it, a few percent of the output (no cancellation,
so less margin than the first pattern).

All of it on the tensors' device, CHUNK elements at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

CHUNK = 1 << 24
# B = rms * 2^u, u uniform in this range, by pattern
EXPONENTS = {"cancelling": (4.0, 6.0), "non-negative": (3.0, 4.0)}
PATTERNS = ("cancelling", "non-negative")
WHAT = {"cancelling": "built to expose low-precision accumulation (values that cancel along every dim)",
        "non-negative": "built to expose low-precision accumulation (long non-negative sums that swamp small "
                        "terms)"}


def _stats(x: torch.Tensor) -> tuple[float, float]:
    """The mean and the root mean square about it, in float64, CHUNK elements at a time."""
    flat = x.detach().reshape(-1)
    n = flat.numel()
    s = torch.zeros((), dtype=torch.float64, device=x.device)
    for a in range(0, n, CHUNK):
        s += flat[a:a + CHUNK].to(torch.float64).sum()
    mean = float(s) / max(n, 1)
    q = torch.zeros((), dtype=torch.float64, device=x.device)
    for a in range(0, n, CHUNK):
        q += (flat[a:a + CHUNK].to(torch.float64) - mean).square().sum()
    return mean, (float(q) / max(n, 1)) ** 0.5


def _dim_signs(n: int, flip: bool, device: torch.device) -> torch.Tensor:
    """+1 on the first half, -1 on the second, 0 in the middle of an odd size; +1 for a dim of one."""
    s = torch.zeros(n, dtype=torch.float32, device=device)
    if n == 1:
        return s.fill_(1.0)
    h = n // 2
    s[:h] = -1.0 if flip else 1.0
    s[n - h:] = 1.0 if flip else -1.0
    return s


def build_one(x: torch.Tensor, pattern: str, gen: torch.Generator) -> torch.Tensor:
    """x rebuilt by `pattern` (module docstring): a new tensor of x's dtype, shape and device."""
    mean, rms = _stats(x)
    if rms == 0.0 or rms != rms:
        rms = 1.0
    lo, hi = EXPONENTS[pattern]
    u = lo + (hi - lo) * float(torch.rand((), generator=gen))
    big = float(torch.tensor(rms * 2.0 ** u, dtype=torch.float64).to(x.dtype))  # exact in x's dtype
    flips = torch.rand(max(x.dim(), 1), generator=gen) < 0.5
    shape = tuple(x.shape) if x.dim() else (1,)
    signs = [_dim_signs(n, bool(f), x.device) for n, f in zip(shape, flips)]
    out = torch.empty_like(x)
    src, dst = x.detach().reshape(-1), out.reshape(-1)
    wide = torch.float64 if x.dtype == torch.float64 else torch.float32
    n = src.numel()
    for a in range(0, n, CHUNK):
        b = min(n, a + CHUNK)
        idx = torch.arange(a, b, device=x.device, dtype=torch.int64)
        s = torch.ones(b - a, dtype=torch.float32, device=x.device)
        inner = 1
        for size, sign in zip(reversed(shape), reversed(signs)):
            s *= sign[(idx // inner) % size]
            inner *= size
        small = src[a:b].to(wide) - mean
        if pattern == "non-negative":
            small = small.abs_()
            s = s.clamp_(min=0.0)  # B on the all-positive orthant only: 0 elsewhere
        dst[a:b] = (small + big * s.to(wide)).to(x.dtype)
    return out


def build(inputs: Sequence[Any], pattern: str, gen: torch.Generator) -> list[Any]:
    """Every floating-point tensor input of two or more elements rebuilt by `pattern`; the rest unchanged."""
    return [build_one(x, pattern, gen) if isinstance(x, torch.Tensor) and x.is_floating_point() and x.numel() > 1
            else x for x in inputs]


def trial(inputs: Sequence[Any], gen: torch.Generator,
          run: Any) -> tuple[str, list[Any], list[torch.Tensor]] | None:
    """(what the inputs are, the inputs, the reference's outputs on them) for the first pattern on which the
    reference stays finite, or None when it leaves its domain on both. `run(inputs)` is the checker's own
    call of the reference."""
    for pattern in PATTERNS:
        built = build(inputs, pattern, gen)
        expected = run(built)
        if all(bool(torch.isfinite(e).all()) for e in expected if e.is_floating_point()):
            return WHAT[pattern], built, expected
    return None
