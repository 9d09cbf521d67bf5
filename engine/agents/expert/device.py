"""The device limits the CUDA generators size grids and tiles by, read from the evaluator's device_info.

The worker reports what torch.cuda.get_device_properties gives (engine/evaluate/session.py: "sms",
"capability" as "90", "l2_bytes", ...); keys it does not report yet (threads per SM, the opt-in shared
memory per block) come from the compute capability's published limits. Without a device (the CPU path,
or tests) the limits are a conservative mid-size GPU's, so a generated kernel is never sized for more
than the device has.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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


def _capability(v: Any) -> int | None:
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return int(v[0]) * 10 + int(v[1])
    if isinstance(v, str) and v.isdigit():
        return int(v)
    if isinstance(v, int):
        return v
    return None


def device_limits(info: dict[str, Any] | None) -> DeviceLimits:
    """The limits for a device_info dict (the worker's keys; "sm_count" is accepted for "sms")."""
    info = info or {}
    base = DeviceLimits()
    cap = _capability(info.get("capability")) or base.capability
    threads, smem = _BY_CAPABILITY.get(cap, (base.max_threads_per_sm, base.smem_per_block_optin))
    sms = info.get("sms") or info.get("sm_count") or base.sm_count
    return DeviceLimits(
        sm_count=int(sms),
        max_threads_per_sm=int(info.get("max_threads_per_sm") or threads),
        smem_per_block_optin=int(info.get("smem_per_block_optin") or smem),
        l2_bytes=int(info.get("l2_bytes") or base.l2_bytes),
        capability=cap,
    )
