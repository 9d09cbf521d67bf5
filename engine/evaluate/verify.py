"""Comparing a candidate's outputs with the reference's, in the checker (checker.py).

Pure functions over tensors. `compare` returns a `Finding` (or None when the outputs agree) whose status
says how the outcome is classed. The checker never loads candidate code, so nothing can patch these; the
checks a runner makes on its own call (types, aliasing, unfinished work) are in runner.py.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from engine.evaluate.outcome import ErrorStats, Status

_equal = torch.equal
_isfinite = torch.isfinite
_Tensor = torch.Tensor


@dataclass(frozen=True)
class Finding:
    status: Status
    reason: str
    error: ErrorStats | None = None


def as_outputs(out: object) -> list[object]:
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _bytes(t: torch.Tensor) -> torch.Tensor:
    """The raw bytes of a tensor: compares NaN payloads and -0.0 exactly, unlike ==."""
    return t.detach().contiguous().reshape(-1).view(torch.uint8)


# Elements per step of a comparison: float64 temporaries of 256 MB. KernelBench's outputs reach 1.6 G
# elements; done whole, the half-dozen float64 temporaries of a comparison took 60 GB of the checker's
# device memory and ran it out.
CHUNK = 1 << 25


def _flat(t: torch.Tensor) -> torch.Tensor:
    return t.detach().reshape(-1)


def _spans(n: int) -> list[tuple[int, int]]:
    return [(a, min(n, a + CHUNK)) for a in range(0, n, CHUNK)]


def compare(out: torch.Tensor, ref: torch.Tensor, tol: float, label: str, capped: bool = True) -> Finding | None:
    """|out - ref| <= atol + rtol * |ref| elementwise, with the worst element reported; NaN/Inf never pass.

    rtol = tol. atol = tol * min(1, scale), scale the output's root mean square: an absolute tolerance of
    1e-4 says nothing about an output whose every element is below 1e-4 (a softmax over 16384 columns in
    bf16 passed it), so the absolute term shrinks with the output's own scale. It never grows past tol
    (`capped`): whatever passes here passes KernelBench's atol = rtol = tol check too. Uncapped (the checker's
    off-distribution trials, on inputs scaled far from the task's own) it follows the scale both ways, so a
    trial on inputs a hundred times larger is no stricter than one on the task's own: rounding grows with
    the scale of what is summed.

    Computed in float64 on the tensors' own device (a GPU-sized output would take seconds to copy to the
    host), CHUNK elements at a time; only the few scalars of the report cross over.
    """
    o_all = _flat(out)
    r_all = _flat(ref).to(o_all.device)
    if o_all.numel() != r_all.numel():
        return Finding(Status.INCORRECT, f"{label} has {o_all.numel()} elements, the reference's "
                                         f"{r_all.numel()} (shape {tuple(out.shape)} against {tuple(ref.shape)})")
    spans = _spans(o_all.numel())
    # One pass over the reference: is it finite, and its scale (the root mean square of its elements).
    squares = 0.0
    for a, b in spans:
        r = r_all[a:b].to(torch.float64)
        if not bool(_isfinite(r).all()):
            return Finding(Status.INCORRECT, f"the reference's {label} contains NaN or Inf on these inputs; "
                                             "the task's inputs are outside its domain")
        squares += float(r.square().sum())
    scale = max((squares / r_all.numel()) ** 0.5 if r_all.numel() else 0.0, 1e-6)
    atol = tol * (min(1.0, scale) if capped else scale)
    n_bad, all_finite, any_finite = 0, True, False
    max_abs, max_rel = 0.0, 0.0
    worst, worst_excess = 0, -float("inf")
    for a, b in spans:
        o = o_all[a:b].to(torch.float64)
        r = r_all[a:b].to(torch.float64)
        finite = _isfinite(o)
        diff = (o - r).abs()
        diff = torch.where(finite, diff, torch.full_like(diff, float("inf")))
        bound = atol + tol * r.abs()
        n_bad += int((diff > bound).sum())
        all_finite = all_finite and bool(finite.all())
        if diff.numel():
            max_abs = max(max_abs, float(diff.max()))
        if bool(finite.any()):
            any_finite = True
            rel = diff / r.abs().clamp_min(1e-12)
            max_rel = max(max_rel, float(rel[finite].max()))
        excess = torch.nan_to_num(diff - bound, nan=float("inf"))
        if excess.numel():
            i = int(torch.argmax(excess))
            if float(excess[i]) > worst_excess:  # strictly: the first of equal excesses, as argmax over the whole
                worst, worst_excess = a + i, float(excess[i])
        del o, r, finite, diff, bound, excess
    if n_bad == 0:
        return None
    idx = list(torch.unravel_index(torch.tensor(worst), tuple(out.shape))) if out.dim() else []
    where = f"{label}[{', '.join(str(int(i)) for i in idx)}]"
    stats = ErrorStats(
        max_abs=max_abs, max_rel=max_rel if any_finite else float("inf"),
        where=where, expected=float(r_all[worst]), got=float(o_all[worst]),
        mismatches=n_bad, total=o_all.numel(),
    )
    what = "NaN/Inf" if not all_finite else "mismatch"
    return Finding(
        Status.INCORRECT,
        f"{what}: {n_bad} of {o_all.numel()} elements outside rtol={tol:g}, atol={atol:.3g} (scaled to the output's "
        f"size); worst at {where}: expected "
        f"{stats.expected:.6g}, got {stats.got:.6g} (abs err {stats.max_abs:.3g}, rel {stats.max_rel:.3g})",
        stats,
    )
