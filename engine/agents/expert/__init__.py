"""The offline expert backend: HIERA's three agents played by rules and code generators.

- SSDA (space_direction.py): workload analysis (analysis.py) -> the implementation space and the five direction
  scores, with the evidence and a rationale a person can read.
- SPA (planner.py): the argmax direction -> a knowledge-base strategy that a generator implements.
- OA (generate.py): K variants of that strategy, generated from the task's graph (lowering/ -> ir.py ->
  codegen/): fused pointwise and row-reduction kernels, shared-memory tiled transposes for stages that read
  transposed, cuBLAS/cuBLASLt products with fused epilogues, a tiled SGEMM, C++ loop nests for the CPU,
  and ModelNew files around torch.compile, CUDA graphs and cuDNN autotuning.

No model is called: each agent call is recorded as a Usage with zero tokens and its seconds.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from typing import TypeVar

from contracts.vocabulary import Space
from engine.agents.base import Context, DirectionScores, Invalid, SpaceChoice, Strategy, Usage
from engine.agents.expert import generate as oa
from engine.agents.expert import planner, space_direction
from engine.agents.expert.opener import opener
from engine.evaluate.outcome import Candidate

_T = TypeVar("_T")


class ExpertBackend:
    """Backend protocol (engine.agents.base.Backend) with rules and generators; constructed as ExpertBackend()."""

    name = "expert"

    def __init__(self) -> None:
        self._usage: list[Usage] = []
        self._memory = oa.Memory()
        self._forgotten: set[str] = set()  # sources the deadline left out once (forget)
        self.ssda = _SSDA(self)
        self.spa = _SPA(self)
        self.oa = _OA(self)

    def _timed(self, role: str, fn: Callable[[], _T]) -> _T:
        t0 = time.perf_counter()
        ok, err = True, None
        try:
            return fn()
        except Exception as e:
            ok, err = False, f"{type(e).__name__}: {e}"
            raise
        finally:
            self._usage.append(Usage(role, None, 0, 0, time.perf_counter() - t0, None, ok, err))

    def drain_usage(self) -> list[Usage]:
        out, self._usage = self._usage, []
        return out

    def opener(self, ctx: Context) -> Candidate | None:
        """The run's first candidate where one is played (opener.py), remembered as played: a later
        round's CUDA graph variant of the same forward is not generated again."""
        c = opener(ctx, origin="expert:torch")
        if c is not None:
            self._memory.seen.add(oa.source_identity(c.source))
        return c

    def forget(self, sources: list[str]) -> None:
        """Sources generated but never evaluated (the deadline left them out of their round): not played, so a
        later round may generate them again instead of finding its strategy used up."""
        for source in sources:
            identity = oa.source_identity(source)
            if identity not in self._forgotten:  # once: one that can never fit is not generated round after round
                self._forgotten.add(identity)
                self._memory.seen.discard(identity)

    def speculate(self, ctx: Context, allowed: tuple[Space, ...], k: int) -> list[Candidate]:
        """The round `ctx` describes, decided as it stands (round 1: before the reference's profile is in),
        leaving no trace: no usage, nothing remembered as played. The loop builds these while the profile is
        taken; the round then decided with the profile gets whatever sources are the same from the build
        cache. Never a decision: only a guess at what to compile early."""
        memory = copy.deepcopy(self._memory)

        def fresh(space: Space) -> bool:
            st = planner.plan(ctx, space, space_direction.score_directions(ctx, space),
                              fresh=lambda s: oa.has_new(ctx, space, s, memory))
            return oa.has_new(ctx, space, st, memory)

        space = space_direction.select_space(ctx, fresh=fresh).space
        space = space if space in allowed else allowed[0]
        st = planner.plan(ctx, space, space_direction.score_directions(ctx, space),
                          fresh=lambda s: oa.has_new(ctx, space, s, memory))
        return [c for c in oa.generate(ctx, space, st, k, memory) if isinstance(c, Candidate)]


class _SSDA:
    def __init__(self, backend: ExpertBackend):
        self.b = backend

    def select_space(self, ctx: Context) -> SpaceChoice:
        return self.b._timed("ssda", lambda: space_direction.select_space(
            ctx, fresh=lambda space: self._fresh(ctx, space)))

    def _fresh(self, ctx: Context, space: Space) -> bool:
        """A dry run of the planner and generators: whether a round in `space` would write anything not
        played in an earlier round (nothing is recorded), so no round is spent finding out it would not."""
        memory = self.b._memory
        scores = space_direction.score_directions(ctx, space)
        st = planner.plan(ctx, space, scores, fresh=lambda s: oa.has_new(ctx, space, s, memory))
        return oa.has_new(ctx, space, st, memory)

    def score_directions(self, ctx: Context, space: Space) -> DirectionScores:
        return self.b._timed("ssda", lambda: space_direction.score_directions(ctx, space))


class _SPA:
    def __init__(self, backend: ExpertBackend):
        self.b = backend

    def plan(self, ctx: Context, space: Space, scores: DirectionScores) -> Strategy:
        memory = self.b._memory
        return self.b._timed("spa", lambda: planner.plan(
            ctx, space, scores, fresh=lambda st: oa.has_new(ctx, space, st, memory)))


class _OA:
    def __init__(self, backend: ExpertBackend):
        self.b = backend

    def generate(self, ctx: Context, space: Space, strategy: Strategy, k: int) -> list[Candidate | Invalid]:
        return self.b._timed("oa", lambda: oa.generate(ctx, space, strategy, k, self.b._memory))


__all__ = ["ExpertBackend"]
