"""The profile model: what Nsight Compute measured, per kernel and per source line, and what it means.

Plain frozen data that travels from the profiler (engine/profile/) to the loop, the store and the language
server as JSON (`Profile.to_json()`, the `profiles` table's rows). A metric ncu did not report is None: nothing
here is ever estimated or filled in.

Imports nothing beyond the standard library and contracts/: the language server reads stored profiles with
it without importing the engine (the profiler that fills it in is engine/profile/).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from contracts.vocabulary import strongest


@dataclass(frozen=True)
class RuleResult:
    """One piece of ncu's own advice (a rule message from the details page or the report)."""

    name: str  # rule identifier, e.g. "UncoalescedGlobalAccess"
    type: str  # OPT (an optimization), INF (information), WRN (warning), ERR
    message: str
    estimated_speedup_pct: float | None = None
    speedup_type: str | None = None  # "local" (this unit's time) or "global" (the whole kernel's)
    section: str | None = None

    def to_json(self) -> dict[str, Any]:
        return _plain(self)

    @staticmethod
    def from_json(d: dict[str, Any]) -> RuleResult:
        return _build(RuleResult, d)


@dataclass(frozen=True)
class KernelProfile:
    """One profiled kernel launch."""

    name: str
    duration_us: float | None = None
    sm_throughput_pct: float | None = None  # compute speed of light
    memory_throughput_pct: float | None = None  # the busiest memory unit's share of its peak
    dram_throughput_pct: float | None = None
    l1_hit_rate: float | None = None  # percent
    l2_hit_rate: float | None = None  # percent
    achieved_occupancy_pct: float | None = None
    theoretical_occupancy_pct: float | None = None
    occupancy_limiter: str | None = None  # registers | shared_mem | warps | blocks | barriers
    registers_per_thread: int | None = None
    shared_mem_per_block: int | None = None  # bytes, static + dynamic
    waves_per_sm: float | None = None
    block_size: int | None = None
    grid_size: int | None = None
    sm_count: int | None = None
    branch_efficiency_pct: float | None = None  # ncu prints 0 when no branch target was counted
    divergent_branch_targets: int | None = None
    active_threads_per_warp: float | None = None  # of 32; the lower of executed and predicated-on threads
    sectors_per_request_ld: float | None = None  # global loads; 4 is ideal for 4-byte accesses
    sectors_per_request_st: float | None = None
    bytes_per_sector_ld: float | None = None  # of 32: how much of each fetched global sector a load uses
    global_sectors: int | None = None  # L2 theoretical sectors of global accesses, and the ideal count
    global_sectors_ideal: int | None = None
    shared_bank_conflicts_ld: int | None = None
    shared_bank_conflicts_st: int | None = None
    shared_wavefronts_ld: int | None = None
    shared_wavefronts_st: int | None = None
    warp_stalls: dict[str, float] = field(default_factory=dict)  # reason -> cycles per issued instruction
    # PC-sampling warp samples over all of the kernel's source lines, counted before the profile keeps only
    # its top lines: what a line's share of the samples is of (None: no per-line data, or an older writer).
    line_stall_samples: int | None = None
    warp_cycles_per_issue: float | None = None
    tensor_pipe_pct: float | None = None
    fma_pipe_pct: float | None = None
    issue_slots_busy_pct: float | None = None
    flops_fp32: float | None = None  # fadd + fmul + 2 * ffma, thread-level, predicated on
    dram_bytes: float | None = None
    peak_flops_fp32: float | None = None  # per second
    peak_dram_bytes_per_s: float | None = None
    rules: tuple[RuleResult, ...] = ()

    @property
    def excessive_sector_fraction(self) -> float | None:
        """Share of global L2 sectors beyond what perfectly coalesced accesses would need."""
        if self.global_sectors and self.global_sectors_ideal is not None and self.global_sectors > 0:
            return max(0.0, (self.global_sectors - self.global_sectors_ideal) / self.global_sectors)
        return None

    @property
    def cache_reread_factor(self) -> float | None:
        """How many times the global bytes the kernel needs (ideal sectors) exceed what came from DRAM: data
        fetched again and again through L1/L2, which tiling on chip (shared memory, registers) would reuse."""
        if self.global_sectors_ideal and self.dram_bytes:
            return self.global_sectors_ideal * 32 / self.dram_bytes
        return None

    @property
    def bank_conflict_fraction(self) -> float | None:
        """Share of shared-memory wavefronts that were bank conflicts (extra replays)."""
        waves = (self.shared_wavefronts_ld or 0) + (self.shared_wavefronts_st or 0)
        conflicts = (self.shared_bank_conflicts_ld or 0) + (self.shared_bank_conflicts_st or 0)
        if self.shared_wavefronts_ld is None and self.shared_wavefronts_st is None:
            return None
        return min(1.0, conflicts / waves) if waves > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        d = _plain(self)
        d["rules"] = [r.to_json() for r in self.rules]
        return d

    @staticmethod
    def from_json(d: dict[str, Any]) -> KernelProfile:
        d = dict(d)
        d["rules"] = tuple(RuleResult.from_json(r) for r in d.get("rules", ()))
        d["warp_stalls"] = dict(d.get("warp_stalls") or {})
        return _build(KernelProfile, d)


@dataclass(frozen=True)
class LineFinding:
    """What happened at one source line of one kernel (from -lineinfo correlation)."""

    file: str
    line: int  # 1-based
    kernel: str
    stall_samples: dict[str, int] = field(default_factory=dict)  # stall reason -> warp samples here
    divergent_branches: int | None = None
    excessive_global_sectors: int | None = None
    excessive_shared_wavefronts: int | None = None
    instructions_executed: int | None = None
    text: str = ""  # the source line itself

    @property
    def samples(self) -> int:
        return sum(self.stall_samples.values())

    def top_stall(self) -> str | None:
        if not self.stall_samples:
            return None
        return max(sorted(self.stall_samples), key=lambda k: self.stall_samples[k])

    def to_json(self) -> dict[str, Any]:
        return _plain(self)

    @staticmethod
    def from_json(d: dict[str, Any]) -> LineFinding:
        d = dict(d)
        d["stall_samples"] = {k: int(v) for k, v in (d.get("stall_samples") or {}).items()}
        return _build(LineFinding, d)


@dataclass(frozen=True)
class Bottleneck:
    """The dominant bottleneck by ncu's own rules: the OPT rule with the highest estimated speedup."""

    rule: str
    direction: str | None  # the direction this rule maps to (None: no mapping)
    estimated_speedup_pct: float | None
    message: str
    kernel: str

    def to_json(self) -> dict[str, Any]:
        return _plain(self)

    @staticmethod
    def from_json(d: dict[str, Any]) -> Bottleneck:
        return _build(Bottleneck, d)


@dataclass(frozen=True)
class Profile:
    """A profiled candidate (or reference): its kernels, hot lines, and the C/P/M/R/T reading of them."""

    kernels: tuple[KernelProfile, ...]
    lines: tuple[LineFinding, ...] = ()
    scores: dict[str, float] = field(default_factory=dict)  # direction letter -> [0, 1]
    evidence: dict[str, list[str]] = field(default_factory=dict)  # direction letter -> evidence, strongest first
    bottleneck: Bottleneck | None = None
    roofline: dict[str, Any] = field(default_factory=dict)
    notices: tuple[str, ...] = ()
    target: str = ""  # what was profiled: a candidate file, or "reference"
    seconds: float | None = None  # wall time of the profiling run
    # How the collection went: kernels profiled, ncu's replay passes, where the seconds went (ncu_s, read_s,
    # and the profiled program's own timeline from its start: import_s, task_s, warmup_s, profiled_s).
    collection: dict[str, Any] = field(default_factory=dict)

    @property
    def total_us(self) -> float | None:
        known = [k.duration_us for k in self.kernels if k.duration_us is not None]
        return sum(known) if known else None

    def best_direction(self) -> str | None:
        """The letter of the highest-scoring direction (ties as the agents break them); None without signal."""
        if not self.scores or max(self.scores.values()) <= 0:
            return None
        return strongest(self.scores).value

    def to_json(self) -> dict[str, Any]:
        return {
            "kernels": [k.to_json() for k in self.kernels],
            "lines": [ln.to_json() for ln in self.lines],
            "scores": {k: round(v, 3) for k, v in self.scores.items()},
            "evidence": {k: list(v) for k, v in self.evidence.items()},
            "bottleneck": self.bottleneck.to_json() if self.bottleneck else None,
            "roofline": dict(self.roofline),
            "notices": list(self.notices),
            "target": self.target,
            "seconds": self.seconds,
            "collection": dict(self.collection),
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> Profile:
        return Profile(
            kernels=tuple(KernelProfile.from_json(k) for k in d.get("kernels", ())),
            lines=tuple(LineFinding.from_json(x) for x in d.get("lines", ())),
            scores={k: float(v) for k, v in (d.get("scores") or {}).items()},
            evidence={k: list(v) for k, v in (d.get("evidence") or {}).items()},
            bottleneck=Bottleneck.from_json(d["bottleneck"]) if d.get("bottleneck") else None,
            roofline=dict(d.get("roofline") or {}),
            notices=tuple(d.get("notices", ())),
            target=d.get("target", ""),
            seconds=d.get("seconds"),
            collection=dict(d.get("collection") or {}),
        )


def kernel_base(name: str) -> str:
    """'void foo<int>(float *, int)' -> 'foo<int>': the function name, as --kernel-name-base function gives."""
    s = name.strip()
    if s.startswith("void "):
        s = s[5:]
    depth = 0
    for i, ch in enumerate(s):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            return s[:i].strip()
    return s


def _plain(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields(obj):
        v = getattr(obj, f.name)
        out[f.name] = list(v) if isinstance(v, tuple) else (dict(v) if isinstance(v, dict) else v)
    return out


def _build(cls: Any, d: dict[str, Any]) -> Any:
    # Unknown keys are dropped (a newer writer), missing ones take their defaults (an older writer).
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in d.items() if k in names})
