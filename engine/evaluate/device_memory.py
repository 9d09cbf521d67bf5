"""How much memory the checker may take for copies of a task's inputs, on the device it evaluates on. A task's
input set can be several GiB (KernelBench's InstanceNorm: 7 GiB of input and 7 of output), and each copy the
checker keeps beside the shared buffers (a timing pool set, a cached trial, a reference's own outputs) is
another: the counts are sized to what is free, never fixed."""

from __future__ import annotations

import os

import torch

# Share of free memory the timing pool may hold (the shared buffers, a trial's expected outputs, a sampled
# call's check and the runner's own work are beside it), and how many sets at most (on the CPU, whose caches
# are flushed before every call, fewer do).
POOL_SHARE = 0.2
POOL_MOST = {"cuda": 8, "cpu": 4}
# Share of the device's memory the cache of trial input sets may hold; on the CPU at most 4 GiB of it.
CACHE_SHARE = 0.1
CPU_CACHE_MOST = 4 << 30


def free_bytes(device: torch.device) -> int:
    """Memory free to this process on `device` now: the GPU's free memory, or the host's available pages."""
    if device.type == "cuda":
        free, _ = torch.cuda.mem_get_info(device)
        return int(free)
    return _host_pages("SC_AVPHYS_PAGES")


def total_bytes(device: torch.device) -> int:
    if device.type == "cuda":
        return int(torch.cuda.get_device_properties(device).total_memory)
    return _host_pages("SC_PHYS_PAGES")


def _host_pages(which: str) -> int:
    """The host's pages of a kind, in bytes (a terabyte where the system cannot say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf(which)
    except (ValueError, OSError):
        return 1 << 40


def pool_sets(free: int, set_bytes: int, most: int) -> int:
    """How many input sets the timing pool holds: as many as fit in POOL_SHARE of `free` (1 to `most`).
    Two or more let a cache keyed on buffer addresses see contents change under it; where only one fits, each
    timed call's float inputs are still perturbed afresh (perturb.py), and the reply says the pool was one set."""
    return int(min(most, max(1, free * POOL_SHARE // max(set_bytes, 1))))


def cache_budget(device: torch.device) -> int:
    """Bytes of trial input sets the checker keeps cached (the most recent set is kept whatever its size)."""
    budget = int(total_bytes(device) * CACHE_SHARE)
    return budget if device.type == "cuda" else min(budget, CPU_CACHE_MOST)
