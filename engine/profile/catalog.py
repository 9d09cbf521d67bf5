"""Which ncu metrics hiera reads, and how one launch's readings become a KernelProfile and LineFindings.

Names come from the section files ncu 2025.x ships (SpeedOfLight, Occupancy, LaunchStats, WarpStateStats,
SourceCounters, ComputeWorkloadAnalysis, MemoryWorkloadAnalysis_Tables: the .section files in the sections/
folder of an ncu install).
Where a quantity has several spellings across versions the first one present wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from contracts.profile import KernelProfile, LineFinding, RuleResult
from engine.profile.readings import Launch, Reading, SourceLine

# --- kernel-level metrics --------------------------------------------------------------------------------

DURATION = ("gpu__time_duration.sum",)
SM_THROUGHPUT = ("sm__throughput.avg.pct_of_peak_sustained_elapsed",)
MEMORY_THROUGHPUT = ("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",)
DRAM_THROUGHPUT = ("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
                   "dram__throughput.avg.pct_of_peak_sustained_elapsed")
L1_HIT = ("l1tex__t_sector_hit_rate.pct", "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct")
L2_HIT = ("lts__t_sector_hit_rate.pct", "lts__t_sector_op_read_hit_rate.pct")
ACHIEVED_OCC = ("sm__warps_active.avg.pct_of_peak_sustained_active",)
THEORETICAL_OCC = ("sm__maximum_warps_per_active_cycle_pct",)
REGISTERS = ("launch__registers_per_thread",)
SHARED_PER_BLOCK = ("launch__shared_mem_per_block",)
SHARED_STATIC = ("launch__shared_mem_per_block_static",)
SHARED_DYNAMIC = ("launch__shared_mem_per_block_dynamic",)
WAVES = ("launch__waves_per_multiprocessor",)
BLOCK_SIZE = ("launch__block_size",)
GRID_SIZE = ("launch__grid_size",)
SM_COUNT = ("launch__sm_count", "device__attribute_multiprocessor_count")
BRANCH_EFFICIENCY = ("smsp__sass_average_branch_targets_threads_uniform.pct",)
DIVERGENT_TARGETS = ("smsp__sass_branch_targets_threads_divergent.sum", "smsp__branch_targets_threads_divergent")
BYTES_PER_SECTOR_LD = ("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio",)
THREADS_EXECUTED = ("smsp__thread_inst_executed_per_inst_executed.ratio",)
THREADS_PRED_ON = ("smsp__thread_inst_executed_pred_on_per_inst_executed.ratio",)
SECTORS_LD = ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",)
REQUESTS_LD = ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",)
SECTORS_ST = ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",)
REQUESTS_ST = ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",)
SECTORS_PER_REQUEST_LD = ("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",)
SECTORS_PER_REQUEST_ST = ("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio",)
GLOBAL_SECTORS = ("memory_l2_theoretical_sectors_global",)
GLOBAL_SECTORS_IDEAL = ("memory_l2_theoretical_sectors_global_ideal",)
BANK_CONFLICTS_LD = ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",)
BANK_CONFLICTS_ST = ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",)
SHARED_WAVEFRONTS_LD = ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",)
SHARED_WAVEFRONTS_ST = ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",)
WARP_CYCLES_PER_ISSUE = ("smsp__average_warp_latency_per_inst_issued.ratio",)
# Hopper runs HMMA (mma.sync, WMMA) on the tensor pipe and wgmma as "Tensor (Warp Group)": take the busiest.
TENSOR_PIPE = ("sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
               "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
               "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active",
               "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed",
               "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed")
FMA_PIPE = ("sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active",
            "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active",
            "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed")
ISSUE_BUSY = ("sm__inst_issued.avg.pct_of_peak_sustained_active",
              "sm__inst_issued.avg.pct_of_peak_sustained_elapsed")
FADD = ("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",)
FMUL = ("smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",)
FFMA = ("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",)
DRAM_READ = ("dram__bytes_read.sum",)
DRAM_WRITE = ("dram__bytes_write.sum",)
DRAM_BYTES = ("dram__bytes.sum",)
FFMA_PEAK = ("sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained",)
SM_CLOCK = ("sm__cycles_elapsed.avg.per_second",)
DRAM_PEAK = ("dram__bytes.sum.peak_sustained",)
DRAM_CLOCK = ("dram__cycles_elapsed.avg.per_second",)

OCCUPANCY_LIMITS = {  # blocks per SM each resource allows; the smallest one limits occupancy
    "registers": "launch__occupancy_limit_registers",
    "shared_mem": "launch__occupancy_limit_shared_mem",
    "warps": "launch__occupancy_limit_warps",
    "blocks": "launch__occupancy_limit_blocks",
    "barriers": "launch__occupancy_limit_barriers",
}

# Warp stall reasons as ncu names them in smsp__average_warps_issue_stalled_<reason>_per_issue_active.ratio.
STALL_REASONS = ("long_scoreboard", "short_scoreboard", "barrier", "mio_throttle", "lg_throttle",
                 "math_pipe_throttle", "wait", "branch_resolving", "no_instruction", "not_selected", "selected",
                 "membar", "drain", "dispatch_stall", "sleeping", "tex_throttle", "misc", "imc_miss", "gmma")


def stall_metric(reason: str) -> str:
    return f"smsp__average_warps_issue_stalled_{reason}_per_issue_active.ratio"


# Metrics requested with --metrics on top of the sections (the sections do not all carry them).
EXTRA_METRICS = (*SECTORS_LD, *REQUESTS_LD, *SECTORS_ST, *REQUESTS_ST, L1_HIT[0], L2_HIT[0], *DRAM_READ,
                 *DRAM_WRITE, *FADD, *FMUL, *FFMA)

# --- source-line counters ----------------------------------------------------------------------------------

# Our key -> (label in the source page CSV, metric name in the report). The labels are SourceCounters'.
SOURCE_COUNTERS: dict[str, tuple[str, str]] = {
    "inst_executed": ("Instructions Executed", "inst_executed"),
    "divergent_branches": ("Divergent Branches", "smsp__branch_targets_threads_divergent"),
    "l2_sectors_global": ("L2 Theoretical Sectors Global", "memory_l2_theoretical_sectors_global"),
    "l2_sectors_global_ideal": ("L2 Theoretical Sectors Global Ideal", "memory_l2_theoretical_sectors_global_ideal"),
    "l2_sectors_global_excessive": ("L2 Theoretical Sectors Global Excessive",
                                    "derived__memory_l2_theoretical_sectors_global_excessive"),
    "l1_wavefronts_shared": ("L1 Wavefronts Shared", "memory_l1_wavefronts_shared"),
    "l1_wavefronts_shared_ideal": ("L1 Wavefronts Shared Ideal", "memory_l1_wavefronts_shared_ideal"),
    "l1_wavefronts_shared_excessive": ("L1 Wavefronts Shared Excessive",
                                       "derived__memory_l1_wavefronts_shared_excessive"),
    "samples": ("Warp Stall Sampling (All Samples)", "smsp__pcsamp_sample_count"),
}

# Per-line stall sampling: reason -> (source page column, report metric). Column names are SourceCounters'
# labels; the report's metric for dispatch and no-instruction stalls are spelled differently.
LINE_STALLS: dict[str, tuple[str, str]] = {
    "barrier": ("stall_barrier", "smsp__pcsamp_warps_issue_stalled_barrier"),
    "branch_resolving": ("stall_branch_resolving", "smsp__pcsamp_warps_issue_stalled_branch_resolving"),
    "dispatch_stall": ("stall_dispatch", "smsp__pcsamp_warps_issue_stalled_dispatch_stall"),
    "drain": ("stall_drain", "smsp__pcsamp_warps_issue_stalled_drain"),
    "imc_miss": ("stall_imc", "smsp__pcsamp_warps_issue_stalled_imc_miss"),
    "lg_throttle": ("stall_lg", "smsp__pcsamp_warps_issue_stalled_lg_throttle"),
    "long_scoreboard": ("stall_long_sb", "smsp__pcsamp_warps_issue_stalled_long_scoreboard"),
    "math_pipe_throttle": ("stall_math", "smsp__pcsamp_warps_issue_stalled_math_pipe_throttle"),
    "membar": ("stall_membar", "smsp__pcsamp_warps_issue_stalled_membar"),
    "mio_throttle": ("stall_mio", "smsp__pcsamp_warps_issue_stalled_mio_throttle"),
    "misc": ("stall_misc", "smsp__pcsamp_warps_issue_stalled_misc"),
    "no_instruction": ("stall_no_inst", "smsp__pcsamp_warps_issue_stalled_no_instructions"),
    "not_selected": ("stall_not_selected", "smsp__pcsamp_warps_issue_stalled_not_selected"),
    "selected": ("stall_selected", "smsp__pcsamp_warps_issue_stalled_selected"),
    "short_scoreboard": ("stall_short_sb", "smsp__pcsamp_warps_issue_stalled_short_scoreboard"),
    "sleeping": ("stall_sleep", "smsp__pcsamp_warps_issue_stalled_sleeping"),
    "tex_throttle": ("stall_tex", "smsp__pcsamp_warps_issue_stalled_tex_throttle"),
    "wait": ("stall_wait", "smsp__pcsamp_warps_issue_stalled_wait"),
    "gmma": ("stall_gmma", "smsp__pcsamp_warps_issue_stalled_warpgroup_arrive"),
}
NOT_ISSUED_SUFFIX = " (Not Issued)"  # the same columns restricted to samples where nothing issued


def stall_key(reason: str) -> str:
    return f"stall:{reason}"


# Every kernel-level metric name any reader should fetch (the ncu_report reader asks for exactly these).
def wanted_metrics() -> tuple[str, ...]:
    groups: Iterable[tuple[str, ...]] = (
        DURATION, SM_THROUGHPUT, MEMORY_THROUGHPUT, DRAM_THROUGHPUT, L1_HIT, L2_HIT, ACHIEVED_OCC, THEORETICAL_OCC,
        REGISTERS, SHARED_PER_BLOCK, SHARED_STATIC, SHARED_DYNAMIC, WAVES, BLOCK_SIZE, GRID_SIZE, SM_COUNT,
        BRANCH_EFFICIENCY, DIVERGENT_TARGETS, BYTES_PER_SECTOR_LD, THREADS_EXECUTED, THREADS_PRED_ON, SECTORS_LD,
        REQUESTS_LD, SECTORS_ST, REQUESTS_ST, SECTORS_PER_REQUEST_LD, SECTORS_PER_REQUEST_ST, GLOBAL_SECTORS,
        GLOBAL_SECTORS_IDEAL, BANK_CONFLICTS_LD, BANK_CONFLICTS_ST, SHARED_WAVEFRONTS_LD, SHARED_WAVEFRONTS_ST,
        WARP_CYCLES_PER_ISSUE, TENSOR_PIPE, FMA_PIPE, ISSUE_BUSY, FADD, FMUL, FFMA, DRAM_READ, DRAM_WRITE, DRAM_BYTES,
        FFMA_PEAK, SM_CLOCK, DRAM_PEAK, DRAM_CLOCK, tuple(OCCUPANCY_LIMITS.values()),
        tuple(stall_metric(r) for r in STALL_REASONS),
    )
    return tuple(dict.fromkeys(n for g in groups for n in g))


# --- units -------------------------------------------------------------------------------------------------

_PREFIX = {"n": 1e-9, "u": 1e-6, "m": 1e-3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
_TIME_IN_S = {"nsecond": 1e-9, "ns": 1e-9, "usecond": 1e-6, "us": 1e-6, "msecond": 1e-3, "ms": 1e-3,
              "second": 1.0, "s": 1.0}
_PREFIXABLE = {"byte", "hz", "second", "cycle", "inst", "sector", "request", "warp", "thread", "flop", "B"}


def _unit_factor(unit: str) -> float:
    """SI factor of one unit term: 'Kbyte' -> 1e3, 'Ghz' -> 1e9, 'usecond' -> 1e-6, 'byte' -> 1."""
    u = unit.strip()
    if u in _TIME_IN_S:
        return _TIME_IN_S[u]
    if len(u) > 1 and u[0] in _PREFIX and u[1:] in _PREFIXABLE:
        return _PREFIX[u[0]]
    return 1.0


def si(value: float, unit: str) -> float:
    """A value in SI base units: 'Mbyte' -> bytes, 'Ghz' -> per second, 'byte/usecond' -> bytes/s."""
    if "/" in unit:
        num, den = unit.split("/", 1)
        return value * _unit_factor(num) / _unit_factor(den)
    return value * _unit_factor(unit)


# --- one launch -> KernelProfile --------------------------------------------------------------------------

def _num(metrics: Mapping[str, Reading], names: tuple[str, ...]) -> float | None:
    for n in names:
        r = metrics.get(n)
        if r is not None and isinstance(r[0], (int, float)):
            return float(r[0])
    return None


def _num_si(metrics: Mapping[str, Reading], names: tuple[str, ...]) -> float | None:
    for n in names:
        r = metrics.get(n)
        if r is not None and isinstance(r[0], (int, float)):
            return si(float(r[0]), r[1])
    return None


def _int(v: float | None) -> int | None:
    return None if v is None else round(v)


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def duration_us(metrics: Mapping[str, Reading]) -> float | None:
    r = next((metrics[n] for n in DURATION if n in metrics), None)
    if r is None or not isinstance(r[0], (int, float)):
        return None
    unit = r[1] or "nsecond"  # ncu's base unit for time is the nanosecond
    return si(float(r[0]), unit) * 1e6


def _bytes(metrics: Mapping[str, Reading], names: tuple[str, ...]) -> int | None:
    return _int(_num_si(metrics, names))


def occupancy_limiter(metrics: Mapping[str, Reading]) -> str | None:
    limits = {k: _num(metrics, (n,)) for k, n in OCCUPANCY_LIMITS.items()}
    known = {k: v for k, v in limits.items() if v is not None}
    if not known:
        return None
    # Ties go to the resource listed first (registers before shared memory before warps): the one a
    # kernel author can most often change.
    return min(known, key=lambda k: (known[k], list(OCCUPANCY_LIMITS).index(k)))


def kernel_profile(launch: Launch) -> KernelProfile:
    m = launch.metrics
    shared = _bytes(m, SHARED_PER_BLOCK)
    if shared is None:
        static, dynamic = _bytes(m, SHARED_STATIC), _bytes(m, SHARED_DYNAMIC)
        if static is not None or dynamic is not None:
            shared = (static or 0) + (dynamic or 0)
    spr_ld = _num(m, SECTORS_PER_REQUEST_LD) or _ratio(_num(m, SECTORS_LD), _num(m, REQUESTS_LD))
    spr_st = _num(m, SECTORS_PER_REQUEST_ST) or _ratio(_num(m, SECTORS_ST), _num(m, REQUESTS_ST))
    threads = [v for v in (_num(m, THREADS_EXECUTED), _num(m, THREADS_PRED_ON)) if v is not None]
    stalls = {r: v for r in STALL_REASONS if (v := _num(m, (stall_metric(r),))) is not None and v > 0}
    tensor = [v for n in TENSOR_PIPE if (v := _num(m, (n,))) is not None]
    fadd, fmul, ffma = _num(m, FADD), _num(m, FMUL), _num(m, FFMA)
    flops = None if fadd is None and fmul is None and ffma is None else (fadd or 0) + (fmul or 0) + 2 * (ffma or 0)
    dram_read, dram_write = _num_si(m, DRAM_READ), _num_si(m, DRAM_WRITE)
    dram = (dram_read or 0) + (dram_write or 0) if dram_read is not None or dram_write is not None \
        else _num_si(m, DRAM_BYTES)
    ffma_peak, sm_clock = _num(m, FFMA_PEAK), _num_si(m, SM_CLOCK)
    dram_peak, dram_clock = _num_si(m, DRAM_PEAK), _num_si(m, DRAM_CLOCK)
    return KernelProfile(
        name=launch.kernel,
        duration_us=duration_us(m),
        sm_throughput_pct=_num(m, SM_THROUGHPUT),
        memory_throughput_pct=_num(m, MEMORY_THROUGHPUT),
        dram_throughput_pct=_num(m, DRAM_THROUGHPUT),
        l1_hit_rate=_num(m, L1_HIT),
        l2_hit_rate=_num(m, L2_HIT),
        achieved_occupancy_pct=_num(m, ACHIEVED_OCC),
        theoretical_occupancy_pct=_num(m, THEORETICAL_OCC),
        occupancy_limiter=occupancy_limiter(m),
        registers_per_thread=_int(_num(m, REGISTERS)),
        shared_mem_per_block=shared,
        waves_per_sm=_num(m, WAVES),
        block_size=_int(_num(m, BLOCK_SIZE)),
        grid_size=_int(_num(m, GRID_SIZE)),
        sm_count=_int(_num(m, SM_COUNT)),
        branch_efficiency_pct=_num(m, BRANCH_EFFICIENCY),
        divergent_branch_targets=_int(_num(m, DIVERGENT_TARGETS)),
        active_threads_per_warp=min(threads) if threads else None,
        sectors_per_request_ld=spr_ld,
        sectors_per_request_st=spr_st,
        bytes_per_sector_ld=_num(m, BYTES_PER_SECTOR_LD),
        global_sectors=_int(_num(m, GLOBAL_SECTORS)),
        global_sectors_ideal=_int(_num(m, GLOBAL_SECTORS_IDEAL)),
        shared_bank_conflicts_ld=_int(_num(m, BANK_CONFLICTS_LD)),
        shared_bank_conflicts_st=_int(_num(m, BANK_CONFLICTS_ST)),
        shared_wavefronts_ld=_int(_num(m, SHARED_WAVEFRONTS_LD)),
        shared_wavefronts_st=_int(_num(m, SHARED_WAVEFRONTS_ST)),
        warp_stalls=stalls,
        line_stall_samples=line_stall_samples(launch),
        warp_cycles_per_issue=_num(m, WARP_CYCLES_PER_ISSUE),
        tensor_pipe_pct=max(tensor) if tensor else None,
        fma_pipe_pct=_num(m, FMA_PIPE),
        issue_slots_busy_pct=_num(m, ISSUE_BUSY),
        flops_fp32=flops,
        dram_bytes=dram,
        peak_flops_fp32=2 * ffma_peak * sm_clock if ffma_peak is not None and sm_clock is not None else None,
        peak_dram_bytes_per_s=dram_peak * dram_clock if dram_peak is not None and dram_clock is not None else None,
        rules=tuple(launch.rules),
    )


# --- source lines -> LineFindings ---------------------------------------------------------------------------

def line_stall_samples(launch: Launch) -> int | None:
    """The launch's stall samples summed over every source line (line_findings keeps only the top lines)."""
    if not launch.lines:
        return None
    return round(sum(v for s in launch.lines for k, v in s.counters.items() if k.startswith(stall_key(""))))


def line_finding(src: SourceLine, display_file: str) -> LineFinding:
    c = src.counters

    def count(key: str) -> int | None:
        return round(c[key]) if key in c else None

    excess_sectors = count("l2_sectors_global_excessive")
    if excess_sectors is None and "l2_sectors_global" in c and "l2_sectors_global_ideal" in c:
        excess_sectors = max(0, round(c["l2_sectors_global"] - c["l2_sectors_global_ideal"]))
    excess_waves = count("l1_wavefronts_shared_excessive")
    if excess_waves is None and "l1_wavefronts_shared" in c and "l1_wavefronts_shared_ideal" in c:
        excess_waves = max(0, round(c["l1_wavefronts_shared"] - c["l1_wavefronts_shared_ideal"]))
    stalls = {k.split(":", 1)[1]: round(v) for k, v in c.items() if k.startswith("stall:") and v > 0}
    return LineFinding(
        file=display_file, line=src.line, kernel=src.kernel, stall_samples=stalls,
        divergent_branches=count("divergent_branches"), excessive_global_sectors=excess_sectors,
        excessive_shared_wavefronts=excess_waves, instructions_executed=count("inst_executed"),
        text=src.text.strip(),
    )


def _notable(f: LineFinding) -> bool:
    return bool(f.samples or f.divergent_branches or f.excessive_global_sectors or f.excessive_shared_wavefronts)


def display_path(reported: str, source_map: Mapping[str, str]) -> str:
    """The path a user knows for a file the report names: the candidate's .cu, not the build cache's copy."""
    if reported in source_map:
        return source_map[reported]
    base = Path(reported).name
    for k, v in source_map.items():
        if Path(k).name == base:
            return v
    return reported


def line_findings(launches: Iterable[Launch], source_map: Mapping[str, str] | None = None,
                  limit: int = 24) -> tuple[LineFinding, ...]:
    """The lines worth keeping, hottest first: by stall samples, then by excess memory traffic.

    With a source map, lines of the mapped (the user's own) files come first: code inlined from headers such
    as mma.hpp is attributed to the header's line, which the user cannot edit. Past the `limit` hottest,
    lines with a counted inefficiency (excess sectors or wavefronts, divergence) are still kept, up to
    `limit` more: they matter whatever their stall samples (hotlines.py shows them), and a cold line
    holding one would otherwise fall off the end of a long kernel.
    """
    source_map = source_map or {}
    own = set(source_map.values())
    found = [line_finding(s, display_path(s.file, source_map)) for ln in launches for s in ln.lines]
    found = [f for f in found if _notable(f)]
    found.sort(key=lambda f: (bool(own) and f.file not in own, -f.samples, -(f.excessive_global_sectors or 0),
                              -(f.excessive_shared_wavefronts or 0), -(f.divergent_branches or 0),
                              f.file, f.line))
    wasteful = [f for f in found[limit:]
                if f.excessive_global_sectors or f.excessive_shared_wavefronts or f.divergent_branches]
    return tuple(found[:limit] + wasteful[:limit])


def rule_from_fields(name: str, type_: str, message: str, speedup: float | str | None,
                     speedup_type: str | None, section: str | None) -> RuleResult:
    sp = speedup if isinstance(speedup, (int, float)) else None
    return RuleResult(name=name, type=type_.strip().upper() or "INF", message=" ".join(message.split()),
                      estimated_speedup_pct=float(sp) if sp is not None else None,
                      speedup_type=(speedup_type or "").strip().lower() or None, section=section or None)
