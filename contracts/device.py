"""The device a run evaluates on, as a value: parsed once where it enters (a flag, a setting, a stored run),
carried typed through the engine, and written back as text only where it crosses a process boundary (a
subprocess's command line, the runner's setup, JSON).

Standard library only: the language server and the run store's readers use it too.
"""

from __future__ import annotations

from dataclasses import dataclass

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
