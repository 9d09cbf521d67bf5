"""Comparing a candidate's outputs with the reference's, in the checker (checker.py).

Pure functions over tensors. `compare` returns a `Finding` (or None when the outputs agree) whose status
says how the outcome is classed. The checker never loads candidate code, so nothing can patch these; the
checks a runner makes on its own call (types, aliasing, unfinished work) are in runner.py.
"""

from __future__ import annotations

import math
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


def raw_bytes(t: torch.Tensor) -> torch.Tensor:
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


def _compare_exact(out: torch.Tensor, o_all: torch.Tensor, r_all: torch.Tensor, label: str,
                   spans: list[tuple[int, int]]) -> Finding | None:
    """Integer and bool outputs: every element equal, no tolerance. A relative float tolerance on an integer
    output (a cumulative sum, a count, an index) would pass results that are simply wrong: 1e-4 of a prefix
    sum of 4e8 forgives 40 000."""
    if o_all.dtype == r_all.dtype and _equal(o_all, r_all):
        return None  # the common case in one pass
    n_bad, worst, worst_diff = 0, 0, -1
    for a, b in spans:
        o = o_all[a:b].to(torch.int64)
        r = r_all[a:b].to(torch.int64)
        bad = o != r
        n = int(bad.sum())
        if n:
            n_bad += n
            diff = torch.where(bad, (o - r).abs(), torch.zeros_like(o))
            i = int(torch.argmax(diff))
            if int(diff[i]) > worst_diff:
                worst, worst_diff = a + i, int(diff[i])
        del o, r, bad
    if n_bad == 0:
        return None
    idx = list(torch.unravel_index(torch.tensor(worst), tuple(out.shape))) if out.dim() else []
    where = f"{label}[{', '.join(str(int(i)) for i in idx)}]"
    expected, got = int(r_all[worst]), int(o_all[worst])
    stats = ErrorStats(max_abs=float(worst_diff), max_rel=float(worst_diff) / max(abs(expected), 1), where=where,
                       expected=float(expected), got=float(got), mismatches=n_bad, total=o_all.numel())
    return Finding(Status.INCORRECT, f"mismatch: {n_bad} of {o_all.numel()} elements differ from the reference "
                                     f"({r_all.dtype} outputs are compared exactly); worst at {where}: expected "
                                     f"{expected}, got {got}", stats)


# The fast acceptance below works in the outputs' own precision, with its bounds tightened by this factor so
# that whatever it accepts the float64 rule accepts too: in float32 each quantity it computes (|out - ref|,
# |ref|, the bound, the root mean square over up to 2^31 elements summed pairwise) carries a relative error
# far under 1e-5, so an element it calls inside a bound 1e-4 narrower is inside the exact one.
_MARGIN = 1e-4
_FAST_DTYPES = (torch.float32, torch.float64)
# bf16 and fp16 outputs take the fast pass in float32, a quarter of FAST_CHUNK at a time (their own precision
# is far coarser than the margin): exact for the values, which widen to float32 without rounding.
_WIDENED = (torch.bfloat16, torch.float16)
FAST_CHUNK = 1 << 28  # elements per step of the fast pass: its temporaries stay near a GB


def _surely_within(o_all: torch.Tensor, r_all: torch.Tensor, tol: float, capped: bool,
                   slack: torch.Tensor | None = None) -> bool:
    """True when every element is certainly within the tolerance (and finite): the common case, judged in a
    few fused passes with one device sync, where the exact rule below takes float64 copies and dozens of
    syncs per chunk (on a 1.6 G-element output 0.2 s a comparison, 60 s of one task's verification on the
    H200). False means "not certain": the exact rule then decides and explains."""
    if o_all.dtype != r_all.dtype or o_all.dtype not in (*_FAST_DTYPES, *_WIDENED) or o_all.numel() == 0:
        return False
    widen = o_all.dtype in _WIDENED
    step = FAST_CHUNK // 4 if widen else FAST_CHUNK
    n = r_all.numel()
    # The reference's scale, its squares summed in float64 (a float32 sum of 10^9 squares can be far off on
    # the CPU); a NaN or Inf in it makes the scale non-finite, and the exact rule reports it.
    sq = torch.zeros((), dtype=torch.float64, device=r_all.device)
    for a in range(0, n, CHUNK):
        sq += r_all[a:a + CHUNK].to(torch.float64).square().sum()
    rms = float((sq / n).sqrt())
    if not math.isfinite(rms):
        return False
    scale = max(rms, 1e-6)
    atol = tol * (min(1.0, scale) if capped else scale) * (1 - _MARGIN)
    rtol = tol * (1 - _MARGIN)
    ok = torch.ones((), dtype=torch.bool, device=o_all.device)
    for a in range(0, n, step):
        o, r = o_all[a:a + step], r_all[a:a + step]
        if widen:
            o, r = o.float(), r.float()
        # |o - r| <= atol + rtol |r| (+ slack); NaN anywhere compares False, so it is never accepted here.
        bound = r.abs().mul_(rtol).add_(atol)
        if slack is not None:
            bound.add_(slack[a:a + step].to(bound.dtype), alpha=1 - _MARGIN)
        ok &= torch.le(torch.sub(o, r).abs_(), bound).all()
    return bool(ok)


def compare(out: torch.Tensor, ref: torch.Tensor, tol: float, label: str, capped: bool = True,
            slack: torch.Tensor | None = None) -> Finding | None:
    """|out - ref| <= atol + rtol * |ref| elementwise, with the worst element reported; NaN/Inf never pass.

    rtol = tol. atol = tol * min(1, scale), scale the output's root mean square: an absolute tolerance of
    1e-4 says nothing about an output whose every element is below 1e-4 (a softmax over 16384 columns in
    bf16 passed it), so the absolute term shrinks with the output's own scale. It never grows past tol
    (`capped`): whatever passes here passes KernelBench's atol = rtol = tol check too. Uncapped (the checker's
    off-distribution trials, on inputs scaled far from the task's own) it follows the scale both ways, so a
    trial on inputs a hundred times larger is no stricter than one on the task's own: rounding grows with
    the scale of what is summed.

    `slack` (elementwise, as many elements as the reference) widens the bound where the reference itself is
    ill-conditioned on these inputs (rounding.py: how far fp32 rounding moves each element); the checker
    gives it only to its off-distribution trials.

    Integer and bool outputs are compared exactly (`_compare_exact`).

    Computed in float64 on the tensors' own device (a GPU-sized output would take seconds to copy to the
    host), CHUNK elements at a time; only the few scalars of the report cross over.
    """
    o_all = _flat(out)
    r_all = _flat(ref).to(o_all.device)
    if o_all.numel() != r_all.numel():
        return Finding(Status.INCORRECT, f"{label} has {o_all.numel()} elements, the reference's "
                                         f"{r_all.numel()} (shape {tuple(out.shape)} against {tuple(ref.shape)})")
    if slack is not None:
        slack = _flat(slack).to(o_all.device)
        if slack.numel() != r_all.numel():
            slack = None
    if _surely_within(o_all, r_all, tol, capped, slack):
        return None
    spans = _spans(o_all.numel())
    if not (r_all.is_floating_point() or r_all.is_complex()):
        return _compare_exact(out, o_all, r_all, label, spans)
    return _compare_close(out, o_all, r_all, tol, label, spans, capped, slack)


def _compare_close(out: torch.Tensor, o_all: torch.Tensor, r_all: torch.Tensor, tol: float, label: str,
                   spans: list[tuple[int, int]], capped: bool, slack: torch.Tensor | None = None
                   ) -> Finding | None:
    """The tolerance rule of `compare` for floating-point outputs."""
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
        if slack is not None:
            bound = bound + slack[a:b].to(torch.float64)
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
        f"size{_slack_note(slack, worst)}); worst at {where}: expected "
        f"{stats.expected:.6g}, got {stats.got:.6g} (abs err {stats.max_abs:.3g}, rel {stats.max_rel:.3g})",
        stats,
    )


def _slack_note(slack: torch.Tensor | None, worst: int) -> str:
    if slack is None:
        return ""
    return f", plus {float(slack[worst]):.3g} there for how far rounding moves the reference on these inputs"
