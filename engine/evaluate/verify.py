"""Checks on one call of a candidate: output type and placement, aliasing, input mutation, closeness.

Pure functions over tensors, used inside the worker. Each returns a `Finding` (or None when the check
passes) whose status says how the outcome is classed: a wrong number is `incorrect`, a trick
(aliasing an input, a lazy subclass, mutated inputs, unfinished work) is `suspect`.

The functions used here are captured at import, before any candidate is loaded, so a candidate that
monkeypatches torch.allclose or the timer cannot change what the checks compute (see tamper.py).
"""

from __future__ import annotations

from collections.abc import Sequence
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


def check_output_objects(outs: Sequence[object], expected: Sequence[torch.Tensor] | None) -> Finding | None:
    """Type, count, shape, dtype, device and laziness of the candidate's outputs.

    With expected=None (the candidate ran before the reference) only the type checks apply.
    """
    if expected is not None and len(outs) != len(expected):
        return Finding(Status.INCORRECT, f"returned {len(outs)} outputs, the reference returns {len(expected)}")
    for i, o in enumerate(outs):
        label = f"output {i}" if len(outs) > 1 else "the output"
        if not isinstance(o, _Tensor):
            return Finding(Status.INCORRECT, f"{label} is a {type(o).__name__}, not a tensor")
        if type(o) is not _Tensor:
            return Finding(Status.SUSPECT,
                           f"{label} is a tensor subclass ({type(o).__name__}); lazy or deferred outputs "
                           "are not allowed: return a plain torch.Tensor holding the result")
        if o.is_meta or o.layout != torch.strided:
            return Finding(Status.SUSPECT, f"{label} has no real storage (meta or non-strided layout)")
        if expected is None:
            continue
        e = expected[i]
        if tuple(o.shape) != tuple(e.shape):
            return Finding(Status.INCORRECT, f"{label} has shape {tuple(o.shape)}, expected {tuple(e.shape)}")
        if o.dtype != e.dtype:
            return Finding(Status.INCORRECT, f"{label} has dtype {o.dtype}, expected {e.dtype}")
        if o.device != e.device:
            return Finding(Status.INCORRECT, f"{label} is on {o.device}, expected {e.device}")
    return None


def _storage_span(t: torch.Tensor) -> tuple[int, int]:
    s = t.untyped_storage()
    return s.data_ptr(), s.data_ptr() + s.nbytes()


def check_aliasing(outs: Sequence[torch.Tensor], owned: dict[str, torch.Tensor]) -> Finding | None:
    """An output must not share memory with an input, parameter or buffer."""
    for i, o in enumerate(outs):
        if o.numel() == 0:
            continue
        a0, a1 = _storage_span(o)
        for name, t in owned.items():
            if t.numel() == 0:
                continue
            b0, b1 = _storage_span(t)
            if a0 < b1 and b0 < a1:
                return Finding(Status.SUSPECT, f"output {i} shares memory with {name} (returns an input "
                                               "or a view of it instead of computing a new result)")
    return None


def _bytes(t: torch.Tensor) -> torch.Tensor:
    """The raw bytes of a tensor: compares NaN payloads and -0.0 exactly, unlike ==."""
    return t.detach().contiguous().reshape(-1).view(torch.uint8)


def check_unchanged(before: dict[str, torch.Tensor], after: dict[str, torch.Tensor]) -> Finding | None:
    """Inputs, parameters and buffers must be bitwise unchanged by the candidate."""
    for name, b in before.items():
        if not _equal(_bytes(after[name]), _bytes(b)):
            return Finding(Status.SUSPECT, f"the candidate modified {name} (inputs, parameters and "
                                           "buffers are read-only)")
    return None


def output_scale(ref: torch.Tensor) -> float:
    """The typical magnitude of an output: the root mean square of its elements (float64)."""
    r = ref.detach().to(torch.float64)
    return float(r.square().mean().sqrt()) if r.numel() else 0.0


def compare(out: torch.Tensor, ref: torch.Tensor, tol: float, label: str) -> Finding | None:
    """|out - ref| <= atol + rtol * |ref| elementwise, with the worst element reported; NaN/Inf never pass.

    rtol = tol. atol = tol * min(1, scale), scale the output's root mean square: an absolute tolerance of
    1e-4 says nothing about an output whose every element is below 1e-4 (a softmax over 16384 columns in
    bf16 passed it), so the absolute term shrinks with the output's own scale. It never grows past tol:
    whatever passes here passes KernelBench's atol = rtol = tol check too.

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
    atol = tol * min(1.0, max(output_scale(r), 1e-6))
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
