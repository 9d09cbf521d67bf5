"""What a report reader yields, whichever way it read the report (ncu_report module or CSV exports).

Both readers produce the same records, so everything after reading (catalog.py, directions.py) is
tested once against either source.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.profile.metrics import RuleResult

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
