"""What a run says about itself: its result, its rounds, its candidate rows and its progress events, typed once.

The engine (engine/loop.py) builds these and writes their JSON forms: the `--events jsonl` stream, the
`result` object (`hiera optimize --json`, and the run's stored summary) (docs/protocol.md §1–§2). The
language server (hiera_ls/) reads the same JSON back into the same types, and the editor extension's
`editors/vscode/src/protocol.ts` is checked field by field against them (tests/test_protocol_types.py).
Each type has one JSON form: `to_json()` writes it, `from_json()` reads it (a field an older engine did not
write reads as None).

Also here, because the engine and the language server must apply it alike: the rule for a run's best
(`pick_best`, over stored rows `best_of_rows`), and how a best's verdict reads (the verdict rule itself and
its words are contracts/verdict.py).

Imports nothing beyond the standard library (not torch, not engine/, not hiera_ls/).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from contracts import verdict as rule
from contracts.regions import RegionTimes
from contracts.shapes import ShapeReport
from contracts.speed_of_light import SpeedOfLight
from contracts.verdict import Verdict, verdict_of  # noqa: F401 - the rule's home is contracts/verdict.py

Json = dict[str, Any]

RETIMED = "-retimed"  # suffix of a re-timing's candidate id in the run store (the engine times its best again)
# Where a best that is not delivered (its verdict is not `faster`) goes, inside its run's folder, beside a reason
# file (NOT_DELIVERED_REASON) that says why in the verdict's words and numbers. Runs before this name used
# OLD_SLOWER_DIR; readers still recognise it.
NOT_DELIVERED_DIR = "not-delivered"
NOT_DELIVERED_REASON = "REASON.txt"
OLD_SLOWER_DIR = "slower-than-eager"
KEPT_DIRS = (NOT_DELIVERED_DIR, OLD_SLOWER_DIR)
SLOWER_DIR = OLD_SLOWER_DIR  # the name older code and tests import
BEST_SO_FAR_DIR = "best-so-far"  # a run's best as it stands, rewritten at each new best (a killed run keeps it)
# Why a run stopped before the end of its rounds (RunResult.stop_reason): its deadline (`--deadline`, the editor's
# `hiera.deadline`), Ctrl-C, SIGTERM (the editor's cancel), or the model endpoint going away mid-run.
STOP_REASONS = {"deadline": "its deadline came", "interrupted": "Ctrl-C", "terminated": "cancelled (SIGTERM)",
                "backend": "the model endpoint went away"}


def _opt(cls: Any, v: Any) -> Any:
    return cls.from_json(v) if isinstance(v, dict) else None


# --- figures: one pair's speedup, both times and the verdict ---------------------------------------------------

@dataclass(frozen=True)
class Figure:
    """A valid outcome's figure: speedup, both times, the interval and the verdict, all from one and the same pair."""

    speedup: float
    candidate_ms: float
    reference_ms: float
    retimed: bool
    spread: float
    verdict: str  # a Verdict's value
    # The two timings' own spreads (`spread` is the larger; they set the figure's digits).
    candidate_spread: float | None = None
    reference_spread: float | None = None
    # The candidate's time against the task's speed-of-light bound (contracts/speed_of_light.py); None: no bound.
    speed_of_light: SpeedOfLight | None = None
    # The interval of the speedup the verdict is read from (contracts/verdict.py): at `confidence` (0.95) from the
    # pair's samples, or the quartile range (confidence None) for a record that kept none.
    low: float | None = None
    high: float | None = None
    confidence: float | None = None

    def to_json(self) -> Json:
        return {"speedup": self.speedup, "candidate_ms": self.candidate_ms, "reference_ms": self.reference_ms,
                "retimed": self.retimed, "spread": self.spread, "verdict": self.verdict,
                "candidate_spread": self.candidate_spread, "reference_spread": self.reference_spread,
                "speed_of_light": self.speed_of_light.to_json() if self.speed_of_light else None,
                "low": self.low, "high": self.high, "confidence": self.confidence}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Figure:
        return cls(d.get("speedup"), d.get("candidate_ms"), d.get("reference_ms"), d.get("retimed"),
                   d.get("spread"), d.get("verdict"), d.get("candidate_spread"), d.get("reference_spread"),
                   SpeedOfLight.from_json(d.get("speed_of_light")), d.get("low"), d.get("high"), d.get("confidence"))

    @classmethod
    def of_pair(cls, candidate_ms: float, reference_ms: float, retimed: bool, candidate_spread: float | None,
                reference_spread: float | None, unstable: bool = False,
                speed_of_light: SpeedOfLight | None = None,
                interval: tuple[float, float, float | None] | None = None) -> Figure:
        """The figure of one timed pair (each side's median and spread, the interval of their ratio:
        rule.timings_interval) by the one rule, contracts/verdict.py. unstable: the evaluator found the two
        sides not timed alike (its `unstable_timing` flag). No interval at all: level (nothing shows otherwise)."""
        speedup = reference_ms / candidate_ms
        spread = rule.pair_spread(candidate_spread, reference_spread)
        low, high, confidence = interval if interval is not None else (None, None, None)
        verdict = (rule.Verdict.UNSTABLE if unstable else
                   rule.verdict_of_interval(low, high) if low is not None and high is not None else rule.Verdict.LEVEL)
        return cls(speedup, candidate_ms, reference_ms, retimed, spread, verdict.value, candidate_spread,
                   reference_spread, speed_of_light, low, high, confidence)

    @property
    def rank(self) -> tuple[int, float]:
        return rule.rank(self.verdict, self.low)


@dataclass(frozen=True)
class BestFigure:
    """A candidate's figure, named: the best of a run or of a round, as events and rounds carry it."""

    candidate_id: str
    speedup: float
    candidate_ms: float
    reference_ms: float
    retimed: bool
    spread: float
    verdict: str
    candidate_spread: float | None = None
    reference_spread: float | None = None
    speed_of_light: SpeedOfLight | None = None
    low: float | None = None
    high: float | None = None
    confidence: float | None = None

    @classmethod
    def of(cls, candidate_id: str, fig: Figure) -> BestFigure:
        return cls(candidate_id, fig.speedup, fig.candidate_ms, fig.reference_ms, fig.retimed, fig.spread,
                   fig.verdict, fig.candidate_spread, fig.reference_spread, fig.speed_of_light, fig.low, fig.high,
                   fig.confidence)

    @property
    def figure(self) -> Figure:
        return Figure(self.speedup, self.candidate_ms, self.reference_ms, self.retimed, self.spread, self.verdict,
                      self.candidate_spread, self.reference_spread, self.speed_of_light, self.low, self.high,
                      self.confidence)

    def to_json(self) -> Json:
        return {"candidate_id": self.candidate_id, **self.figure.to_json()}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> BestFigure:
        return cls.of(d.get("candidate_id"), Figure.from_json(d))


def verdict_phrase(fig: Figure | BestFigure | RunBest) -> str:
    """How a figure reads to a user, e.g. "level with eager (0.80–1.3x at 95%, which includes 1)"."""
    return rule.verdict_phrase(fig.verdict, fig.low, fig.high, fig.confidence, fig.spread)


def not_delivered_reason(fig: Figure | BestFigure, flags: Iterable[str] = ()) -> str:
    """Why a best was not written beside its task, in its verdict's words with its numbers (the run's last lines,
    the reason file beside the kept copy, the editor): 'its speedup, 1.2x (0.80–1.9x at 95%, which includes 1),
    is level with eager: ...'."""
    from contracts.verdict import flag_words, ratio_text

    said = f"{ratio_text(fig.speedup, fig.spread, 'x')}, {verdict_phrase(fig)}"
    if fig.verdict == Verdict.UNSTABLE.value:
        why = "; ".join(flag_words(f, "x", detail=True).removeprefix("flagged: ") for f in flags
                        if str(f).startswith(rule.UNSTABLE_FLAG))
        return (f"not delivered: its figure ({said}) has no verdict: {why or 'the two sides were not timed alike'}; "
                "a result is written beside the task only when the whole 95% interval of its speedup is above 1")
    return (f"not delivered: its figure is {said}; a result is written beside the task only when the whole 95% "
            "interval of its speedup is above 1 (faster than eager)")


# --- the rule for "the best", whoever shows it -----------------------------------------------------------------

T = TypeVar("T")


def pick_best(pool: Iterable[T], key: Callable[[T], Any], retimed: Callable[[T], bool],
              shapes: Callable[[T], ShapeReport | None] | None = None) -> T | None:
    """The canonical best of a pool of valid candidates (each with its latest figure; a failed re-timing has
    already removed its candidate): once any candidate has been re-timed, the best re-timed one, else the best
    first pair, "best" by `key` (figure_key: faster ones first, then the highest lower end of the interval, so a
    steady 3.0x beats a 13x whose interval reaches below 1) and, with `shapes`, on every batch size checked
    (best_by). The loop, `hiera report` and the language server all apply this rule."""
    items = list(pool)
    fresh = [x for x in items if retimed(x)]
    return best_by(fresh or items, key, shapes)


def best_by(items: Iterable[T], key: Callable[[T], Any], shapes: Callable[[T], ShapeReport | None] | None = None
            ) -> T | None:
    """The largest by `key` (figure_key), chosen on every batch size checked where that is known (issue 38): the
    lower end and the speedup weighed by what each candidate's file delivers across the sizes it was checked at
    over its given figure (ShapeReport.size_factor; a kernel 7x at the given batch whose file serves no other size
    loses to one 5x at every size). A candidate not checked at other sizes (a ModelNew under `--shapes contract`,
    a task without a batch to vary) has no such figure: it is weighed as the best checked candidate of the pool
    is, credited with no more across sizes than a checked one showed and held to no less (1 when none was
    checked). One key for the whole pool, so the rule is transitive within it."""
    items = list(items)
    if shapes is None:
        return max(items, key=key, default=None)
    shown = [s.size_factor for x in items if checked_at_other_sizes(s := shapes(x))]
    unchecked = max(shown, default=1.0)

    def weighed_key(x: T) -> tuple[int, float, float]:
        s = shapes(x)
        return weighed(key(x), s.size_factor if s is not None and checked_at_other_sizes(s) else unchecked)

    return max(items, key=weighed_key, default=None)


def checked_at_other_sizes(shapes: ShapeReport | None) -> bool:
    """A shape report that says what the candidate delivers beyond the given batch: its given figure known and at
    least one other size checked."""
    return shapes is not None and bool(shapes.given_speedup) and bool(shapes.checked)


def weighed(key: tuple[int, float, float], weight: float) -> tuple[int, float, float]:
    """figure_key with its lower end and speedup weighed (ShapeReport.size_factor: what the file delivers across
    the sizes checked over the given figure)."""
    return (key[0], key[1] * weight, key[2] * weight)


def figure_key(fig: Figure | BestFigure | None) -> tuple[int, float, float]:
    """What pick_best ranks a figure by: contracts/verdict.py rank (faster first, then the interval's lower end),
    the speedup last among equals."""
    if fig is None:
        return (0, 0.0, 0.0)
    return (*rule.rank(fig.verdict, fig.low), fig.speedup or 0.0)


def row_figure(row: Mapping[str, Any], retimed: bool) -> Figure | None:
    """The figure of a stored valid candidate row (contracts/runstore.py: candidate_ms, reference_ms, and its
    outcome's timing and flags), by the same rule as the engine's; None when it holds no pair."""
    c, r = row.get("candidate_ms"), row.get("reference_ms")
    if row.get("status") != "valid" or not (isinstance(c, (int, float)) and c > 0 and isinstance(r, (int, float))
                                            and r > 0):
        return None
    outcome = row.get("outcome") if isinstance(row.get("outcome"), dict) else {}
    timing = outcome.get("timing") if isinstance(outcome.get("timing"), dict) else {}
    ct, rt = timing.get("candidate") or {}, timing.get("reference") or {}

    def side(t: Mapping[str, Any], med: float) -> float | None:
        ok = all(isinstance(t.get(q), (int, float)) for q in ("p25_ms", "p75_ms"))
        return rule.timing_spread(t["p25_ms"], t["p75_ms"], med) if ok else None

    flags = outcome.get("flags") if isinstance(outcome.get("flags"), list) else []
    return Figure.of_pair(c, r, retimed, side(ct, c), side(rt, r), rule.flagged_unstable(flags),
                          interval=rule.timings_interval(ct, rt))


def latest_figures(rows: list[Json]) -> dict[str, tuple[Json, bool]]:
    """Stored candidate rows -> {candidate id: (the row holding its latest valid figure, re-timed?)}.

    A re-timing row (id + RETIMED) replaces its candidate's first pair when valid and removes the candidate
    when not (it failed on its own, so it is not kept)."""
    pool: dict[str, tuple[Json, bool]] = {}
    for row in rows:
        if not row["id"].endswith(RETIMED) and row["status"] == "valid" and row.get("speedup"):
            pool[row["id"]] = (row, False)
    for row in rows:
        if row["id"].endswith(RETIMED):
            base = row["id"][: -len(RETIMED)]
            if row["status"] == "valid" and row.get("speedup"):
                pool[base] = (row, True)
            else:
                pool.pop(base, None)
    return pool


def best_of_rows(rows: list[Json]) -> tuple[Json, bool] | None:
    """The canonical best (pick_best) of stored candidate rows: (its row, re-timed?) or None."""
    return pick_best(latest_figures(rows).values(), lambda x: figure_key(row_figure(x[0], x[1])), lambda x: x[1],
                     lambda x: shapes_of(x[0]))


# --- the result object ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CandidateRow:
    """One candidate of a round, as the result's rounds list it (`outcomes`)."""

    candidate_id: str
    index: int | None  # its 1-based position among the round's K candidates
    status: str
    reason: str
    speedup: float | None
    candidate_ms: float | None
    # What it was found valid on at other batch sizes (contracts/shapes.py); None: not checked.
    shapes: ShapeReport | None = None
    # Its first pair's verdict and interval (contracts/verdict.py); None for an invalid one or an older record.
    verdict: str | None = None
    low: float | None = None
    high: float | None = None
    confidence: float | None = None

    REASON_CHARS: ClassVar[int] = 500

    @classmethod
    def from_store(cls, row: Mapping[str, Any], reason_chars: int | None = REASON_CHARS) -> CandidateRow:
        """A stored candidate row (contracts/runstore.py: `id`, `idx`) as a round lists it; the reason cut to
        reason_chars as the engine's result keeps it (None: whole)."""
        reason = row["reason"] if reason_chars is None else row["reason"][:reason_chars]
        fig = row_figure(row, False)
        return cls(row["id"], row.get("idx"), row["status"], reason, row.get("speedup"), row.get("candidate_ms"),
                   shapes_of(row), fig.verdict if fig else None, fig.low if fig else None,
                   fig.high if fig else None, fig.confidence if fig else None)

    def to_json(self) -> Json:
        return {"candidate_id": self.candidate_id, "index": self.index, "status": self.status,
                "reason": self.reason, "speedup": self.speedup, "candidate_ms": self.candidate_ms,
                "shapes": self.shapes.to_json() if self.shapes else None, "verdict": self.verdict,
                "low": self.low, "high": self.high, "confidence": self.confidence}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CandidateRow:
        return cls(d.get("candidate_id"), d.get("index"), d.get("status"), d.get("reason"), d.get("speedup"),
                   d.get("candidate_ms"), _opt(ShapeReport, d.get("shapes")), d.get("verdict"), d.get("low"),
                   d.get("high"), d.get("confidence"))


def shapes_of(row: Mapping[str, Any]) -> ShapeReport | None:
    """A stored candidate row's shape report (in its outcome JSON), or None."""
    outcome = row.get("outcome")
    return _opt(ShapeReport, outcome.get("shapes")) if isinstance(outcome, dict) else None


@dataclass
class RoundSummary:
    """One round: the SSDA's space and direction scores, the SPA's strategy, its candidates and its best."""

    round: int
    space: str
    scores: dict[str, float]
    direction: str
    strategy: str
    rationale: str
    outcomes: list[CandidateRow]
    best: BestFigure | None = None  # by the run's rule, set when the run ends
    # The space as what it was on the run's device ("native C++" on the CPU, where `space` keeps the engine's id,
    # pure_cuda): contracts/wording.py space_title. None from older engines.
    space_title: str | None = None
    # A round a stop (its deadline, Ctrl-C, SIGTERM) cut short: `outcomes` are the candidates it finished.
    partial: bool = False

    def to_json(self) -> Json:
        return {"round": self.round, "space": self.space, "scores": self.scores, "direction": self.direction,
                "strategy": self.strategy, "rationale": self.rationale,
                "outcomes": [o.to_json() for o in self.outcomes],
                "best": self.best.to_json() if self.best else None, "space_title": self.space_title,
                "partial": self.partial}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RoundSummary:
        return cls(d.get("round"), d.get("space"), d.get("scores"), d.get("direction"), d.get("strategy"),
                   d.get("rationale"), [CandidateRow.from_json(o) for o in d.get("outcomes") or []],
                   _opt(BestFigure, d.get("best")), d.get("space_title"), bool(d.get("partial")))


@dataclass(frozen=True)
class ResultPaths:
    """The result files the run wrote: the ModelNew module and the kernel's copy (None for a whole ModelNew)."""

    py: str
    cu: str | None

    def to_json(self) -> Json:
        return {"py": self.py, "cu": self.cu}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ResultPaths:
        return cls(d.get("py"), d.get("cu"))


@dataclass(frozen=True)
class RunBest:
    """The run's best: its figure, where it came from, and the files written for it."""

    candidate_id: str
    speedup: float
    candidate_ms: float
    reference_ms: float
    retimed: bool
    spread: float
    verdict: str
    round: int
    space: str
    direction: str
    flags: list[str]
    paths: ResultPaths | None
    first_import: str | None
    candidate_spread: float | None = None
    reference_spread: float | None = None
    shapes: ShapeReport | None = None  # what it was found valid on at other batch sizes; None: not checked
    speed_of_light: SpeedOfLight | None = None  # its figure against the task's bound; None: no bound
    low: float | None = None
    high: float | None = None
    confidence: float | None = None
    # Why the best was not written beside the task (its verdict, in words with its interval; the same text as the
    # reason file beside the kept copy in NOT_DELIVERED_DIR); None when it was, or when the run wrote nothing.
    not_delivered: str | None = None
    space_title: str | None = None  # its space as what it was on the run's device (RoundSummary.space_title)

    @property
    def figure(self) -> BestFigure:
        return BestFigure(self.candidate_id, self.speedup, self.candidate_ms, self.reference_ms, self.retimed,
                          self.spread, self.verdict, self.candidate_spread, self.reference_spread,
                          self.speed_of_light, self.low, self.high, self.confidence)

    def to_json(self) -> Json:
        return {**self.figure.to_json(), "round": self.round, "space": self.space, "direction": self.direction,
                "flags": self.flags, "paths": self.paths.to_json() if self.paths else None,
                "first_import": self.first_import, "shapes": self.shapes.to_json() if self.shapes else None,
                "not_delivered": self.not_delivered, "space_title": self.space_title}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RunBest:
        f = BestFigure.from_json(d)
        # An engine before this form named the paired eager time `paired_reference_ms`.
        ref = f.reference_ms if f.reference_ms is not None else d.get("paired_reference_ms")
        return cls(f.candidate_id, f.speedup, f.candidate_ms, ref, f.retimed, f.spread, f.verdict,
                   d.get("round"), d.get("space"), d.get("direction"), list(d.get("flags") or []),
                   _opt(ResultPaths, d.get("paths")), d.get("first_import"), f.candidate_spread, f.reference_spread,
                   _opt(ShapeReport, d.get("shapes")), f.speed_of_light, f.low, f.high, f.confidence,
                   d.get("not_delivered"), d.get("space_title"))


@dataclass(frozen=True)
class Tokens:
    prompt: int
    completion: int

    def to_json(self) -> Json:
        return {"prompt": self.prompt, "completion": self.completion}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Tokens:
        return cls(d.get("prompt"), d.get("completion"))


@dataclass
class Profiling:
    """What became of the profiles a run asked for: said wherever the run's figures are (result, bench, editor),
    so a run whose directions were chosen without a single hardware profile cannot pass for a profiled one."""

    asked: bool  # profiling was on for this run
    reference: bool  # the reference was profiled
    rounds: int  # the rounds the run played
    rounds_profiled: int  # rounds whose new best was profiled (the next round's decision read it)
    skipped: dict[str, int]  # rounds whose best needed none, by why: last_round, at_roofline
    failed: int  # profiles that were attempted and failed (each said in a notice)
    off: str | None  # why profiling stopped (no ncu, no permission, the CPU), or None

    def to_json(self) -> Json:
        return {"asked": self.asked, "reference": self.reference, "rounds": self.rounds,
                "rounds_profiled": self.rounds_profiled, "skipped": dict(self.skipped or {}),
                "failed": self.failed, "off": self.off}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Profiling:
        return cls(bool(d.get("asked")), bool(d.get("reference")), int(d.get("rounds") or 0),
                   int(d.get("rounds_profiled") or 0), dict(d.get("skipped") or {}), int(d.get("failed") or 0),
                   d.get("off"))

    def summary(self) -> str:
        """In words, e.g. 'profiled: the reference and 1 of 3 rounds (2 needed none: last round, at its speed of
        light)'."""
        if not self.asked:
            return "profiling off (--no-profile)"
        if self.off and not self.reference and not self.rounds_profiled:
            return f"not profiled: {self.off}"
        needed_none = sum(self.skipped.values())
        why = ", ".join(f"{n} {_SKIP_WORDS.get(k, k)}" for k, n in sorted(self.skipped.items()))
        text = (f"profiled: {'the reference and ' if self.reference else 'not the reference; '}"
                f"{self.rounds_profiled} of {self.rounds} rounds")
        if needed_none:
            text += f" ({needed_none} needed none: {why})"
        if self.failed:
            text += f"; {self.failed} failed"
        if self.off:
            text += f"; then off: {self.off}"
        return text


_SKIP_WORDS = {"last_round": "the last round's", "at_roofline": "at its speed of light"}


@dataclass(frozen=True)
class StoppedEarly:
    """A run that stopped spending its budget because its best reached STOP_FRACTION of its speed of light."""

    round: int  # the last round played
    fraction: float  # the best's share of its bound then
    bound: str  # memory | compute | launch
    candidates_saved: int  # the budget's candidates not spent
    seconds_saved: float  # about: the candidates not spent at the run's mean seconds per candidate

    def to_json(self) -> Json:
        return {"round": self.round, "fraction": self.fraction, "bound": self.bound,
                "candidates_saved": self.candidates_saved, "seconds_saved": self.seconds_saved}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> StoppedEarly:
        return cls(d.get("round"), d.get("fraction"), d.get("bound"), d.get("candidates_saved"),
                   d.get("seconds_saved"))

    def summary(self) -> str:
        """'stopped early after round 1: the best runs at 91% of its speed of light (memory-bound); 12 candidates
        (about 40 s) not spent'."""
        from contracts.speed_of_light import share_text

        return (f"stopped early after round {self.round}: the best runs at {share_text(self.fraction)} of its speed "
                f"of light ({self.bound}-bound); {self.candidates_saved} candidates (about {self.seconds_saved:.0f} s)"
                " not spent")


@dataclass
class RunResult:
    """The optimize object (docs/protocol.md §2): the `result` event, `hiera optimize --json`, the stored
    summary of a run that ended."""

    run_id: str
    status: str  # finished | stopped (with stop_reason) | failed
    task: str
    device: str
    backend: str
    reference_ms: float | None  # the median of the run's eager timings
    best: RunBest | None
    budget: int
    candidates: int  # the rounds' candidates evaluated
    retimed: int  # re-timings of a best
    rounds: list[RoundSummary]
    tokens: Tokens
    seconds: dict[str, float]  # build, verify, time, profile, model, total
    cost_usd: float | None
    notices: list[str]
    # Wall seconds by phase (engine/phases.py), summing to the run's wall time; empty from older engines.
    phases: dict[str, float] = field(default_factory=dict)
    profiling: Profiling | None = None  # None from older engines
    # Why a `stopped` run stopped (STOP_REASONS); None for a finished run.
    stop_reason: str | None = None
    # What the deadline left out, in words, in the order it was left out ("the reference's profile", "round 3:
    # 6 candidates"); empty when nothing was.
    left_out: list[str] = field(default_factory=list)
    deadline_s: float | None = None  # the run's deadline (seconds from its process's start), or None
    # The precision policy every figure of the run was judged at (contracts/precision.py: "fp32", "tf32", "bf16",
    # "fp16") and its tolerance (precision.tolerance_json); None from older engines (they judged at fp32 or tf32).
    precision: str | None = None
    tolerance: Json | None = None
    stopped_early: StoppedEarly | None = None  # the budget left unspent at the speed of light; None: spent
    # Where the reference's forward spends its time on the run's device, by submodule (contracts/regions.py);
    # None for a module with no submodules, or from older engines.
    regions: RegionTimes | None = None
    # The device's name ("NVIDIA H200"): `device` is the device itself ("cuda:0"), the views join them
    # (wording.device_words); None from older engines, whose `device` held both ("cuda:0 (NVIDIA H200)").
    device_name: str | None = None

    def to_json(self) -> Json:
        return {"run_id": self.run_id, "status": self.status, "stop_reason": self.stop_reason,
                "deadline_s": self.deadline_s, "left_out": list(self.left_out or []),
                "task": self.task, "device": self.device, "device_name": self.device_name,
                "precision": self.precision, "tolerance": self.tolerance,
                "backend": self.backend, "reference_ms": self.reference_ms,
                "best": self.best.to_json() if self.best else None, "budget": self.budget,
                "candidates": self.candidates, "retimed": self.retimed, "rounds": [r.to_json() for r in self.rounds],
                "tokens": self.tokens.to_json(), "seconds": self.seconds, "cost_usd": self.cost_usd,
                "notices": self.notices, "phases": dict(self.phases or {}),
                "profiling": self.profiling.to_json() if self.profiling else None,
                "stopped_early": self.stopped_early.to_json() if self.stopped_early else None,
                "regions": self.regions.to_json() if self.regions else None}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RunResult:
        return cls(d.get("run_id"), d.get("status"), d.get("task"), d.get("device"), d.get("backend"),
                   d.get("reference_ms"), _opt(RunBest, d.get("best")), d.get("budget"), d.get("candidates"),
                   d.get("retimed"), [RoundSummary.from_json(r) for r in d.get("rounds") or []],
                   Tokens.from_json(d.get("tokens") or {}), dict(d.get("seconds") or {}), d.get("cost_usd"),
                   list(d.get("notices") or []), dict(d.get("phases") or {}), _opt(Profiling, d.get("profiling")),
                   d.get("stop_reason"), list(d.get("left_out") or []), d.get("deadline_s"),
                   d.get("precision"), d.get("tolerance"),
                   _opt(StoppedEarly, d.get("stopped_early")), RegionTimes.from_json(d.get("regions")),
                   d.get("device_name"))


# --- progress events (docs/protocol.md §1): `{"event": NAME, ...fields}` one per line --------------------------

@dataclass(frozen=True)
class RunStarted:
    EVENT: ClassVar[str] = "run_started"
    run_id: str
    task: str
    device: str
    rounds: int
    candidates: int
    budget: int
    backend: str
    store: str
    run_dir: str
    deadline_s: float | None = None  # the run ends by this many seconds after its process started; None: no deadline
    device_name: str | None = None  # the device's name ("NVIDIA H200"); `device` is the device ("cuda:0")


@dataclass(frozen=True)
class Notice:
    EVENT: ClassVar[str] = "notice"
    message: str


@dataclass(frozen=True)
class ReferenceTimed:
    EVENT: ClassVar[str] = "reference_timed"
    reference_ms: float


@dataclass(frozen=True)
class RoundStarted:
    EVENT: ClassVar[str] = "round_started"
    round: int
    space: str
    scores: dict[str, float]
    direction: str
    strategy: str
    rationale: str
    of: int


@dataclass(frozen=True)
class CandidateStarted:
    EVENT: ClassVar[str] = "candidate_started"
    round: int
    index: int
    of: int


@dataclass(frozen=True)
class CandidateFinished:
    EVENT: ClassVar[str] = "candidate_finished"
    round: int
    index: int
    of: int
    candidate_id: str
    source: str
    status: str
    reason: str
    speedup: float | None
    candidate_ms: float | None
    best_speedup: float | None
    best: BestFigure | None
    # This candidate's own figure from its first pair (interval and verdict), null when it is not valid.
    figure: Figure | None = None


@dataclass(frozen=True)
class RoundFinished:
    EVENT: ClassVar[str] = "round_finished"
    round: int
    best_speedup: float | None
    best: BestFigure | None


@dataclass(frozen=True)
class RetimeStarted:
    EVENT: ClassVar[str] = "retime_started"
    candidate_id: str
    first: BestFigure


@dataclass(frozen=True)
class RetimeFinished:
    EVENT: ClassVar[str] = "retime_finished"
    candidate_id: str
    status: str
    figure: Figure | None
    best: BestFigure | None


@dataclass(frozen=True)
class Progress:
    """How much of the run's work is done, as the engine counts it (engine/progress.py): `total` is the candidates
    the rounds generated (a later round's as asked), plus the re-timings and profiles begun; `what` is the step
    under way; `seconds` is how long it has run (set on a heartbeat, every 15 s of one long step; else null)."""

    EVENT: ClassVar[str] = "progress"
    done: int
    total: int
    what: str
    seconds: float | None = None


@dataclass(frozen=True)
class Failed:
    """The run failed (an exception in the engine): its message and where its log is."""

    EVENT: ClassVar[str] = "error"
    message: str
    log: str | None


@dataclass(frozen=True)
class Result:
    """The run's end: its result object, flat after the event's name."""

    EVENT: ClassVar[str] = "result"
    result: RunResult


Event = (RunStarted | Notice | ReferenceTimed | RoundStarted | CandidateStarted | CandidateFinished | RoundFinished
         | RetimeStarted | RetimeFinished | Progress | Failed | Result)
EVENTS: dict[str, type[Any]] = {c.EVENT: c for c in (RunStarted, Notice, ReferenceTimed, RoundStarted,
                                                      CandidateStarted, CandidateFinished, RoundFinished,
                                                      RetimeStarted, RetimeFinished, Progress, Failed, Result)}
# Fields holding a nested type, by event: (field, its type).
_NESTED: dict[str, tuple[tuple[str, type[Any]], ...]] = {
    "candidate_finished": (("best", BestFigure), ("figure", Figure)), "round_finished": (("best", BestFigure),),
    "retime_started": (("first", BestFigure),), "retime_finished": (("figure", Figure), ("best", BestFigure))}


def _event_fields(cls: type[Any]) -> list[str]:
    return [f.name for f in fields(cls)]


def event_json(ev: Event) -> Json:
    """An event's one JSON form: {"event": its name, its fields in order} (a result: the result's fields)."""
    if isinstance(ev, Result):
        return {"event": Result.EVENT, **ev.result.to_json()}
    out: Json = {"event": ev.EVENT}
    for name in _event_fields(type(ev)):
        v = getattr(ev, name)
        out[name] = v.to_json() if hasattr(v, "to_json") else v
    return out


def parse_event(d: Mapping[str, Any]) -> Event | None:
    """The event of one JSON line; None for a name this engine does not write (an older or newer engine's)."""
    cls = EVENTS.get(str(d.get("event")))
    if cls is None:
        return None
    if cls is Result:
        return Result(RunResult.from_json(d))
    nested = dict(_NESTED.get(cls.EVENT, ()))
    return cls(**{f: _opt(nested[f], d.get(f)) if f in nested else d.get(f) for f in _event_fields(cls)})

