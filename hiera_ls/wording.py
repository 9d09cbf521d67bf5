"""The editor's words for a run: the device-dependent ones and durations are contracts/wording.py's (the CLI
says them the same way); a speedup reads "2.01×" here.
"""

from __future__ import annotations

from contracts.verdict import ratio_text
from contracts.wording import (
    CPU_SPACE_TITLES,
    GPU_SPACE_TITLES,
    device_words,
    duration,
    is_cpu,
    readable_rationale,
    space_title,
    space_titles,
)

__all__ = ["CPU_SPACE_TITLES", "GPU_SPACE_TITLES", "device_words", "duration", "is_cpu", "readable_rationale",
           "space_title", "space_titles", "times"]


def times(x: float | None) -> str:
    """A speedup: '2.01×', a slowdown by its own size: '88.24× slower' (contracts/verdict.py ratio_text)."""
    return ratio_text(x)
