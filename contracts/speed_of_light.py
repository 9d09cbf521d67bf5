"""Speed of light: a timed figure beside what this device could possibly do, typed once, with its words.

A figure's *speed of light* is the least time the task could take on this device: the bytes that must move at
least once over the measured memory ceilings, the FLOPs that must be done over the measured compute ceilings at
the precision allowed, and (on a GPU) the least time any timed call takes. `fraction = bound_ms / time_ms`:
1.0 is at the bound, 0.62 is "62% of speed of light". Which of the three is largest names the bound.

The bound is computed by the checker side (engine/evaluate/speed_of_light.py) from the task's operator graph and
the device's measured ceilings (engine/evaluate/ceilings.py), never from anything a candidate says; a candidate
timed faster than its bound beyond its own timing's spread is not credited there. This module holds only the
records that cross process boundaries (the run result, `hiera eval --json`, the editor) and the words for them.

Imports nothing beyond the standard library: the language server and the extension's protocol test read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

BOUNDS = ("memory", "compute", "launch")
# A best at this share of its bound stops spending budget: no round can gain more than the remaining 15%, and
# the bound itself is a lower bound (what it leaves out only makes the true limit slower, the share higher).
STOP_FRACTION = 0.85


@dataclass(frozen=True)
class SpeedOfLight:
    """One timed figure against its bound (docs/protocol.md, "speed_of_light")."""

    bound: str  # memory | compute | launch: which of the three lower bounds is largest
    bytes: int  # bytes that must move at least once (inputs read by value, outputs written)
    flops: int  # FLOPs that must be done (matrix products, reductions, pointwise), counted low where unsure
    ceiling: str  # the binding ceiling in words, e.g. "DRAM 3210 GB/s" or "fp32 FMA 61.2 TFLOP/s"
    fraction: float  # bound_ms / time_ms
    bound_ms: float = 0.0
    time_ms: float = 0.0
    # What the bound leaves out, said where it matters (e.g. "convolution FLOPs counted as 1x1 products").
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"bound": self.bound, "bytes": int(self.bytes), "flops": int(self.flops), "ceiling": self.ceiling,
                "fraction": float(self.fraction), "bound_ms": self.bound_ms, "time_ms": self.time_ms,
                "notes": list(self.notes)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any] | None) -> SpeedOfLight | None:
        """The record of a JSON object, or None for anything that is not one (an older engine wrote none)."""
        if not isinstance(d, Mapping) or d.get("bound") not in BOUNDS or not isinstance(d.get("fraction"),
                                                                                        (int, float)):
            return None
        return cls(str(d["bound"]), int(d.get("bytes") or 0), int(d.get("flops") or 0), str(d.get("ceiling") or ""),
                   float(d["fraction"]), float(d.get("bound_ms") or 0.0), float(d.get("time_ms") or 0.0),
                   tuple(str(n) for n in d.get("notes") or ()))

    @property
    def at_bound(self) -> bool:
        """At or above STOP_FRACTION of its bound: the search has nothing left worth a round."""
        return self.fraction >= STOP_FRACTION


def share_text(fraction: float) -> str:
    """62%, 0.4%, 107%: two significant figures under 10%."""
    pct = fraction * 100
    return f"{pct:.2g}%" if pct < 10 else f"{pct:.0f}%"


def phrase(sol: SpeedOfLight) -> str:
    """'62% of speed of light, memory-bound' — the figure's words in every view."""
    return f"{share_text(sol.fraction)} of speed of light, {sol.bound}-bound"


def quantity(n: float, unit: str) -> str:
    """1.34 GB, 512 kB, 3.2 GFLOP: the bytes or FLOPs of a bound in three significant figures."""
    for scale, prefix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(n) >= scale:
            return f"{n / scale:.3g} {prefix}{unit}"
    return f"{n:.0f} {unit}"


def duration(ms: float) -> str:
    return f"{ms * 1e3:.3g} us" if ms < 1 else f"{ms:.4g} ms"


def detail(sol: SpeedOfLight) -> str:
    """What the bound is made of: 'bound 0.954 ms: 3.07 GB at DRAM 3220 GB/s; 0 FLOP'."""
    return (f"bound {duration(sol.bound_ms)} ({sol.bound}): {quantity(sol.bytes, 'B')} and "
            f"{quantity(sol.flops, 'FLOP')}, at {sol.ceiling}")


# --- a device's measured ceilings ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Ceilings:
    """What one device can do, measured on it (engine/evaluate/ceilings.py) and cached per device.

    Rates count what a bound counts: bytes moved (a copy of n bytes moves 2n), FLOPs done (an FMA is two).
    None: not measured here (a CPU has no tensor cores; a GPU's launch floor has no CPU counterpart), and a bound
    that would need it is not computed from a guess."""

    key: str  # the device's identity in the cache (name, memory, threads)
    device: str  # in words: "cuda:0 (NVIDIA H100 80GB HBM3)"
    dram_gbps: float | None = None  # the fastest of a large copy, a large read and a large write
    cache_gbps: float | None = None  # a copy that stays in the last-level cache (GPU L2)
    cache_bytes: int | None = None  # that cache's size: written bytes up to it may never reach DRAM in a call
    flush_bytes: int | None = None  # what the timing's cache flush writes before each timed call
    fp32_gflops: float | None = None  # fp32 FMA on the vector/SIMT units (or SGEMM, whichever is faster)
    fp64_gflops: float | None = None  # fp64, the fastest of FMA and DGEMM (tensor-core DMMA on sm_80+)
    tf32_gflops: float | None = None  # TF32 tensor-core GEMM (the 3xTF32 split does three of these per product)
    bf16_gflops: float | None = None
    fp16_gflops: float | None = None
    launch_us: float | None = None  # the least time a timed call that runs anything on the GPU takes
    how: dict[str, str] = field(default_factory=dict)  # per ceiling: what was measured ("copy 1 GiB, best of 5")
    measured_at: str = ""  # ISO date of the measurement (the latest one merged in)
    seconds: float = 0.0  # what the measurement cost
    version: int = 1  # the measurement method's version: a cache of another version is measured again
    # Used as written, never measured again or merged into: ceilings set by hand (a datasheet's, a test's).
    pinned: bool = False

    RATES = ("dram_gbps", "cache_gbps", "fp32_gflops", "fp64_gflops", "tf32_gflops", "bf16_gflops", "fp16_gflops")

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any] | None) -> Ceilings | None:
        if not isinstance(d, Mapping) or not isinstance(d.get("key"), str):
            return None
        names = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in names}
        kw["how"] = dict(kw.get("how") or {})
        return cls(**kw)

    def merged(self, other: Ceilings) -> Ceilings:
        """The faster of each rate (the lower launch floor): a measurement taken while the machine was busy reads
        low, and a ceiling too low would make the bound too high — so measurements only ever raise a ceiling."""
        kw: dict[str, Any] = {}
        how = dict(self.how)
        for name in self.RATES:
            a, b = getattr(self, name), getattr(other, name)
            if b is not None and (a is None or b > a):
                kw[name] = b
                if name in other.how:
                    how[name] = other.how[name]
        if other.launch_us is not None and (self.launch_us is None or other.launch_us < self.launch_us):
            kw["launch_us"] = other.launch_us
            if "launch_us" in other.how:
                how["launch_us"] = other.how["launch_us"]
        return replace(self, **kw, how=how, measured_at=other.measured_at or self.measured_at,
                       cache_bytes=self.cache_bytes or other.cache_bytes,
                       flush_bytes=other.flush_bytes or self.flush_bytes)

    def rows(self) -> list[tuple[str, str, str]]:
        """(ceiling, value, how measured) for a table (`hiera doctor`, scripts/bench_ceilings.py)."""
        out = []
        for name, label, unit in (("dram_gbps", "memory (DRAM)", "GB/s"), ("cache_gbps", "cache-resident copy", "GB/s"),
                                  ("fp32_gflops", "fp32 FMA", "GFLOP/s"), ("fp64_gflops", "fp64", "GFLOP/s"),
                                  ("tf32_gflops", "TF32 tensor cores", "GFLOP/s"),
                                  ("bf16_gflops", "bf16 tensor cores", "GFLOP/s"),
                                  ("fp16_gflops", "fp16 tensor cores", "GFLOP/s"), ("launch_us", "launch floor", "us")):
            v = getattr(self, name)
            out.append((label, "not measured here" if v is None else f"{v:.4g} {unit}", self.how.get(name, "")))
        if self.cache_bytes:
            out.append(("cache size", quantity(self.cache_bytes, "B"), "the device's own report"))
        return out

    def summary(self) -> str:
        """One line: 'DRAM 3210 GB/s, cache 7400 GB/s, fp32 61.2 TFLOP/s, TF32 378 TFLOP/s, launch 2.1 us'."""
        parts = []
        for name, label, unit in (("dram_gbps", "memory", "GB/s"), ("cache_gbps", "cache", "GB/s"),
                                  ("fp32_gflops", "fp32", "GFLOP/s"), ("fp64_gflops", "fp64", "GFLOP/s"),
                                  ("tf32_gflops", "TF32", "GFLOP/s"), ("bf16_gflops", "bf16", "GFLOP/s"),
                                  ("fp16_gflops", "fp16", "GFLOP/s")):
            v = getattr(self, name)
            if v is not None:
                parts.append(f"{label} {v:.4g} {unit}")
        if self.launch_us is not None:
            parts.append(f"launch {self.launch_us:.3g} us")
        return ", ".join(parts) or "none measured"
