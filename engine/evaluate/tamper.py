"""Detect a candidate that patches the functions the evaluator measures or checks with.

The evaluator already uses references captured before any candidate loads (timing.py, verify.py), so a
patch cannot change the numbers; it is still reported, because it is an attempt to cheat.
"""

from __future__ import annotations

import time
from typing import Any

import torch


def _watched() -> list[tuple[str, Any, str]]:
    items: list[tuple[str, Any, str]] = [
        ("time", time, "perf_counter"), ("time", time, "perf_counter_ns"), ("time", time, "time"),
        ("time", time, "monotonic"), ("torch", torch, "allclose"), ("torch", torch, "equal"),
        ("torch", torch, "isfinite"), ("torch.Tensor", torch.Tensor, "clone"),
        ("torch.Tensor", torch.Tensor, "copy_"), ("torch.Tensor", torch.Tensor, "__sub__"),
        ("torch.cuda", torch.cuda, "synchronize"), ("torch.cuda", torch.cuda, "Event"),
        ("torch.cuda.Event", torch.cuda.Event, "elapsed_time"),
        ("torch.cuda.Event", torch.cuda.Event, "record"),
    ]
    return items


class TamperGuard:
    def __init__(self) -> None:
        self.snapshot = {(label, attr): getattr(obj, attr) for label, obj, attr in _watched()}
        self.flags = self._precision_flags()

    @staticmethod
    def _precision_flags() -> dict[str, Any]:
        return {
            "torch.backends.cuda.matmul.allow_tf32": torch.backends.cuda.matmul.allow_tf32,
            "torch.backends.cudnn.allow_tf32": torch.backends.cudnn.allow_tf32,
            "torch.get_float32_matmul_precision()": torch.get_float32_matmul_precision(),
            "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction":
                torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction,
        }

    def changes(self) -> list[str]:
        """What was patched or changed since the snapshot; restores the originals."""
        changed = []
        for label, obj, attr in _watched():
            original = self.snapshot[(label, attr)]
            if getattr(obj, attr) is not original:
                changed.append(f"{label}.{attr} was replaced")
                setattr(obj, attr, original)
        now = self._precision_flags()
        for name, value in self.flags.items():
            if now[name] != value:
                changed.append(f"{name} changed from {value!r} to {now[name]!r}")
        if changed:
            restore_precision(self.flags)
        return changed


def restore_precision(flags: dict[str, Any]) -> None:
    torch.backends.cuda.matmul.allow_tf32 = flags["torch.backends.cuda.matmul.allow_tf32"]
    torch.backends.cudnn.allow_tf32 = flags["torch.backends.cudnn.allow_tf32"]
    torch.set_float32_matmul_precision(flags["torch.get_float32_matmul_precision()"])
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = flags[
        "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction"]
