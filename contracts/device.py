"""The device a run evaluates on, as a value: parsed once where it enters (a flag, a setting, a stored run),
carried typed through the engine, and written back as text only where it crosses a process boundary (a
subprocess's command line, the runner's setup, JSON).

Standard library only: the language server and the run store's readers use it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from contracts.speed_of_light import Ceilings

KINDS = ("cpu", "cuda")


@dataclass(frozen=True)
class Device:
    kind: str  # "cpu" | "cuda"
    index: int = 0  # the CUDA device's ordinal (0 on the CPU)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown device kind {self.kind!r}: expected cpu or cuda")
        if self.index < 0 or (self.kind == "cpu" and self.index):
            raise ValueError(f"device index {self.index} makes no sense for {self.kind}")

    @staticmethod
    def parse(text: str | Device) -> Device:
        """'cpu', 'cuda' (device 0) or 'cuda:N'. 'auto' is not a device: resolve it first (which needs torch:
        engine.evaluate.pipeline.resolve_device)."""
        if isinstance(text, Device):
            return text
        kind, _, index = str(text).strip().partition(":")
        if kind not in KINDS or (index and not index.isdigit()) or (kind == "cpu" and index):
            raise ValueError(f"{text!r} is not a device: expected cpu, cuda or cuda:N")
        return Device(kind, int(index) if index else 0)

    @property
    def is_cuda(self) -> bool:
        return self.kind == "cuda"

    def __str__(self) -> str:
        return f"cuda:{self.index}" if self.is_cuda else "cpu"


CPU = Device("cpu")


def _int(v: Any) -> int | None:
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _capability(v: Any) -> int | None:
    """A compute capability as one number (90 for sm_90): from "90", 90 or (9, 0)."""
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return int(v[0]) * 10 + int(v[1])
    if isinstance(v, str) and v.isdigit():
        return int(v)
    return _int(v)


@dataclass(frozen=True)
class DeviceFacts:
    """What the evaluation worker found out about the device it evaluates on (the checker asks torch there), typed:
    the planner, the generators and the prompts read these fields instead of a dict's guessed keys. It crosses
    processes as JSON (to_json/from_json: the keys the worker has always written)."""

    device: Device | None = None
    name: str = ""  # "NVIDIA H100 80GB HBM3"; on the CPU its processor or machine
    torch: str = ""  # torch's version in the worker
    capability: int | None = None  # 90 for sm_90; None on the CPU
    sms: int | None = None
    l2_bytes: int | None = None
    memory_bytes: int | None = None
    max_threads_per_sm: int | None = None
    smem_per_block_optin: int | None = None
    threads: int | None = None  # the CPU's torch threads
    ceilings: Ceilings | None = None  # measured once the run asks for its speed of light

    def with_ceilings(self, c: Ceilings) -> DeviceFacts:
        return replace(self, ceilings=c)

    def to_json(self) -> dict[str, Any]:
        """The worker's JSON: the device, torch, then a GPU's properties or a CPU's threads, and the ceilings once
        measured (the order the prompts have always shown them in)."""
        out: dict[str, Any] = {}
        if self.device is not None:
            out["device"] = str(self.device)
        if self.torch:
            out["torch"] = self.torch
        if self.device is not None and not self.device.is_cuda:
            out.update(name=self.name, capability=None, threads=self.threads)
        else:
            gpu = {"name": self.name or None, "capability": None if self.capability is None else str(self.capability),
                   "sms": self.sms, "l2_bytes": self.l2_bytes, "memory_bytes": self.memory_bytes,
                   "max_threads_per_sm": self.max_threads_per_sm, "smem_per_block_optin": self.smem_per_block_optin}
            out.update({k: v for k, v in gpu.items() if v is not None or self.device is not None})
        if self.ceilings is not None:
            out["ceilings"] = self.ceilings.to_json()
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any] | DeviceFacts | None) -> DeviceFacts:
        """From the worker's JSON (unknown keys ignored; a missing one is None)."""
        if isinstance(d, DeviceFacts):
            return d
        d = d or {}
        dev = d.get("device")
        try:
            device = Device.parse(dev) if isinstance(dev, str) else None
        except ValueError:
            device = None
        return cls(device=device, name=str(d.get("name") or ""), torch=str(d.get("torch") or ""),
                   capability=_capability(d.get("capability")), sms=_int(d.get("sms")),
                   l2_bytes=_int(d.get("l2_bytes")), memory_bytes=_int(d.get("memory_bytes")),
                   max_threads_per_sm=_int(d.get("max_threads_per_sm")),
                   smem_per_block_optin=_int(d.get("smem_per_block_optin")), threads=_int(d.get("threads")),
                   ceilings=Ceilings.from_json(d.get("ceilings")))
