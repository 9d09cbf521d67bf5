"""What each timed call's inputs are made of: a pool set, changed so that no call's inputs were seen before.

A candidate that caches its results needs a key that repeats. One secret scale per call is not enough: a
linear task's output follows its input's direction (cache on the direction, rescale), and a smooth one can
be interpolated across the scale. So every floating-point element gets its own factor, drawn in
[1 - NOISE, 1]: no direction, scale or fingerprint repeats, and any output kept from an earlier call is off by
far more than the tolerance. Shrinking only (never growing) keeps each element inside any domain that is
symmetric about zero or one-signed (acos's [-1, 1], log's x > 0). Integer and bool inputs, which a scale never
touched (an exact-bytes cache on them hit every time), are changed too where the reference accepts it:
repeated values (labels, random indices, masks) are drawn again in the same range (bool: with the same share
of True), distinct values (a permutation) are rotated, rows that are each sorted (offsets) are rotated as
rows; a sorted 1-d tensor, a tensor of one element, or one the reference fails on when changed is kept.

All of it runs on the tensors' device, in place, CHUNK elements at a time (no GB-sized temporaries), from a
generator seeded from os.urandom: the candidate can neither see nor recompute it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import torch

NOISE = 1.0 / 16  # each float element is multiplied by a factor in [1 - NOISE, 1]
CHUNK = 1 << 24  # elements per step (a 64 MB float32 temporary of noise)


@dataclass(frozen=True)
class Plan:
    """What is done to one tensor input on every call: noise | redraw | rotate | rotate_rows | keep."""

    kind: str
    why: str = ""  # for keep: the reason
    low: int = 0  # redraw: the range, inclusive
    high: int = 0
    p_true: float = 0.5  # redraw of a bool tensor


def _plan_for(x: torch.Tensor) -> Plan:
    if x.is_floating_point():
        return Plan("noise")
    if x.is_complex() or x.numel() < 2:
        return Plan("keep", "a single value" if x.numel() < 2 else "complex")
    flat = x.reshape(-1)
    if x.dtype == torch.bool:
        return Plan("redraw", p_true=float(flat.float().mean()))
    rows = x.reshape(x.shape[0], -1) if x.dim() > 1 else flat.reshape(1, -1)
    if rows.shape[1] > 1 and bool((rows[:, 1:] >= rows[:, :-1]).all()):
        # Sorted (offsets, boundaries, sorted indices): only whole rows may move.
        if x.dim() > 1 and x.shape[0] > 1 and not bool((rows == rows[:1]).all()):
            return Plan("rotate_rows")
        return Plan("keep", "sorted")
    if int(torch.unique(flat).numel()) == flat.numel():
        return Plan("rotate")  # distinct values (a permutation, unique indices) stay distinct
    return Plan("redraw", low=int(flat.min()), high=int(flat.max()))


def _describe(i: int, plan: Plan) -> str:
    what = {"noise": "scaled per element by independent factors in [1 - 1/16, 1]",
            "redraw": f"drawn again in [{plan.low}, {plan.high}]" if plan.low != plan.high or plan.high else
            "drawn again",
            "rotate": "rotated by a random offset", "rotate_rows": "its rows rotated by a random offset",
            "keep": f"kept ({plan.why})"}[plan.kind]
    return f"input {i} {what}"


class Perturber:
    """Writes one perturbed copy of a pool set into buffers, and can make the same copy again."""

    def __init__(self, base: Sequence[Any], device: torch.device, check: Callable[[list[Any]], bool]):
        """base: a pool set (its tensors decide each input's plan); check(inputs) -> whether the reference
        runs and stays finite on perturbed inputs (an integer change it fails on falls back to keep)."""
        self.device = device
        self.gen = torch.Generator(device=device)
        self.gen.manual_seed(int.from_bytes(os.urandom(8), "little") >> 1)
        tensors = [x for x in base if isinstance(x, torch.Tensor)]
        self.plans = [_plan_for(x) for x in tensors]
        if not check(self.make(base)):
            self.plans = [p if p.kind in ("noise", "keep") else Plan("keep", "the reference fails when it changes")
                          for p in self.plans]
            if not check(self.make(base)):
                self.plans = [p if p.kind == "keep" else Plan("keep", "the reference fails when it changes")
                              for p in self.plans]

    def describe(self) -> str:
        return "; ".join(_describe(i, p) for i, p in enumerate(self.plans))

    @property
    def changes_every_input(self) -> bool:
        return all(p.kind != "keep" for p in self.plans)

    def state(self) -> torch.Tensor:
        """The generator's state before a call's inputs are written: `make(base, state)` makes them again."""
        return self.gen.get_state()

    def restore(self, state: torch.Tensor) -> None:
        """The generator back at `state` (taken after a run of writes, before their inputs were made again)."""
        self.gen.set_state(state)

    def write(self, bufs: Sequence[torch.Tensor], base: Sequence[Any]) -> None:
        """bufs[i] = perturbed base tensors, in place."""
        for buf, x, plan in zip(bufs, [x for x in base if isinstance(x, torch.Tensor)], self.plans):
            self._apply(buf, x, plan)

    def make(self, base: Sequence[Any], state: torch.Tensor | None = None) -> list[Any]:
        """The inputs `write` made (from `state`), as new tensors beside the non-tensor inputs."""
        if state is not None:
            self.gen.set_state(state)
        it = iter(self.plans)
        out: list[Any] = []
        for x in base:
            if isinstance(x, torch.Tensor):
                y = torch.empty_like(x)
                self._apply(y, x, next(it))
                out.append(y)
            else:
                out.append(x)
        return out

    def _apply(self, buf: torch.Tensor, x: torch.Tensor, plan: Plan) -> None:
        if plan.kind == "keep":
            buf.copy_(x)
            return
        b, s = buf.reshape(-1), x.reshape(-1)
        n = s.numel()
        if plan.kind == "noise":
            for a in range(0, n, CHUNK):
                e = min(n, a + CHUNK)
                factor = torch.empty(e - a, dtype=x.dtype, device=x.device).uniform_(1 - NOISE, 1, generator=self.gen)
                torch.mul(s[a:e], factor, out=b[a:e])
            return
        if plan.kind == "redraw":
            if x.dtype == torch.bool:
                for a in range(0, n, CHUNK):
                    e = min(n, a + CHUNK)
                    draw = torch.empty(e - a, device=x.device).uniform_(0, 1, generator=self.gen)
                    torch.lt(draw, plan.p_true, out=b[a:e])
            else:
                b.random_(plan.low, plan.high + 1, generator=self.gen)
            return
        # A rotation by k: two slice copies, no temporary.
        rows = x.shape[0] if plan.kind == "rotate_rows" else n
        src = x.reshape(rows, -1)
        dst = buf.reshape(rows, -1)
        k = int(torch.randint(1, rows, (1,), generator=self.gen, device=x.device)) if rows > 1 else 0
        dst[: rows - k].copy_(src[k:])
        dst[rows - k:].copy_(src[:k])
