"""What a report reader yields, whichever way it read the report (ncu_report module or CSV exports).

Both readers produce the same records, so everything after reading (catalog.py, directions.py) is
tested once against either source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from contracts.profile import RuleResult

# A metric's value as ncu gave it (a number, or text such as a launch's cache configuration) and its unit.
Reading = tuple[float | str | None, str]


@dataclass(frozen=True)
class SourceLine:
    """Source-counter totals for one CUDA line of one kernel, keyed by catalog.SOURCE_COUNTERS names."""

    file: str
    line: int
    kernel: str
    text: str
    counters: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Launch:
    """One profiled kernel launch: its metrics by ncu metric name, ncu's rule results, its source lines."""

    id: str
    kernel: str
    metrics: dict[str, Reading] = field(default_factory=dict)
    rules: tuple[RuleResult, ...] = ()
    lines: tuple[SourceLine, ...] = ()


def parse_number(text: str) -> float | str | None:
    """A CSV cell as a number where it is one ("1,234.5" included), else the text; empty or n/a is None."""
    s = text.strip()
    if not s or s.lower() in ("n/a", "nan", "-"):
        return None
    candidate = s.replace(",", "")
    try:
        return float(candidate)
    except ValueError:
        return s


def launch_to_json(launch: Launch) -> dict[str, object]:
    """A Launch as plain JSON (fixtures record what a reader extracted, to replay it without ncu)."""
    return {
        "id": launch.id,
        "kernel": launch.kernel,
        "metrics": {k: [v, u] for k, (v, u) in launch.metrics.items()},
        "rules": [r.to_json() for r in launch.rules],
        "lines": [{"file": s.file, "line": s.line, "kernel": s.kernel, "text": s.text, "counters": s.counters}
                  for s in launch.lines],
    }


def launch_from_json(d: dict[str, Any]) -> Launch:
    return Launch(
        id=str(d["id"]), kernel=str(d["kernel"]),
        metrics={k: (v[0], str(v[1])) for k, v in d.get("metrics", {}).items()},
        rules=tuple(RuleResult.from_json(r) for r in d.get("rules", ())),
        lines=tuple(SourceLine(s["file"], int(s["line"]), s["kernel"], s.get("text", ""),
                               {k: float(v) for k, v in s.get("counters", {}).items()}) for s in d.get("lines", ())),
    )
