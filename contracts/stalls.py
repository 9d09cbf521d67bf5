"""ncu's warp stall reasons: what each one means, and which direction (C/P/M/R/T) it points to.

One mapping for the direction scores (engine/profile/directions.py) and the per-line findings the editor and
`hiera profile` show (contracts/hotlines.py), so a line and its kernel never point to different directions
for the same stall. Most reasons have one owner; waiting on global memory (long_scoreboard) has several
possible causes, and `memory_wait_direction` picks by the kernel's other metrics: R when the same data is
fetched again and again through L1/L2 (tile it on chip), M when the accesses are uncoalesced or conflict
in shared memory, P when too few warps are resident to hide the latency, and R (reuse, pipelining) otherwise.

Imports nothing beyond the standard library and contracts/.
"""

from __future__ import annotations

from contracts.profile import KernelProfile

# ncu's stall reasons (the <reason> of smsp__pcsamp_warps_issue_stalled_<reason>) in the words of the
# Nsight Compute Kernel Profiling Guide's definitions (its Warp Stall Reasons table).
STALL_WORDS = {
    "long_scoreboard": "waiting on global/local memory (L1TEX)",
    "short_scoreboard": "waiting on shared memory or special math (MIO)",
    "barrier": "waiting at __syncthreads",
    "membar": "waiting at a memory fence",
    "mio_throttle": "MIO queue full: too many shared-memory or special-math instructions",
    "lg_throttle": "L1 queue full: too many global/local memory instructions",
    "tex_throttle": "texture unit queue full",
    "math_pipe_throttle": "waiting for a busy math pipe",
    "wait": "fixed-latency dependency on a previous instruction",
    "dispatch_stall": "dispatch stall: the pipeline refused the instruction",
    "gmma": "waiting for warpgroup MMA (wgmma)",
    "branch_resolving": "waiting for a branch target to resolve",
    "no_instruction": "no instruction fetched: instruction cache miss or a jump",
    "imc_miss": "waiting on the immediate-constant cache",
    "sleeping": "sleeping: nanosleep or yielded",
    "drain": "draining memory writes at exit",
    "not_selected": "ready, but the scheduler issued another warp",
    "selected": "issuing instructions, not stalled",
    "misc": "a miscellaneous stall",
}

# The reasons with one owner; long_scoreboard is memory_wait_direction's, and a reason missing here (selected,
# misc) points nowhere.
STALL_DIRECTIONS = {"lg_throttle": "M", "mio_throttle": "M", "short_scoreboard": "M", "tex_throttle": "M",
                    "drain": "M", "barrier": "P", "not_selected": "P", "math_pipe_throttle": "T", "wait": "T",
                    "dispatch_stall": "T", "gmma": "T", "branch_resolving": "C", "no_instruction": "C",
                    "sleeping": "C", "membar": "C", "imc_miss": "C"}

# Which of the hardware's ceilings a line's warps press on while stalled for each reason (the per-line view beside
# the speed of light: a line waiting on memory is held by the memory ceiling, one throttled at issue by the issue
# rate, one waiting on wgmma by the tensor pipe). Reasons that are no ceiling's (sleeping, misc) have none.
STALL_CEILINGS = {"long_scoreboard": "memory", "lg_throttle": "memory", "drain": "memory", "tex_throttle": "memory",
                  "membar": "memory", "short_scoreboard": "shared memory / special math (MIO)",
                  "mio_throttle": "shared memory / special math (MIO)", "math_pipe_throttle": "a math pipe",
                  "wait": "issue", "dispatch_stall": "issue", "not_selected": "issue", "selected": "issue",
                  "gmma": "the tensor pipe", "barrier": "synchronization", "branch_resolving": "instruction issue",
                  "no_instruction": "instruction fetch", "imc_miss": "instruction fetch"}

REREAD_FOR_REUSE = 4.0  # the kernel needs 4x more global bytes than DRAM delivered: the caches serve re-reads


def uncoalesced(k: KernelProfile) -> float:
    return k.excessive_sector_fraction or 0.0


def rereads(k: KernelProfile) -> bool:
    return (k.cache_reread_factor or 0.0) >= REREAD_FOR_REUSE


def memory_wait_direction(k: KernelProfile) -> str:
    """Who owns 'warps wait on global memory': see the module docstring."""
    if rereads(k):
        return "R"  # a shared-memory tile fixes the re-reads and the access pattern together
    if uncoalesced(k) >= 0.25 or (k.bank_conflict_fraction or 0.0) >= 0.25:
        return "M"
    if k.achieved_occupancy_pct is not None and k.achieved_occupancy_pct < 25:
        return "P"
    return "R"
