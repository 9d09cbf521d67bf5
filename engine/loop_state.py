"""The loop's settings and state, and the one rule for a run's figures: the typed data that the loop's parts
(engine/loop.py, retiming.py, loop_profiling.py, loop_resume.py, result_files.py) share."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contracts import verdict as rule
from contracts.regions import RegionTimes
from contracts.runrecord import BestFigure, Figure, RoundSummary, StoppedEarly, best_by, figure_key, pick_best
from contracts.vocabulary import Direction, Space
from engine.agents.base import RoundRecord, Usage
from engine.evaluate.outcome import Candidate, Outcome, Precision
from engine.evaluate.pipeline import EvalSettings

if TYPE_CHECKING:
    from engine.profile.metrics import Profile

# The loop builds typed events (contracts/runrecord.py); a sink receives each one's JSON form, the line that
# `--events jsonl` writes.
EventSink = Callable[[dict[str, Any]], None]

@dataclass(frozen=True)
class LoopSettings:
    rounds: int = 3
    candidates: int = 6
    # Total candidates, when not rounds x candidates: full rounds of `candidates`, the last round takes what is
    # left (a budget of 1 is one round of one candidate). None: rounds x candidates.
    budget: int | None = None
    space: Space | None = None  # None: the SSDA chooses every round (auto)
    planning: bool = True
    use_contract: bool = True
    profile: bool = True
    ncu_path: str | None = None
    # Kernel launches Nsight Compute profiles per profile in the loop (the first ones of the call): each costs
    # dozens of replay passes, and a model's identical layers say nothing new (`hiera profile` takes 20).
    profile_kernels: int = 6
    results_dir: Path | None = None  # None: beside the task
    write_results: bool = True
    # A best that is not faster than eager (its 95% interval includes 1, or lies below it) is not what a user asked
    # for: it goes to the run's folder (not-delivered/), not beside their module, unless they ask for it.
    keep_slower: bool = False
    eval: EvalSettings = field(default_factory=EvalSettings)
    # The run ends by this many seconds after its process started, with its best so far (engine/deadline.py);
    # None: no deadline.
    deadline_s: float | None = None
    # Round 1 opens with a cheap, safe candidate where one pays (engine/agents/expert/opener.py).
    opener: bool = True

    def round_sizes(self) -> list[int]:
        """How many candidates each round generates."""
        if self.budget is None:
            return [self.candidates] * self.rounds
        full, rest = divmod(self.budget, self.candidates)
        return [self.candidates] * full + ([rest] if rest else [])

    @property
    def total(self) -> int:
        return sum(self.round_sizes())

    # --- the run's record of its settings (the store's runs.settings), and --resume reading it back ----------

    def record(self) -> dict[str, Any]:
        """The settings as the run store keeps them: what `hiera report` shows and `--resume` reads back
        (resumed). The keys are the store's: runs written by earlier versions use them too."""
        e = self.eval
        return {"rounds": len(self.round_sizes()), "candidates": self.candidates, "budget": self.total,
                "space": self.space.value if self.space else "auto", "planning": self.planning,
                "contract": self.use_contract, "profile": self.profile, "precision": e.precision.value,
                "device": str(e.device), "trials": e.timing_trials, "timeout_s": e.request_timeout_s,
                "build_timeout_s": e.build_timeout_s, "sandbox": e.sandbox, "keep_slower": self.keep_slower,
                "shapes": e.shape_variants, "results_dir": str(self.results_dir) if self.results_dir else None,
                "deadline_s": self.deadline_s, "opener": self.opener}

    def resumed(self, stored: dict[str, Any]) -> LoopSettings:
        """The settings a resumed run goes on with: its own record's (record()), and these (the command's own)
        for what an older run's record lacks. Always the command's: the device, the Nsight Compute path and the
        deadline (a deadline is this command's, not the run's); the sandbox is on only where both say so.
        `self` carries the default round shape, not flags: a resumed run keeps its own."""
        e = self.eval
        space = stored.get("space", self.space.value if self.space else "auto")
        results_dir = stored.get("results_dir")
        return replace(
            self, rounds=stored.get("rounds", self.rounds), candidates=stored.get("candidates", self.candidates),
            budget=stored.get("budget"), space=None if space == "auto" else Space(space),
            planning=stored.get("planning", self.planning), use_contract=stored.get("contract", self.use_contract),
            profile=stored.get("profile", self.profile), keep_slower=stored.get("keep_slower", self.keep_slower),
            results_dir=Path(results_dir) if results_dir else None, opener=stored.get("opener", self.opener),
            eval=replace(e, precision=Precision(stored.get("precision", e.precision.value)),
                         space=Space.LIBRARIES_PYTORCH if space == "auto" else Space(space),
                         timing_trials=stored.get("trials", e.timing_trials),
                         request_timeout_s=stored.get("timeout_s", e.request_timeout_s),
                         build_timeout_s=stored.get("build_timeout_s", e.build_timeout_s),
                         sandbox=stored.get("sandbox", e.sandbox) and e.sandbox,
                         shape_variants=stored.get("shapes", e.shape_variants)))


# --- the run's figures: one rule for "the best", whoever shows it ----------------------------------------------

def figure(o: Outcome, retimed: bool) -> Figure | None:
    """A valid outcome's figure: speedup, both times, the interval and the verdict, all from one and the same pair
    (by contracts/verdict.py: the interval from the pair's samples)."""
    if not (o.valid and o.candidate and o.reference and o.speedup):
        return None
    return Figure.of_pair(o.candidate.median_ms, o.reference.median_ms, retimed, o.candidate.spread,
                          o.reference.spread, unstable=rule.flagged_unstable(o.flags),
                          speed_of_light=o.speed_of_light,
                          interval=rule.timings_interval(o.candidate, o.reference))


@dataclass
class Best:
    candidate: Candidate
    outcome: Outcome
    round: int
    space: Space
    direction: Direction
    retimed: bool = False  # outcome is a re-timing of the candidate on its own (see retiming.confirm_best)

    @property
    def speedup(self) -> float:
        return self.outcome.speedup or 0.0

    @property
    def key(self) -> tuple[int, float, float]:
        """What the run's best is the largest of (contracts/runrecord.py figure_key)."""
        return figure_key(figure(self.outcome, self.retimed))

    def figure(self) -> BestFigure:
        fig = figure(self.outcome, self.retimed)
        assert fig is not None, "a Best holds a valid, timed outcome"
        return BestFigure.of(self.candidate.id, fig)


def best_of(pool: Iterable[Best]) -> Best | None:
    return pick_best(pool, lambda b: b.key, lambda b: b.retimed, lambda b: b.outcome.shapes)


def best_first_pair(pool: Iterable[Best]) -> Best | None:
    """The best by the run's rule taking every candidate's latest figure as it stands, re-timed or not (what the
    re-timing confirms next)."""
    return best_by(pool, lambda b: b.key, lambda b: b.outcome.shapes)


@dataclass
class LoopState:
    run_id: str
    best: Best | None = None
    parent_profile: Profile | None = None
    history: list[RoundRecord] = field(default_factory=list)
    rounds: list[RoundSummary] = field(default_factory=list)
    usage: list[Usage] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(
        ("build", "verify", "time", "profile", "model"), 0.0))
    reference_ms: list[float] = field(default_factory=list)
    evaluated: int = 0  # the rounds' candidates
    retimed: int = 0  # extra evaluations of the best before the run reports it (see retiming.confirm_best)
    profiling_off: str | None = None
    profiling: dict[str, Any] = field(default_factory=lambda: {
        "reference": False, "rounds_profiled": 0, "failed": 0, "skipped": {}})
    valid: dict[str, Best] = field(default_factory=dict)  # every valid candidate's latest figure, by id
    # A round stopped part way (resume): its finished candidates by 1-based index, taken as they stand.
    partial: dict[int, dict[int, tuple[Candidate, Outcome]]] = field(default_factory=dict)
    earlier_s: float = 0.0  # wall seconds of the sessions before a resume
    stop_reason: str | None = None  # why the run stopped early (contracts/runrecord.py STOP_REASONS)
    stopped_early: StoppedEarly | None = None  # the best reached its speed of light with budget left
    regions: RegionTimes | None = None  # where the reference's forward spends its time (asked once per run)


def bottleneck_text(profile: Profile | None) -> str | None:
    """The parent's dominant bottleneck by ncu's own rules, as stored beside the SSDA's chosen direction."""
    b = profile.bottleneck if profile is not None else None
    if b is None:
        return None
    return f"{b.rule} ({b.direction or '?'})"


median = rule.median  # the usual median (the mean of the two middle values of an even count), as everywhere


def candidate_id(round_: int, index: int, source: str) -> str:
    return f"r{round_}c{index}-{hashlib.sha256(source.encode()).hexdigest()[:6]}"
