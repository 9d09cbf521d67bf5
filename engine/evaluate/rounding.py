"""How far fp32 rounding alone moves the reference's outputs, element by element, on one trial's inputs: the
slack the checker's off-distribution trials allow beyond the tolerance (verify.compare's `slack`).

Why: on inputs scaled by 100, sigmoid(a^T b * 0.5) has elements where a sum of terms of size 10^4 cancels to a
few units, and the sigmoid's slope carries the cancellation's rounding into an output whose own scale did not
grow. An honest fp32 kernel that only sums in another order than the reference then misses the tolerance
(16 of 200 trials on a 3x37x20 by 3x37x28 batch, measured; it showed once the trials' seeds became secret
and so differed from run to run). The slack is what rounding does at each element: the reference in float64,
and in float32 on its inputs moved by a relative 2^-22 (a rounding's size) PERTURBATIONS times; the largest
deviation of those from float64, times SLACK_FACTOR, capped at SLACK_CAP times the trial's absolute tolerance.
Well-conditioned elements get almost none (a saturated sigmoid, a relu, a plain sum); the errors of a cheat
(bf16 or TF32 arithmetic, a dropped term, a softmax without its maximum) are thousands of times a rounding
and still fail. The trials on the task's own inputs never get a slack (KernelBench's rule holds there).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import torch

SLACK_FACTOR = 4.0
# Times the absolute tolerance: an ill-conditioned element is forgiven this much at most (the case above needed
# up to 13x on its worst element).
SLACK_CAP = 30.0
PERTURBATIONS = 2
_EPS = 2.0 ** -22
# Inputs and outputs beyond this many elements get no slack (their float64 copies would take GBs); they keep
# the plain rule.
MAX_ELEMENTS = 1 << 26

Run = Callable[[torch.nn.Module, Sequence[Any]], list[torch.Tensor]]


def _fp32(x: Any) -> bool:
    return isinstance(x, torch.Tensor) and x.dtype == torch.float32


@torch.no_grad()
def reference_slack(ref: torch.nn.Module, inputs: Sequence[Any], expected: Sequence[torch.Tensor],
                    tols: Sequence[float], seed: int, run: Run) -> list[torch.Tensor | None]:
    """One slack per output (None where there is none: a non-fp32 output, a reference with half-precision
    inputs or parameters, one that cannot run in float64, or sizes past MAX_ELEMENTS). `run(module, inputs)`
    is the checker's own call of the reference; `tols` the outputs' tolerances."""
    none: list[torch.Tensor | None] = [None] * len(expected)
    floats = [x for x in inputs if isinstance(x, torch.Tensor) and x.is_floating_point()]
    params = [p for p in ref.parameters()] + [b for b in ref.buffers() if b.is_floating_point()]
    if (not any(e.dtype == torch.float32 for e in expected) or not all(_fp32(x) for x in floats + params)
            or sum(t.numel() for t in [*floats, *expected]) > MAX_ELEMENTS):
        return none
    try:
        exact = run(copy.deepcopy(ref).double(), [x.double() if _fp32(x) else x for x in inputs])
        if len(exact) != len(expected):
            return none
        moved_by = [(e.double() - x).abs() if e.dtype == torch.float32 and x.shape == e.shape else None
                    for e, x in zip(expected, exact)]
        device = floats[0].device if floats else torch.device("cpu")
        gen = torch.Generator(device=device).manual_seed(seed)
        for _ in range(PERTURBATIONS):
            moved = [x * (1 + (torch.rand(x.shape, generator=gen, device=x.device) * 2 - 1) * _EPS) if _fp32(x)
                     else x for x in inputs]
            for i, o in enumerate(run(ref, moved)):
                if moved_by[i] is not None and o.shape == exact[i].shape:
                    moved_by[i] = torch.maximum(moved_by[i], (o.double() - exact[i]).abs())
        del exact
    except (RuntimeError, TypeError, ValueError, NotImplementedError):  # OOM is a RuntimeError too
        return none
    out: list[torch.Tensor | None] = []
    for d, e, tol in zip(moved_by, expected, tols):
        if d is None or not bool(torch.isfinite(d).all()):
            out.append(None)
            continue
        scale = max(float(e.double().square().mean().sqrt()) if e.numel() else 0.0, 1e-6)
        out.append(d.mul_(SLACK_FACTOR).clamp_(max=SLACK_CAP * tol * scale).float())
    return out


@torch.no_grad()
def low_precision_slack(ref: torch.nn.Module, inputs: Sequence[Any], expected: Sequence[torch.Tensor],
                        tols: Sequence[float], run: Run) -> list[torch.Tensor | None]:
    """The bf16 and fp16 policies' slack: SLACK_FACTOR times how far the reference, as the module computes it,
    is from the same module in float64 on the same inputs, capped as above (None per output where it cannot
    be had: sizes past MAX_ELEMENTS, a module that does not run in float64).

    Why not the fp32 rule's perturbations: here the reference's own rounding is the large part. It rounds every
    intermediate to bf16 (2^-9 each) where a fused kernel keeps them in fp32, and where a trial's inputs make
    the output cancel, that difference alone can exceed the tolerance: a kernel more accurate than the reference
    would fail. The float64 run is the exact answer (autocast leaves float64 alone), so the slack is what the
    reference's own precision costs at each element; a sum kept in bf16 on the accumulation trial's inputs is
    off by hundreds of times the tolerance (accumulation.py), far past it."""
    none: list[torch.Tensor | None] = [None] * len(expected)
    floats = [x for x in inputs if isinstance(x, torch.Tensor) and x.is_floating_point()]
    if sum(t.numel() for t in [*floats, *expected]) > MAX_ELEMENTS:
        return none
    try:
        exact = run(copy.deepcopy(ref).double(),
                    [x.double() if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in inputs])
    except (RuntimeError, TypeError, ValueError, NotImplementedError):  # OOM is a RuntimeError too
        return none
    out: list[torch.Tensor | None] = []
    for e, x, tol in zip(expected, exact, tols):
        if not e.is_floating_point() or x.shape != e.shape:
            out.append(None)
            continue
        d = (e.double() - x).abs()
        if not bool(torch.isfinite(d).all()):
            out.append(None)
            continue
        scale = max(float(e.double().square().mean().sqrt()) if e.numel() else 0.0, 1e-6)
        out.append(d.mul_(SLACK_FACTOR).clamp_(max=SLACK_CAP * tol * scale).float())
    return out
