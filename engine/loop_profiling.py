"""The loop's Nsight Compute profiles: which ones a run takes and when, and what became of them.

The reference is profiled beside the worker's start (and the expert's guess at round 1 is compiled meanwhile:
build_ahead); a round's new best only when a later round reads its profile and it runs below AT_BOUND of the
task's speed of light (not_needed); a profile that fails is said once and never stops the run (record); the run's
result says what became of them all (summary: contracts/runrecord.py Profiling).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from contracts.runrecord import Profiling
from engine.agents.base import Context
from engine.evaluate.outcome import Candidate, CandidateKind, Outcome
from engine.loop_state import LoopState

if TYPE_CHECKING:
    from engine.loop_host import ProfilesHost
    from engine.profile.metrics import Profile

# A round's best at this share of the task's speed of light gets no profile: no bottleneck is left to name.
AT_BOUND = 0.9


def light_share(o: Outcome | None) -> float | None:
    """A valid outcome's share of the task's speed of light (engine/evaluate/speed_of_light.py: its graph's bound
    over the device's measured ceilings), or None without one."""
    if o is None or not o.valid or o.speed_of_light is None:
        return None
    return o.speed_of_light.fraction


class LoopProfiles:
    """The profiling hook of one Loop (it reads the loop's spec, settings, store, evaluator and clock)."""

    def __init__(self, loop: ProfilesHost):
        self.loop = loop

    def build_ahead(self, state: LoopState, r: int) -> None:
        """While the reference is profiled: compile what the round would be without its profile (a backend that
        can say so cheaply and without side effects: `speculate`). Only the build cache sees these; the round
        is decided afresh once the profile is in, and its sources that are the same are built already."""
        speculate = getattr(self.loop.backend, "speculate", None)
        if speculate is None or r != 1 or state.partial:
            return
        self.loop.clock.enter("build")
        try:
            guesses = speculate(self.loop.context(state, r), self.loop.allowed, self.loop.sizes[0])
            from engine.evaluate.build import build_many

            build_many([c for c in guesses if c.kind is not CandidateKind.MODELNEW], self.loop.evaluator.build_config)
        except Exception:  # a guess that fails costs nothing but its time: the round builds what it needs
            pass

    def not_needed(self, state: LoopState, ctx: Context, r: int) -> str | None:
        """Why a round's new best needs no profile (None: it does). Its profile is what the next round's
        decision reads: after the last round there is none, and a kernel at its speed of light has no
        bottleneck left to name."""
        if state.profiling_off is not None:
            return None  # said once already; _profile returns at once
        if r >= len(self.loop.sizes):
            return "last_round"
        share = light_share(state.best.outcome if state.best else None)
        if share is not None and share >= AT_BOUND:
            return "at_roofline"
        return None

    def collect(self, state: LoopState, cand: Candidate | None) -> Profile | Exception:
        """Profile the reference (cand None) or a candidate: the Profile, or the exception that ended it.

        Writes nothing to the store (the reference's runs beside the worker's start, on another thread)."""
        label = "reference" if cand is None else cand.id
        t0 = time.perf_counter()
        try:
            from engine import profile as prof

            work = self.loop.store.run_dir(state.run_id) / "profiles" / label
            if cand is None:
                return prof.profile_reference(str(self.loop.spec.path), self.loop.settings.eval.device,
                                              ncu_path=self.loop.settings.ncu_path, work_dir=work,
                                              precision=self.loop.settings.eval.precision.value,
                                              max_kernels=self.loop.settings.profile_kernels)
            artifact = self.artifact(cand)
            source = self.loop.store.run_dir(state.run_id) / "candidates" / f"{cand.id}{cand.kind.suffix}"
            return prof.profile_candidate(str(self.loop.spec.path), str(self.loop.evaluator.contract_dir), artifact,
                                          cand.kind.value, self.loop.settings.eval.device,
                                          ncu_path=self.loop.settings.ncu_path, layout=self.loop.evaluator.layout,
                                          source_path=source if source.exists() else None,
                                          precision=self.loop.settings.eval.precision.value, work_dir=work,
                                          max_kernels=self.loop.settings.profile_kernels)
        except Exception as e:  # a profile that fails must never stop the run
            return e
        finally:
            state.seconds["profile"] += time.perf_counter() - t0

    def record(self, state: LoopState, label: str, got: Profile | Exception) -> Profile | None:
        """What a profile came to: stored, or said once (no ncu, no permission...) and profiling turned off."""
        from engine.profile.ncu import ProfilerUnavailable

        if isinstance(got, ProfilerUnavailable):
            state.profiling_off = str(got)
            self.loop.notice(state, f"{got} — continuing on timings alone")
            return None
        if isinstance(got, Exception):
            state.profiling["failed"] += 1
            self.loop.notice(state, f"profiling {label} failed ({type(got).__name__}: {got}); continuing on timings")
            return None
        self.loop.store.record_profile(state.run_id, label, got.to_json())
        return got

    def profile(self, state: LoopState, cand: Candidate | None, label: str) -> Profile | None:
        """Profile the reference (cand None) or a candidate; None when profiling is off or fails."""
        if state.profiling_off is not None:
            return None
        return self.record(state, label, self.collect(state, cand))

    def artifact(self, cand: Candidate) -> str:
        from engine.evaluate.build import build_one

        if cand.kind is CandidateKind.MODELNEW:
            path = self.loop.evaluator.workdir / "candidates" / f"{cand.id}.py"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(cand.source)
            return str(path)
        b = build_one(cand, self.loop.evaluator.build_config)
        return str(b.artifact)

    def summary(self, state: LoopState) -> Profiling:
        s = self.loop.settings
        return Profiling(asked=s.profile, reference=bool(state.profiling["reference"]), rounds=len(state.rounds),
                         rounds_profiled=int(state.profiling["rounds_profiled"]),
                         skipped=dict(state.profiling["skipped"]), failed=int(state.profiling["failed"]),
                         off=state.profiling_off)
