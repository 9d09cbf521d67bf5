"""The device limits the CUDA generators size grids and tiles by, read from the worker's DeviceFacts.

The worker reports what torch.cuda.get_device_properties gives (engine/evaluate/checker.py device_facts: SMs,
the compute capability, L2, ...); what a torch build does not report (threads per SM, the opt-in shared
memory per block) comes from the compute capability's published limits. Without a device (the CPU path,
or tests) the limits are a conservative mid-size GPU's, so a generated kernel is never sized for more
than the device has.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from contracts.device import DeviceFacts

# Compute capability -> (max threads per SM, max shared memory per block with opt-in, bytes), from the CUDA
# C Programming Guide's table of technical specifications.
_BY_CAPABILITY: dict[int, tuple[int, int]] = {
    70: (2048, 98304), 75: (1024, 65536), 80: (2048, 166912), 86: (1536, 101376), 87: (1536, 166912),
    89: (1536, 101376), 90: (2048, 232448), 100: (2048, 232448), 103: (2048, 232448), 120: (1536, 101376),
}


@dataclass(frozen=True)
class DeviceLimits:
    sm_count: int = 80
    max_threads_per_sm: int = 2048
    smem_per_block_optin: int = 98304
    l2_bytes: int = 40 * 2**20
    capability: int = 80

    def resident_blocks(self, threads_per_block: int) -> int:
        """How many blocks of this size the whole device holds at once (by the thread limit alone)."""
        return self.sm_count * max(1, self.max_threads_per_sm // max(1, threads_per_block))


def device_limits(facts: DeviceFacts | Mapping[str, Any] | None) -> DeviceLimits:
    """The limits for the worker's facts (or their JSON); what is unknown comes from the capability's table, and
    without a capability from a conservative mid-size GPU's."""
    f = DeviceFacts.from_json(facts)
    base = DeviceLimits()
    cap = f.capability or base.capability
    threads, smem = _BY_CAPABILITY.get(cap, (base.max_threads_per_sm, base.smem_per_block_optin))
    return DeviceLimits(
        sm_count=f.sms or base.sm_count,
        max_threads_per_sm=f.max_threads_per_sm or threads,
        smem_per_block_optin=f.smem_per_block_optin or smem,
        l2_bytes=f.l2_bytes or base.l2_bytes,
        capability=cap,
    )
