"""A scripted Backend for loop tests: fixed decisions and fixed candidate sources (no rules, no model)."""

from __future__ import annotations

from pathlib import Path

from contracts.vocabulary import Direction, Space
from engine.agents.base import Context, DirectionScores, Invalid, SpaceChoice, Strategy, Usage
from engine.evaluate.outcome import Candidate, CandidateKind


class Scripted:
    name = "scripted"

    def __init__(self, sources: list[Path | str], interrupt_in_round: int | None = None):
        self.sources = sources
        self.interrupt_in_round = interrupt_in_round
        self.usage: list[Usage] = []
        self.ssda, self.spa, self.oa = self, self, self
        self.contexts: list[Context] = []

    def select_space(self, ctx: Context) -> SpaceChoice:
        self.contexts.append(ctx)
        return SpaceChoice(Space.PURE_CUDA, "scripted")

    def score_directions(self, ctx: Context, space: Space) -> DirectionScores:
        return DirectionScores({Direction.R: 0.8, Direction.M: 0.5}, {Direction.R: ("fusable chain",)}, "scripted")

    def plan(self, ctx: Context, space: Space, scores: DirectionScores) -> Strategy:
        return Strategy(scores.best(), space, "R.fuse_pointwise", "fuse")

    def generate(self, ctx: Context, space: Space, strategy: Strategy, k: int) -> list[Candidate | Invalid]:
        if self.interrupt_in_round == ctx.round:
            raise KeyboardInterrupt
        self.usage.append(Usage("oa", "scripted", 10, 20, 0.01, 0.001))
        out: list[Candidate | Invalid] = []
        for i, s in enumerate(self.sources[:k]):
            if isinstance(s, str):
                out.append(Invalid(f"bad{i}", s))
            else:
                out.append(Candidate(f"s{i}", CandidateKind.CPP, s.read_text(), None, "scripted", s.name))
        return out

    def drain_usage(self) -> list[Usage]:
        u, self.usage = self.usage, []
        return u
