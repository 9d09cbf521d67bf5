"""How a run spends its deadline (engine/deadline.py holds the clock and the alarm): which rounds, candidates,
compiles, profiles and re-timings fit in what is left, from what this run's own steps cost so far, and what was
left out, in words, for the result.

The order of what is kept when time is short: the candidates of the rounds (the search), with the best's one
re-timing held back from them once there is a best (a figure that is not the winner's curse), and profiles only
when they are cheap against what is left (they steer the next round; they are never an answer). Without a
deadline every question here answers yes and nothing is left out.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine.deadline import COMPILE_GUESS_S, PROFILE_GUESS_S, Deadline
from engine.evaluate.outcome import Candidate, CandidateKind


def candidate_class(c: Candidate) -> str:
    """What a candidate's evaluation costs like: hiera's torch.compile files (a compile first), hiera's other
    ModelNew files (its CUDA-graph replay), a ModelNew a model or a user wrote (checked at other batch sizes by
    default, so several times the calls: pipeline._variants_for), contract sources (a build first)."""
    if c.kind is CandidateKind.MODELNEW:
        if not c.hieras_own:
            return "modelnew:other"
        return "compile" if c.hieras_compile else "modelnew"
    return "contract"


@dataclass
class Plan:
    deadline: Deadline
    on_gpu: bool
    wall: dict[str, float] = field(default_factory=dict)  # each evaluated candidate's wall seconds, by id
    _started: dict[str, float] = field(default_factory=dict)
    _skipped: list[str] = field(default_factory=list)  # this round's candidates left out, by id

    @property
    def active(self) -> bool:
        return self.deadline.active

    # --- what things cost ------------------------------------------------------------------------------------

    def started(self, c: Candidate) -> None:
        self._started[c.id] = time.perf_counter()

    def finished(self, c: Candidate) -> float | None:
        """Record a candidate's evaluation wall (from its start to its outcome); returns it."""
        t0 = self._started.pop(c.id, None)
        if t0 is None:
            return None
        wall = time.perf_counter() - t0
        self.wall[c.id] = wall
        self.deadline.costs.add(f"evaluate:{candidate_class(c)}", wall)
        self.deadline.costs.add("evaluate", wall)
        return wall

    def spent(self, step: str, seconds: float) -> None:
        """A step's cost: "build" (a round's sources), "compile" (its torch.compile files ahead), "profile"."""
        self.deadline.costs.add(step, seconds)

    def evaluation_estimate(self, c: Candidate) -> float | None:
        costs = self.deadline.costs
        cls = candidate_class(c)
        est = costs.estimate(f"evaluate:{cls}")
        if est is None and cls == "compile" and not self.on_gpu:
            est = COMPILE_GUESS_S["cpu"]  # on the CPU the compile happens in the candidate's own evaluation
        return est if est is not None else costs.estimate("evaluate")

    def estimate(self, c: Candidate, step: str) -> float | None:
        """What admitting `c` at `step` ("build", "compile", "uncompiled", "evaluate") will cost until its outcome
        is in."""
        costs = self.deadline.costs
        ev = self.evaluation_estimate(c)
        if step in ("compile", "uncompiled"):  # compiled ahead, or (its compile ahead cut) in its own runner
            compile_s = costs.estimate("compile") or COMPILE_GUESS_S["cuda" if self.on_gpu else "cpu"]
            return compile_s + (ev or 0.0)
        if step == "build":
            build_s = costs.estimate("build")
            return None if build_s is None and ev is None else (build_s or 0.0) + (ev or 0.0)
        return ev

    # --- what fits --------------------------------------------------------------------------------------------

    def retime_reserve(self, best_id: str | None, retimed: bool) -> float:
        """Seconds held back for the best's re-timing: its own evaluation's wall (an estimate before it has one)."""
        if not self.active or best_id is None or retimed:
            return 0.0
        return self.wall.get(best_id) or self.deadline.costs.estimate("evaluate") or 0.0

    def round_size(self, r: int, size: int, reserve: float) -> int:
        """How many of a round's `size` candidates to ask for: all without a deadline or an estimate; as many
        as fit by this run's evaluations so far; 0 when not one does (the round is not played)."""
        if not self.active:
            return size
        est = self.deadline.costs.estimate("evaluate")
        if est is None:
            return size if self.deadline.fits(None, reserve) else 0
        room = self.deadline.spendable() - reserve - (self.deadline.costs.estimate("build") or 0.0)
        return max(0, min(size, int(room // est)))

    def admit(self, c: Candidate, step: str, reserve: float) -> bool:
        """Whether `c` goes on to `step`; one that does not is left out of its round (end_round names them)."""
        if not self.active or self.deadline.fits(self.estimate(c, step), reserve):
            return True
        if c.id not in self._skipped:
            self._skipped.append(c.id)
        return False

    def profile_fits(self) -> bool:
        """Whether a profile is cheap enough against what is left (deadline.OPTIONAL_SHARE)."""
        return self.deadline.affords(self.deadline.costs.estimate("profile") or PROFILE_GUESS_S)

    def retime_fits(self, best_id: str) -> bool:
        return self.deadline.fits(self.wall.get(best_id) or self.deadline.costs.estimate("evaluate"))

    # --- what was left out ------------------------------------------------------------------------------------

    def end_round(self, r: int, of: int) -> list[str]:
        """Name the round's candidates the deadline left out, once the round has ended; returns their ids."""
        skipped, self._skipped = self._skipped, []
        if skipped:
            n = len(skipped)
            self.deadline.leave_out(f"round {r}: {n} of its {of} candidate{'s' if of != 1 else ''} not evaluated")
        return skipped

    def rounds_left_out(self, first: int, sizes: list[int]) -> None:
        """Rounds `first`.. (1-based) not played at all."""
        rest = sizes[first - 1:]
        if not rest:
            return
        which = f"round {first}" if len(rest) == 1 else f"rounds {first}-{first + len(rest) - 1}"
        self.deadline.leave_out(f"{which} ({sum(rest)} candidate{'s' if sum(rest) != 1 else ''}) not played")

    def shrunk(self, r: int, asked: int, size: int) -> None:
        if asked < size:
            self.deadline.leave_out(f"round {r}: {size - asked} of its {size} candidates not generated")

    def leave_out(self, what: str) -> None:
        self.deadline.leave_out(what)
