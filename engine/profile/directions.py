"""Hardware metrics -> the five HIERA directions (C, P, M, R, T), each score with its evidence.

Each kernel yields signals: (direction, strength in [0, 1], evidence). A direction's score for a kernel is
its strongest signal; the profile's score weights kernels by their share of the time (Amdahl: a perfect
fix to a kernel that takes 5% of the time is worth at most 5%). Signals come from two places:

- the metrics themselves (sectors per request, bank conflicts, occupancy, divergence, stalls, pipes), with
  thresholds taken from ncu's own rules where it has one (the rule scripts beside its section files, e.g.
  sections/UncoalescedAccess.py, SharedMemoryConflicts.py);
- ncu's OPT rule results, mapped to a direction, with the rule's estimated speedup as the strength.

Some symptoms have more than one possible cause, and the mapping picks by the other metrics:
- waiting on global memory (long_scoreboard) is R when the same data is fetched again and again through
  L1/L2 (tile it on chip), M when the accesses are uncoalesced, P when too few warps are resident to hide
  the latency, and R (reuse, pipelining) otherwise (contracts/stalls.py, with the other stall reasons'
  directions: the per-line findings use the same mapping);
- a busy instruction pipeline is a T problem only once the warps are not divergent: masked-off lanes
  waste issue slots first (C).

The dominant bottleneck by ncu's own rules (the OPT rule with the highest time-weighted estimated speedup)
is kept apart from the scores, so the loop can compare it with the direction the SSDA chose.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contracts.profile import Bottleneck, KernelProfile, LineFinding, RuleResult
from contracts.stalls import STALL_DIRECTIONS, memory_wait_direction, rereads
from contracts.vocabulary import DIRECTION_LETTERS


@dataclass(frozen=True)
class Signal:
    direction: str
    strength: float
    text: str


def _clamp(x: float) -> float:
    return max(0.0, min(1.0, x))


def _frac(pct: float | None) -> float:
    return _clamp((pct or 0.0) / 100.0)


def _fmt_count(n: float) -> str:
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(n) >= div:
            return f"{n / div:.1f}{suffix}"
    return f"{n:.0f}"


def _at(line: LineFinding | None) -> str:
    if line is None:
        return ""
    text = f" `{line.text[:60]}`" if line.text else ""
    return f" at line {line.line} ({Path(line.file).name}){text}"


# --- kernel context -----------------------------------------------------------------------------------------

def stall_share(k: KernelProfile, reason: str) -> float:
    """A stall reason's share of the cycles warps spend not issuing (the 'selected' state is issuing)."""
    total = sum(v for r, v in k.warp_stalls.items() if r != "selected")
    return k.warp_stalls.get(reason, 0.0) / total if total > 0 else 0.0


def active_fraction(k: KernelProfile) -> float:
    return _clamp((k.active_threads_per_warp or 32.0) / 32.0)


def dominant_stall_direction(k: KernelProfile) -> str | None:
    stalls = {r: v for r, v in k.warp_stalls.items() if r != "selected"}
    if not stalls:
        return None
    top = max(sorted(stalls), key=lambda r: stalls[r])
    return memory_wait_direction(k) if top == "long_scoreboard" else STALL_DIRECTIONS.get(top)


# --- ncu rules -> directions ----------------------------------------------------------------------------------

RULE_DIRECTIONS = {
    "UncoalescedGlobalAccess": "M", "UncoalescedSharedAccess": "M", "SharedMemoryConflicts": "M",
    "MemoryCacheAccessPattern": "M", "ThreadDivergence": "C", "TheoreticalOccupancy": "P",
    "AchievedOccupancy": "P", "LaunchConfiguration": "P", "WorkloadImbalance": "P",
    "SlowPipeLimiter": "T", "FPInstructions": "T",
}
# CPIStall names one stall reason per message; these phrases from its fixed advice identify it.
_CPI_PHRASES = (
    ("scoreboard dependency on a l1tex", "long_scoreboard"),
    ("l1 instruction queue for local and global", "lg_throttle"),
    ("mio (memory input/output) instruction queue", "mio_throttle"), ("dependency on a mio", "short_scoreboard"),
    ("execution pipe to be available", "math_pipe_throttle"), ("fixed latency execution dependency", "wait"),
    ("cta barrier", "barrier"), ("branch target to be computed", "branch_resolving"),
    ("fetch an instruction", "no_instruction"), ("after exit waiting for all memory", "drain"),
    ("memory barrier", "membar"), ("dispatch stall", "dispatch_stall"), ("texture operations", "tex_throttle"),
)


def cpi_stall_reason(message: str) -> str | None:
    low = message.lower()
    return next((reason for phrase, reason in _CPI_PHRASES if phrase in low), None)


def rule_direction(rule: RuleResult, k: KernelProfile) -> tuple[str | None, bool]:
    """(direction, whether it is a scoring signal). Generic latency rules name a direction but score none:
    the stall signals they summarize already count."""
    if rule.name in RULE_DIRECTIONS:
        return RULE_DIRECTIONS[rule.name], True
    low = rule.message.lower()
    if rule.name == "CPIStall":
        reason = cpi_stall_reason(rule.message)
        if reason == "long_scoreboard":
            return memory_wait_direction(k), True
        return (STALL_DIRECTIONS.get(reason), True) if reason else (None, False)
    if rule.name == "HighPipeUtilization":
        # "All compute pipelines are under-utilized" is a latency symptom, not a pipe limit.
        if "under-utilized" in low or "underutilized" in low:
            return dominant_stall_direction(k), False
        return "T", True
    if rule.name == "IssueSlotUtilization":
        return dominant_stall_direction(k), False
    if rule.name == "SOLBottleneck":
        if "grid" in low and ("small" in low or "wave" in low):
            return "P", True
        if "memory is more heavily utilized" in low or "high memory throughput" in low:
            return memory_wait_direction(k), True
        if "compute is more heavily utilized" in low or "high compute throughput" in low:
            return "T", True
        return dominant_stall_direction(k), False
    return None, False


def _rule_signals(k: KernelProfile) -> list[Signal]:
    out = []
    for r in k.rules:
        if r.type != "OPT" or not r.estimated_speedup_pct:
            continue
        d, scored = rule_direction(r, k)
        if d is None or not scored:
            continue
        # Local estimates speak for one unit of the chip, not the kernel: trust them less.
        s = _frac(r.estimated_speedup_pct) * (0.8 if r.speedup_type == "local" else 1.0)
        if d == "P":
            s *= 1.0 - 0.6 * _frac(k.issue_slots_busy_pct)  # more warps do not help a kernel issuing every cycle
        if d == "T":
            s *= active_fraction(k)
        out.append(Signal(d, s, f"ncu {r.name}: est. {r.estimated_speedup_pct:.0f}% speedup: {r.message[:140]}"))
    return out


# --- metrics -> signals -------------------------------------------------------------------------------------

def _pick(lines: Sequence[LineFinding], value: Callable[[LineFinding], float],
          own: Collection[str]) -> LineFinding | None:
    """The line with the most of something, from the user's own files when any of them has some."""
    hits = [ln for ln in lines if value(ln) > 0]
    mine = [ln for ln in hits if ln.file in own]
    pool = mine or hits
    return max(pool, key=value) if pool else None


def kernel_signals(k: KernelProfile, lines: Sequence[LineFinding] = (), own: Collection[str] = ()) -> list[Signal]:
    """own: the files the user edits (the candidate's .cu); evidence names their lines before headers'."""
    lines = [ln for ln in lines if ln.kernel == k.name]

    def worst(counter: str) -> LineFinding | None:
        return _pick(lines, lambda ln: getattr(ln, counter) or 0, own)

    def most_stalled(reason: str) -> LineFinding | None:
        return _pick(lines, lambda ln: ln.stall_samples.get(reason, 0), own)

    sig: list[Signal] = []
    issue = _frac(k.issue_slots_busy_pct)
    active = active_fraction(k)
    mem_relevance = 0.5 + 0.5 * max(_frac(k.memory_throughput_pct), _frac(k.dram_throughput_pct))
    compute_relevance = 0.4 + 0.6 * max(_frac(k.sm_throughput_pct), issue)

    # M: global coalescing. The L2 sector excess is exact; sectors/request assumes 4-byte accesses.
    ex = k.excessive_sector_fraction
    spr = k.sectors_per_request_ld
    spr_text = f"{spr:.1f} sectors/request for global loads (ideal 4 for 4-byte accesses)" if spr else ""
    if k.bytes_per_sector_ld is not None and k.bytes_per_sector_ld < 31.5:
        spr_text += (", " if spr_text else "") + f"{k.bytes_per_sector_ld:.1f} of 32 bytes used per loaded sector"
    if ex is not None and ex >= 0.1:
        parts = [p for p in (spr_text, f"{ex:.0%} of global L2 sectors are excess (uncoalesced)") if p]
        sig.append(Signal("M", ex * mem_relevance,
                          "; ".join(parts) + _at(worst("excessive_global_sectors"))))
    elif ex is None and spr is not None and spr > 4.5:
        sig.append(Signal("M", _clamp((spr - 4) / 28) * 0.8 * mem_relevance,
                          spr_text + _at(worst("excessive_global_sectors"))))
    # M: shared-memory bank conflicts (ncu's rule fires at 10% of wavefronts).
    bc = k.bank_conflict_fraction
    if bc is not None and bc >= 0.1:
        conflicts = (k.shared_bank_conflicts_ld or 0) + (k.shared_bank_conflicts_st or 0)
        waves = (k.shared_wavefronts_ld or 0) + (k.shared_wavefronts_st or 0)
        sig.append(Signal("M", bc * mem_relevance,
                          f"shared-memory bank conflicts: {_fmt_count(conflicts)} of {_fmt_count(waves)} shared "
                          f"wavefronts ({bc:.0%})" + _at(worst("excessive_shared_wavefronts"))))

    # P: occupancy and grid size.
    theo, ach = k.theoretical_occupancy_pct, k.achieved_occupancy_pct
    if theo is not None and theo < 50:
        details = [f"{k.registers_per_thread} registers/thread" if k.registers_per_thread is not None else "",
                   f"{k.shared_mem_per_block / 1024:.0f} KiB shared memory/block" if k.shared_mem_per_block else "",
                   f"{k.block_size} threads/block" if k.block_size else ""]
        limiter = f"limited by {k.occupancy_limiter}: " if k.occupancy_limiter else ""
        sig.append(Signal("P", (1 - theo / 100) * (1 - 0.6 * issue),
                          f"theoretical occupancy {theo:.1f}% ({limiter}{', '.join(d for d in details if d)})"))
    if theo is not None and ach is not None and theo - ach > 20:
        sig.append(Signal("P", (theo - ach) / 100 * 0.8,
                          f"achieved occupancy {ach:.0f}% of a theoretical {theo:.0f}%: uneven warps or a partial "
                          "last wave leave SMs idle"))
    if k.grid_size is not None and k.sm_count and k.grid_size < k.sm_count:
        sig.append(Signal("P", 1 - k.grid_size / k.sm_count,
                          f"grid of {k.grid_size} blocks for {k.sm_count} SMs: most SMs have no work"))
    elif k.waves_per_sm is not None and k.waves_per_sm < 1:
        sig.append(Signal("P", (1 - k.waves_per_sm) * 0.9,
                          f"{k.waves_per_sm:.2f} waves per SM: the grid does not fill the GPU once"))
    barrier = stall_share(k, "barrier")
    if barrier >= 0.3:
        sig.append(Signal("P", barrier * 0.7, f"{barrier:.0%} of stall cycles at block barriers (__syncthreads)"))

    # C: divergence and predication.
    if k.active_threads_per_warp is not None and k.active_threads_per_warp < 28:
        sig.append(Signal("C", (1 - active) * compute_relevance,
                          f"{k.active_threads_per_warp:.1f} of 32 threads active per warp instruction (divergent "
                          "branches or predication)" + _at(worst("divergent_branches"))))
    # ncu reports 0% branch efficiency when it counted no branch targets: only divergence makes it evidence.
    if k.branch_efficiency_pct is not None and k.branch_efficiency_pct < 90 and (k.divergent_branch_targets or 0) > 0:
        sig.append(Signal("C", (1 - k.branch_efficiency_pct / 100) * compute_relevance,
                          f"branch efficiency {k.branch_efficiency_pct:.0f}%"
                          + _at(worst("divergent_branches"))))

    # R / M / P: warps waiting on global memory.
    long_sb = stall_share(k, "long_scoreboard")
    if long_sb >= 0.2:
        d = memory_wait_direction(k)
        per_issue = k.warp_stalls.get("long_scoreboard", 0.0)
        text = (f"{long_sb:.0%} of stall cycles wait on global memory (long_scoreboard, {per_issue:.1f} cycles per "
                "instruction)" + _at(most_stalled("long_scoreboard")))
        if d == "R":
            occ = min(1.0, (ach or 50.0) / 40.0)
            if rereads(k):
                why = (f" while the kernel reads its global data {k.cache_reread_factor:.0f}x over through L1/L2: "
                       "tile it in shared memory or registers")
                coalesced = 1.0
            else:
                why = " with coalesced accesses: stage tiles on chip or pipeline the loads (cp.async, double buffers)"
                coalesced = 1 - (ex or 0.0)
            sig.append(Signal("R", long_sb * coalesced * occ * (1 - 0.7 * issue), text + why))
        elif d == "P":
            sig.append(Signal("P", long_sb * 0.8, text + f" with only {ach:.0f}% achieved occupancy to hide it"))
        else:
            sig.append(Signal("M", long_sb * 0.8, text + " on uncoalesced or conflicting accesses"))
    dram = _frac(k.dram_throughput_pct)
    if dram >= 0.4:
        l2 = _frac(k.l2_hit_rate)
        sig.append(Signal("R", dram * (1 - 0.5 * l2) * (1 - (ex or 0.0)),
                          f"DRAM at {dram:.0%} of peak"
                          + (f", L2 hit rate {l2:.0%}" if k.l2_hit_rate is not None else "")
                          + ": the kernel streams from memory; fuse or tile for on-chip reuse"))

    # T: tensor cores and the instruction pipeline (discounted by divergence: C comes first).
    fma, tensor = _frac(k.fma_pipe_pct), _frac(k.tensor_pipe_pct)
    if fma >= 0.25 and tensor < 0.05:
        sig.append(Signal("T", fma * active,
                          f"FP32 FMA pipe {fma:.0%} busy while the tensor pipes are {tensor:.0%}: matrix math on CUDA "
                          "cores (MMA on tensor cores, TF32/FP16/BF16 where the precision allows, is far faster)"))
    if issue >= 0.6:
        sig.append(Signal("T", (issue - 0.4) / 0.6 * active,
                          f"issue slots {issue:.0%} busy: the instruction stream is the limit (fewer, wider or "
                          "tensor-core instructions)"))
    math = stall_share(k, "math_pipe_throttle")
    if math >= 0.2:
        sig.append(Signal("T", math * active, f"{math:.0%} of stall cycles wait for a busy math pipe"))

    sig += _rule_signals(k)
    return [Signal(s.direction, _clamp(s.strength), s.text) for s in sig if s.strength > 0.005]


# --- whole profile ---------------------------------------------------------------------------------------------

def _weights(kernels: Sequence[KernelProfile]) -> list[float]:
    durations = [k.duration_us for k in kernels]
    if kernels and all(d is not None and d > 0 for d in durations):
        total = sum(durations)  # type: ignore[arg-type]
        return [d / total for d in durations]  # type: ignore[operator]
    return [1.0 / len(kernels)] * len(kernels) if kernels else []


def score(kernels: Sequence[KernelProfile], lines: Sequence[LineFinding] = (), own: Collection[str] = ()
          ) -> tuple[dict[str, float], dict[str, list[str]]]:
    """Scores in [0, 1] for every direction and their evidence, strongest first."""
    weights = _weights(kernels)
    scores = dict.fromkeys(DIRECTION_LETTERS, 0.0)
    ranked: dict[str, list[tuple[float, str]]] = {d: [] for d in DIRECTION_LETTERS}
    many = len(kernels) > 1
    for k, w in zip(kernels, weights):
        best: dict[str, float] = {}
        for s in kernel_signals(k, lines, own):
            best[s.direction] = max(best.get(s.direction, 0.0), s.strength)
            where = f"[{k.name}, {w:.0%} of time] " if many else ""
            ranked[s.direction].append((w * s.strength, f"{s.direction} {s.strength:.2f}: {where}{s.text}"))
        for d, v in best.items():
            scores[d] += w * v
    evidence = {d: [t for _, t in sorted(ranked[d], key=lambda x: -x[0])[:4]] for d in DIRECTION_LETTERS}
    return {d: round(_clamp(v), 3) for d, v in scores.items()}, evidence


def bottleneck(kernels: Sequence[KernelProfile]) -> Bottleneck | None:
    """ncu's own verdict: the OPT rule with the largest time-weighted estimated speedup.

    Rules that name a cause come before the generic latency summaries ("all compute pipelines are
    under-utilized", issue-slot utilization), whose large local estimates say only that warps stall;
    local estimates count at 0.8 of a global one, as in the scores.
    """
    best: tuple[tuple[bool, float], Bottleneck] | None = None
    for k, w in zip(kernels, _weights(kernels)):
        for r in k.rules:
            if r.type != "OPT" or r.estimated_speedup_pct is None:
                continue
            d, specific = rule_direction(r, k)
            key = (specific, w * r.estimated_speedup_pct * (0.8 if r.speedup_type == "local" else 1.0))
            if best is None or key > best[0]:
                best = (key, Bottleneck(r.name, d, r.estimated_speedup_pct, r.message[:300], k.name))
    return best[1] if best else None


def roofline(kernels: Sequence[KernelProfile]) -> dict[str, Any]:
    """Where the profiled work sits against the DRAM and FP32 ceilings (all kernels together)."""
    weights = _weights(kernels)

    def avg(attr: str) -> float | None:
        vals = [(w, getattr(k, attr)) for k, w in zip(kernels, weights) if getattr(k, attr) is not None]
        return sum(w * v for w, v in vals) / sum(w for w, _ in vals) if vals else None

    seconds = sum(k.duration_us for k in kernels if k.duration_us) * 1e-6
    flops = [k.flops_fp32 for k in kernels if k.flops_fp32 is not None]
    dram = [k.dram_bytes for k in kernels if k.dram_bytes is not None]
    peak_f = next((k.peak_flops_fp32 for k in kernels if k.peak_flops_fp32), None)
    peak_b = next((k.peak_dram_bytes_per_s for k in kernels if k.peak_dram_bytes_per_s), None)
    total_f = sum(flops) if flops else None
    total_b = sum(dram) if dram else None
    dram_pct, sm_pct, mem_pct = avg("dram_throughput_pct"), avg("sm_throughput_pct"), avg("memory_throughput_pct")
    bound = None
    if sm_pct is not None and (mem_pct is not None or dram_pct is not None):
        mem = max(v for v in (mem_pct, dram_pct) if v is not None)
        bound = "latency" if max(sm_pct, mem) < 60 else ("memory" if mem >= sm_pct else "compute")

    def r(x: float | None, nd: int = 3) -> float | None:
        return None if x is None else round(x, nd)

    return {
        "dram_pct": r(dram_pct, 1), "compute_pct": r(sm_pct, 1), "memory_pct": r(mem_pct, 1),
        "achieved_gflops": r(total_f / seconds / 1e9, 1) if total_f is not None and seconds else None,
        "achieved_dram_gbps": r(total_b / seconds / 1e9, 1) if total_b is not None and seconds else None,
        "peak_gflops_fp32": r(peak_f / 1e9, 1) if peak_f else None,
        "peak_dram_gbps": r(peak_b / 1e9, 1) if peak_b else None,
        "arithmetic_intensity": r(total_f / total_b) if total_f is not None and total_b else None,
        "ridge_point": r(peak_f / peak_b) if peak_f and peak_b else None,
        "bound": bound,
    }
