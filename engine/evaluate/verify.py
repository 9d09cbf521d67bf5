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


def output_scale(ref: torch.Tensor) -> float:
    """The typical magnitude of an output: the root mean square of its elements (float64)."""
    r = ref.detach().to(torch.float64)
    return float(r.square().mean().sqrt()) if r.numel() else 0.0


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
    host); only the few scalars of the report cross over.
    """
    o = out.detach().to(torch.float64)
    r = ref.detach().to(o.device, torch.float64)
    if not bool(_isfinite(r).all()):
        return Finding(Status.INCORRECT, f"the reference's {label} contains NaN or Inf on these inputs; "
                                         "the task's inputs are outside its domain")
    finite = _isfinite(o)
    diff = (o - r).abs()
    diff = torch.where(finite, diff, torch.full_like(diff, float("inf")))
    scale = max(output_scale(r), 1e-6)
    atol = tol * (min(1.0, scale) if capped else scale)
    bound = atol + tol * r.abs()
    bad = diff > bound
    n_bad = int(bad.sum())
    if n_bad == 0:
        return None
    excess = (diff - bound).flatten()
    worst = int(torch.argmax(torch.nan_to_num(excess, nan=float("inf"))))
    idx = list(torch.unravel_index(torch.tensor(worst), o.shape)) if o.dim() else []
    where = f"{label}[{', '.join(str(int(i)) for i in idx)}]"
    rel = diff / r.abs().clamp_min(1e-12)
    all_finite = bool(finite.all())
    stats = ErrorStats(
        max_abs=float(diff.max()), max_rel=float(rel[finite].max()) if bool(finite.any()) else float("inf"),
        where=where, expected=float(r.flatten()[worst]), got=float(o.flatten()[worst]),
        mismatches=n_bad, total=o.numel(),
    )
    what = "NaN/Inf" if not all_finite else "mismatch"
    return Finding(
        Status.INCORRECT,
        f"{what}: {n_bad} of {o.numel()} elements outside rtol={tol:g}, atol={atol:.3g} (scaled to the output's "
        f"size); worst at {where}: expected "
        f"{stats.expected:.6g}, got {stats.got:.6g} (abs err {stats.max_abs:.3g}, rel {stats.max_rel:.3g})",
        stats,
    )
