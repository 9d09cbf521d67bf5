"""The records a suite and a study write per task and per cell: plain data, read by the runs that write them
(suite_bench.py, study.py) and by the summaries made of them (bench_stats.py), which import them from here
rather than from each other."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any


@dataclass
class TaskResult:
    task: str
    path: str
    level: str
    valid: bool = False
    speedup: float | None = None
    reference_ms: float | None = None
    best_ms: float | None = None
    compile: dict[str, float | None] = field(default_factory=dict)  # mode -> speedup over eager (None invalid)
    compile_status: dict[str, str] = field(default_factory=dict)
    compile_reason: dict[str, str] = field(default_factory=dict)  # mode -> the evaluator's reason, when not valid
    # The timing spread (interquartile range over median, the larger of the pair's two) behind each figure:
    # hiera's best's re-timed pair, and each valid compile mode's pair. None: measured before it was recorded.
    spread: float | None = None
    compile_spread: dict[str, float] = field(default_factory=dict)
    # The best's speed of light (contracts/speed_of_light.py, from the optimize run's result): its bound over its
    # time (1.0 = at the bound) and the bound in ms; results before it had a roofline from default ceilings here.
    roofline_fraction: float | None = None
    roofline_ms: float | None = None
    speed_of_light: dict[str, Any] | None = None  # the best's whole figure: bound, bytes, flops, ceiling, fraction
    stopped_early: dict[str, Any] | None = None  # the run stopped at its speed of light (contracts StoppedEarly)
    spaces: list[str] = field(default_factory=list)
    directions: list[str] = field(default_factory=list)
    strategies: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    # The optimize run's wall seconds by phase (engine/phases.py) and what became of its profiles
    # (contracts/runrecord.py Profiling); empty from runs older than the fields.
    phases: dict[str, float] = field(default_factory=dict)
    profiling: dict[str, Any] | None = None
    wall_s: float = 0.0  # the whole task: hiera's optimize run, the baselines and the roofline analysis
    optimize_wall_s: float = 0.0  # hiera's optimize run alone (what a user waits for)
    run_id: str | None = None
    device: str = ""
    device_name: str = ""  # what the optimize run reported, e.g. "cuda:0 (NVIDIA H200)"
    code_version: str = ""  # code_version() of the tree that measured it ("" for results older than the field)
    error: str | None = None
    limit: str | None = None  # what limited the task when it did not beat torch.compile
    # Each evaluated candidate's speedup in the order the loop evaluated them (None: not valid); the
    # re-timings of the best are left out. Budget curves (fast_1 / geomean at B candidates) are cut from it.
    trajectory: list[float | None] = field(default_factory=list)
    best_space: str | None = None  # the space of the best candidate (first round's space: spaces[0])
    # The optimize run's status ("finished", or "stopped" by its --deadline), and what its deadline left out.
    status: str = ""
    stop_reason: str | None = None
    left_out: list[str] = field(default_factory=list)
    # The best's shape report (contracts/shapes.py ShapeReport JSON): the batch sizes it was checked at beside the
    # given one, what its exported file serves and its speedup at each; None: no other size checked (or older).
    shapes: dict[str, Any] | None = None
    # The precision policy its figures were judged at (contracts/precision.py); "" for results older than the field.
    precision: str = ""
    # The optimize command's flags less its task and places (suite_bench.run_flags); [] for older results.
    optimize_flags: list[str] = field(default_factory=list)

    @property
    def best_compile(self) -> float | None:
        """The better of the torch.compile modes' speedups (None: no mode gave a valid result)."""
        return max((v for v in self.compile.values() if v), default=None)

    @property
    def beats_compile(self) -> bool:
        return self.valid and (self.best_compile is None or (self.speedup or 0) >= self.best_compile)


@dataclass
class CellResult(TaskResult):
    """A task's result (suite_bench.TaskResult) under one variant and repeat, with the cost and the rounds."""

    variant: str = ""
    repeat: int = 0
    backend: str = ""
    tokens: dict[str, int] = field(default_factory=dict)  # prompt / completion, summed over the run's model calls
    cost_usd: float | None = None  # None: no price known (the expert backend calls no model)
    rounds: list[dict[str, Any]] = field(default_factory=list)  # round_verdicts(): the taxonomy's facts
    run_status: str = ""  # the optimize run's status in the store: finished, stopped, failed ("" no run)
    # Where the cell was measured: "" by this study; "hiera bench DIR" for one taken from a bench's run of the same
    # task with the same optimize flags (engine/study_seed.py).
    source: str = ""

    @staticmethod
    def from_json(d: dict[str, Any]) -> CellResult:
        known = {f.name for f in fields(CellResult)}
        return CellResult(**{k: v for k, v in d.items() if k in known})


def cell_name(variant: str, level: str, stem: str, repeat: int) -> str:
    return f"{variant}__{level}__{stem}__r{repeat}"


@dataclass(frozen=True)
class Cell:
    variant: str
    level: str
    path: Path
    repeat: int

    @property
    def name(self) -> str:
        return cell_name(self.variant, self.level, self.path.stem, self.repeat)
