"""Where the reference's time goes, measured: its forward timed around each submodule on the run's device.

Runs in the checker (trusted: the reference is the user's own code, no candidate is involved), on the reference
and inputs the checker already holds. Each submodule down to MAX_DEPTH levels gets a forward pre-hook and a hook
that mark its start and end: CUDA events on the caller's stream on a GPU (so the figure is device time, launch gaps
included, as the reference's own timing is), the host clock on the CPU. A submodule called several times in one
forward (an RNN cell in a loop, a shared block) is summed over its calls. The medians over a few forwards are cut
into regions (contracts/regions.py): the top-level submodules, and any region holding more than DESCEND of the
forward split into its children, with what it does outside them as a region of its own.

The hooks add a little host time per submodule; the shares are what the planner needs (which region holds the
time), not figures to compare with a candidate's, and the run's timings never use them.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from typing import Any

import torch

from contracts.regions import OWN, Region, RegionTimes

MAX_DEPTH = 3  # submodules this many levels down are timed (a model's stages, their blocks, the blocks' layers)
MAX_MODULES = 400  # at most this many hooks (a deep model's leaves beyond them are counted in their parents)
CALLS = 5  # forwards measured after one warm-up, fewer when BUDGET_S runs out (at least one)
BUDGET_S = 4.0
DESCEND = 0.5  # a region holding more than this share of the forward is split into its children
MAX_REGIONS = 10  # the largest regions kept; the rest are folded into one


def _depth(name: str) -> int:
    return name.count(".") + 1


class _Marks:
    """Start and end marks per submodule for one forward: events on a GPU, the host clock on the CPU."""

    def __init__(self, device: torch.device) -> None:
        self.gpu = device.type == "cuda"
        self.spans: dict[str, list[tuple[Any, Any]]] = {}
        self.open: dict[str, list[Any]] = {}

    def mark(self) -> Any:
        if self.gpu:
            e = torch.cuda.Event(enable_timing=True)
            e.record()
            return e
        return time.perf_counter()

    def start(self, name: str) -> None:
        self.open.setdefault(name, []).append(self.mark())

    def end(self, name: str) -> None:
        stack = self.open.get(name)
        if stack:  # a hook whose pre-hook did not run (an exception inside) is dropped
            self.spans.setdefault(name, []).append((stack.pop(), self.mark()))

    def ms(self) -> dict[str, float]:
        if self.gpu:
            torch.cuda.synchronize()
            return {n: sum(a.elapsed_time(b) for a, b in s) for n, s in self.spans.items()}
        return {n: sum((b - a) * 1e3 for a, b in s) for n, s in self.spans.items()}


def timed_modules(model: torch.nn.Module) -> list[tuple[str, torch.nn.Module]]:
    found = [(n, m) for n, m in model.named_modules() if n and _depth(n) <= MAX_DEPTH]
    found.sort(key=lambda nm: _depth(nm[0]))  # shallow first: the cap drops the deepest
    return found[:MAX_MODULES]


@torch.no_grad()
def measure(model: torch.nn.Module, inputs: Sequence[Any], device: torch.device, calls: int = CALLS,
            budget_s: float = BUDGET_S) -> RegionTimes | None:
    """The reference's forward split into regions, or None for a module with no submodules (nothing to split)."""
    modules = timed_modules(model)
    if not modules:
        return None
    marks = _Marks(device)
    handles = []
    for name, m in modules:
        handles.append(m.register_forward_pre_hook(lambda _m, _a, name=name: marks.start(name)))
        handles.append(m.register_forward_hook(lambda _m, _a, _o, name=name: marks.end(name)))
    per_call: list[dict[str, float]] = []
    totals: list[float] = []
    try:
        t0 = time.perf_counter()
        for i in range(calls + 1):
            marks.spans, marks.open = {}, {}
            marks.start("")
            model(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
            marks.end("")
            got = marks.ms()
            # The first forward warms up (allocator, cuDNN's algorithm choice, lazy loads); it is the only one when
            # it alone took the budget (a 4 s LSTM forward on a busy 2-core CPU).
            if i > 0 or time.perf_counter() - t0 > budget_s:
                totals.append(got.pop("", 0.0))
                per_call.append(got)
            if time.perf_counter() - t0 > budget_s:
                break
    finally:
        for h in handles:
            h.remove()
    total = statistics.median(totals)
    if total <= 0:
        return None
    ms = {name: statistics.median(c.get(name, 0.0) for c in per_call) for name, _ in modules}
    kinds = {name: type(m).__name__ for name, m in modules}
    return RegionTimes(total, _cut(ms, kinds, total), "cuda events around each submodule" if marks.gpu
                       else "host clock around each submodule", len(totals))


def _children(name: str, ms: dict[str, float]) -> list[str]:
    prefix = name + "." if name else ""
    return [n for n in ms if n.startswith(prefix) and _depth(n) == (_depth(name) + 1 if name else 1)]


def _cut(ms: dict[str, float], kinds: dict[str, str], total: float) -> tuple[Region, ...]:
    """The regions: top-level submodules, any holding more than DESCEND split into its children (and what it
    does outside them), largest first; the forward's own operators outside them all as OWN."""
    cut: dict[str, tuple[str, float]] = {n: (kinds[n], ms[n]) for n in _children("", ms)}
    own = total - sum(v for _, v in cut.values())
    if own > 0.01 * total:
        cut[OWN] = ("", own)
    while True:
        big = [n for n, (_k, v) in cut.items() if v > DESCEND * total and n in ms and _children(n, ms)]
        if not big:
            break
        n = big[0]
        kind, v = cut.pop(n)
        kids = _children(n, ms)
        for k in kids:
            cut[k] = (kinds[k], ms[k])
        outside = v - sum(ms[k] for k in kids)
        if outside > 0.01 * total:
            cut[f"{n} (outside its submodules)"] = (kind, outside)
    ranked = sorted(cut.items(), key=lambda kv: -kv[1][1])
    regions = [Region(n, k, v, min(v / total, 1.0)) for n, (k, v) in ranked[:MAX_REGIONS]]
    rest = ranked[MAX_REGIONS:]
    if rest:
        v = sum(x for _, (_k, x) in rest)
        regions.append(Region(f"({len(rest)} other regions)", "", v, min(v / total, 1.0)))
    return tuple(regions)
