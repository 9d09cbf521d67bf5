"""Where the reference's time goes: its forward's time split over its submodules, measured on the run's device.

A whole model spends its time unevenly: a 6-layer LSTM with a Linear head spends nearly all of it in the LSTM,
a ResNet in a few stages. The checker times the reference with a hook around each submodule down to a few levels
(engine/evaluate/region_times.py) and keeps a *cut* through that tree: the submodules that split the time, a
submodule that holds most of it replaced by its own children. The planner reads it (which region holds the time,
and so where the budget goes), the round table's rationale and the editor's hover say it.

Imports nothing beyond the standard library: the language server reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The forward's own operators outside every listed submodule (functional calls between them, the forward's
# arithmetic), as a region of its own.
OWN = "(the forward's own operators)"

# What a region's figures keep, in memory as in their record (to_json): held rounded from the start, so a record
# read back (from_json) equals what was measured, and a run's result says the same whether fresh or resumed.
MS_DIGITS = 6
SHARE_DIGITS = 4


@dataclass(frozen=True)
class Region:
    """One submodule of the cut (or OWN / "PATH (outside its submodules)"), with its share of the forward."""

    path: str  # the submodule's qualified name ("features.3", "lstm"), or OWN
    kind: str  # its class name ("LSTM", "Sequential"), "" for OWN
    ms: float  # its time per forward (median over the measured calls)
    share: float  # ms over the whole forward's time, in [0, 1]

    def __post_init__(self) -> None:
        object.__setattr__(self, "ms", round(float(self.ms), MS_DIGITS))
        object.__setattr__(self, "share", round(float(self.share), SHARE_DIGITS))

    def label(self) -> str:
        return f"{self.path} ({self.kind})" if self.kind else self.path

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "kind": self.kind, "ms": self.ms, "share": self.share}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Region:
        return cls(str(d.get("path", "")), str(d.get("kind", "")), float(d.get("ms") or 0.0),
                   float(d.get("share") or 0.0))


@dataclass(frozen=True)
class RegionTimes:
    """The reference's forward split into regions, largest first (docs/protocol.md, "regions")."""

    total_ms: float  # the whole forward, timed with the hooks in place (median)
    regions: tuple[Region, ...]
    method: str  # "cuda events around each submodule" | "host clock around each submodule"
    calls: int  # forwards measured

    def __post_init__(self) -> None:
        object.__setattr__(self, "total_ms", round(float(self.total_ms), MS_DIGITS))
        object.__setattr__(self, "regions", tuple(self.regions))

    def top(self) -> Region | None:
        return self.regions[0] if self.regions else None

    def summary(self, n: int = 3) -> str:
        """'lstm (LSTM) 97%, fc (Linear) 1%, ...' — the regions that hold the time, in words."""
        shown = [f"{r.label()} {r.share:.0%}" for r in self.regions[:n]]
        rest = len(self.regions) - n
        return ", ".join(shown) + (f" and {rest} more" if rest > 0 else "")

    def to_json(self) -> dict[str, Any]:
        return {"total_ms": self.total_ms, "method": self.method, "calls": self.calls,
                "regions": [r.to_json() for r in self.regions]}

    @classmethod
    def from_json(cls, d: Mapping[str, Any] | None) -> RegionTimes | None:
        if not isinstance(d, Mapping) or not isinstance(d.get("regions"), list):
            return None
        return cls(float(d.get("total_ms") or 0.0), tuple(Region.from_json(r) for r in d["regions"]
                                                          if isinstance(r, Mapping)),
                   str(d.get("method", "")), int(d.get("calls") or 0))
