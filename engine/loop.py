"""Algorithm 1: the HIERA loop.

    parent = the reference; feedback = its profile (when profiling is on)
    for each round: space = SSDA.select_space; scores = SSDA.score_directions; d = argmax scores
                    strategy = SPA.plan(space, d); X = OA.generate(strategy, K)
                    evaluate X as a batch; the best valid candidate (if better) becomes the parent;
                    profile it; feed that profile to the next round

Every decision, candidate, outcome, profile and model call is written to the run store as it happens (each
verdict as it finishes, not after its batch), so a killed run keeps everything it finished, and `--resume`
continues where it stopped without measuring a finished candidate again.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contracts.precision import tolerance_json
from contracts.runrecord import (
    BestFigure,
    CandidateFinished,
    CandidateRow,
    CandidateStarted,
    Event,
    Notice,
    ReferenceTimed,
    Result,
    ResultPaths,
    RoundFinished,
    RoundStarted,
    RoundSummary,
    RunBest,
    RunResult,
    RunStarted,
    Tokens,
    best_by,
    event_json,
    figure_key,
)
from contracts.verdict import task_refused
from contracts.vocabulary import Direction, Space
from contracts.wording import space_title
from engine.agents.base import Backend, Context, DirectionScores, Invalid, RoundRecord, SpaceChoice
from engine.background import in_background, stop_reason, uninterrupted
from engine.deadline import Deadline
from engine.evaluate.outcome import Candidate, CandidateKind, Outcome, Status
from engine.evaluate.pipeline import Evaluator
from engine.loop_light import stop_early
from engine.loop_plan import Plan, candidate_class
from engine.loop_profiling import LoopProfiles
from engine.loop_resume import resume_state
from engine.loop_state import (
    Best,
    EventSink,
    LoopSettings,
    LoopState,
    best_first_pair,
    best_of,
    bottleneck_text,
    candidate_id,
    figure,
    median,
)
from engine.phases import PhaseClock
from engine.progress import WorkCount
from engine.result_files import ResultFiles
from engine.retiming import MAX_RETIMES, confirm_best, flag_noisy_reference, worth_retiming
from engine.store import RunStore
from engine.task.export import first_call_note, first_import_note
from engine.task.spec import TaskSpec
from engine.untrusted import clean

if TYPE_CHECKING:
    from engine.profile.metrics import Profile

# What callers and tests name from here: the loop's parts live in loop_state, retiming, loop_profiling,
# loop_resume and result_files (engine/loop.py is Algorithm 1 itself).
__all__ = ["MAX_RETIMES", "Best", "EventSink", "Loop", "LoopSettings", "LoopState", "bottleneck_text", "figure",
           "in_background", "uninterrupted"]
_bottleneck_text = bottleneck_text  # the name tests used


class Loop:
    def __init__(self, spec: TaskSpec, backend: Backend, store: RunStore, workdir: Path, settings: LoopSettings,
                 sink: EventSink | None = None, cache_dir: Path | None = None, started_s: float = 0.0):
        """started_s: seconds the process had already spent before the loop (its start, the task's load)."""
        self.spec, self.backend, self.store, self.settings = spec, backend, store, settings
        self.workdir = workdir
        self.sink = sink or (lambda e: None)
        self.cache_dir = cache_dir
        self.allowed = (settings.space,) if settings.space else tuple(Space)
        self.sizes = settings.round_sizes()
        self.t0 = time.perf_counter() - started_s
        self.clock = PhaseClock("start", started_s)
        # The deadline counts from the process's start, as the user's clock does (start-up included).
        self.deadline = Deadline(settings.deadline_s, started=self.t0)
        self.plan = Plan(self.deadline, settings.eval.device.is_cuda)
        self.profiles = LoopProfiles(self)
        self.files = ResultFiles(self)
        self._kept_best: tuple[str, float, bool] | None = None  # the best-so-far copy last written
        self._in_flight: RoundSummary | None = None  # the round being played (reported `partial` by a stop)
        self._emit_lock = threading.Lock()  # the heartbeat (engine/progress.py) emits from a thread of its own
        self.work = WorkCount(self.emit, self.sizes)
        # Made by run(), inside the deadline and the 'worker' phase: it probes the sandbox and starts the checker.
        self.evaluator: Evaluator | None = None

    # --- events -------------------------------------------------------------------------------------

    def emit(self, event: Event) -> None:
        with self._emit_lock:
            self.sink(event_json(event))

    def notice(self, state: LoopState, message: str) -> None:
        message = clean(message)  # a notice may quote a candidate's reason or a model's words
        self.store.record_notice(state.run_id, message)
        self.emit(Notice(message))

    # --- the run ------------------------------------------------------------------------------------

    def start(self, backend_name: str) -> LoopState:
        s = self.settings
        run_id = self.store.start_run("optimize", self.spec.path, self.spec.name, self.spec.source_hash,
                                      s.record(), backend=backend_name, device=str(s.eval.device))
        return LoopState(run_id)

    def resume(self, run_id: str) -> tuple[LoopState, int]:
        """Rebuild the state of a stopped run from the store; returns it and the round to continue with
        (engine/loop_resume.py)."""
        return resume_state(self, run_id)

    def write_results(self, best: Best, run_id: str) -> ResultPaths:
        """The run's one result file (engine/result_files.py)."""
        return self.files.write(best, run_id)

    def _confirm_best(self, state: LoopState) -> None:
        """Time the best again, on its own, before the run reports it (engine/retiming.py)."""
        confirm_best(self, state)

    def run(self, state: LoopState, first_round: int = 1) -> RunResult:
        """The rounds, then the best's re-timing; a stop (Ctrl-C, SIGTERM, the deadline) anywhere in them ends the
        run with its best so far. The result is written and said before the evaluation's worker is ended: a
        checker holding gigabytes of weights takes seconds to go, and the editor's cancel waits for none."""
        status = "finished"
        ev: Evaluator | None = None
        try:
            with self.deadline.armed():
                self.clock.enter("worker")
                ev = self.evaluator = Evaluator(self.spec, self.workdir, self.settings.eval, cache_dir=self.cache_dir)
                self._rounds(state, first_round)
        except KeyboardInterrupt as stop:
            status, state.stop_reason = "stopped", stop_reason(stop)
        except BaseException:
            self.work.stop()  # no heartbeat after the run failed
            if ev is not None:
                ev.close(now=True)
            raise
        with uninterrupted():
            result = self.finish(state, status)
            if ev is not None:
                ev.close(now=status == "stopped")
        return result

    def _rounds(self, state: LoopState, first_round: int) -> None:
        s, ev = self.settings, self.evaluator
        on_gpu = s.eval.device.is_cuda
        reference: Future[Profile | Exception] | None = None
        # The reference's profile needs nothing of the worker: both start now and run side by side (neither
        # times anything; the first candidate is timed after both have ended).
        if s.profile and on_gpu and state.parent_profile is None and state.best is None:
            if self.plan.profile_fits():
                reference = in_background(lambda: self.profiles.collect(state, None))
            else:
                self.plan.leave_out("the reference's profile")
        ev.ensure_worker()
        self.emit(RunStarted(state.run_id, str(self.spec.path), str(s.eval.device), len(self.sizes),
                             s.candidates, s.total, self.backend.name, str(self.store.db_path),
                             str(self.store.run_dir(state.run_id)), s.deadline_s, ev.device_name() or None))
        self.work.resumed({rs.round: len(rs.outcomes) for rs in state.rounds})
        self.work.start()
        if s.eval.sandbox:
            from engine.evaluate import limit_check

            for said in limit_check.notices(on_gpu, s.eval.sandbox):  # never a limit silently absent
                self.notice(state, said)
        if s.profile and not on_gpu:
            state.profiling_off = ("profiling off: Nsight Compute profiles CUDA devices and this run is on "
                                   "the CPU")
            self.notice(state, state.profiling_off + " — continuing on timings alone")
        if reference is not None:
            self.profiles.build_ahead(state, first_round)
            self.clock.enter("reference_profile")
            self.work.begin("profiling the reference with Nsight Compute", extra=True)
            state.parent_profile = self.profiles.record(state, "reference", reference.result())
            self.work.finish()
            state.profiling["reference"] = state.parent_profile is not None
        if state.regions is None:
            self._regions(state)
        for r in range(first_round, len(self.sizes) + 1):
            if not self._round(state, r):
                self.plan.rounds_left_out(r, self.sizes)
                break
            unjudgeable = task_refused([o.flags for o in state.history[-1].outcomes] if state.history else [])
            if unjudgeable is not None:
                # Every candidate was refused for what the task's own forward does: no later round can do
                # better, and the user is told what to change.
                self.notice(state, f"no more rounds: {unjudgeable}")
                break
            state.stopped_early = stop_early(self.sizes, self.t0, state, r)
            if state.stopped_early is not None:
                self.notice(state, state.stopped_early.summary())
                break
        self.clock.enter("retime")
        self._confirm_best(state)
        self._keep_best(state)

    @staticmethod
    def _best_event(state: LoopState) -> BestFigure | None:
        return state.best.figure() if state.best else None

    def _regions(self, state: LoopState) -> None:
        """Where the reference's forward spends its time, asked once the device is the run's alone (after the
        reference's profile): the planner reads it, the round table and the result carry it."""
        self.clock.enter("regions")
        self.work.begin("timing the reference's submodules", extra=True)
        found = self.evaluator.region_times(timeout_s=self.deadline.cap(60.0, self._retime_reserve(state)))
        self.work.finish()
        if isinstance(found, str):
            return
        state.regions = found
        if len(found.regions) > 1:
            self.notice(state, f"where eager spends its time ({found.method}, {found.total_ms:.3g} ms a forward): "
                               f"{found.summary(4)}")

    def context(self, state: LoopState, r: int) -> Context:
        """Round r's context; the device's facts as the evaluator knows them now (its ceilings, once measured)."""
        best = state.best
        return Context(
            spec=self.spec, contract_dir=self.evaluator.contract_dir, device=self.settings.eval.device,
            device_facts=self.evaluator.device_facts, precision=self.settings.eval.precision, round=r,
            rounds=len(self.sizes),
            allowed_spaces=self.allowed, parent=best.candidate if best else None,
            parent_outcome=best.outcome if best else None, parent_profile=state.parent_profile,
            history=tuple(state.history),
            reference_ms=median(state.reference_ms),
            use_contract=self.settings.use_contract, planning=self.settings.planning, regions=state.regions,
        )

    def _decide(self, ctx: Context) -> tuple[SpaceChoice, DirectionScores, Any]:
        choice = self.backend.ssda.select_space(ctx)
        if choice.space not in self.allowed:
            # A fixed-space run: the agent may not leave it.
            choice = SpaceChoice(self.allowed[0], f"{choice.rationale} (fixed to {self.allowed[0].value})")
        scores = self.backend.ssda.score_directions(ctx, choice.space)
        strategy = self.backend.spa.plan(ctx, choice.space, scores)
        return choice, scores, strategy

    def _retime_reserve(self, state: LoopState) -> float:
        best = state.best
        if best is not None and not worth_retiming(best.speedup, self.plan.active):
            return 0.0  # under the deadline it will not be re-timed (retiming.confirm_best)
        return self.plan.retime_reserve(best.candidate.id if best else None, bool(best and best.retimed))

    def _round(self, state: LoopState, r: int) -> bool:
        """One round; False when the deadline leaves no time to play it (nothing of it is generated)."""
        size = self.sizes[r - 1]
        taken = state.partial.pop(r, {})  # finished before a stop: recorded, not evaluated again
        # Under a deadline, as many candidates as this run's evaluations so far say fit (a round stopped part way
        # asks for all of them again: its finished ones are matched by position).
        asked = size if taken else self.plan.round_size(r, size, self._retime_reserve(state))
        if asked == 0:
            return False
        self.plan.shrunk(r, asked, size)
        ctx = self.context(state, r)
        self.clock.enter("decide")
        choice, scores, strategy = self._decide(ctx)
        direction = strategy.direction
        bottleneck = bottleneck_text(state.parent_profile)
        self.store.record_decision(state.run_id, r, choice.space.value, scores.as_json(), scores.evidence_json(),
                                   direction.value, strategy.name, f"{choice.rationale} | {scores.rationale}",
                                   state.best.candidate.id if state.best else None, bottleneck)
        self.emit(RoundStarted(r, choice.space.value, scores.as_json(), direction.value, strategy.name,
                               f"{choice.rationale} | {scores.rationale}", size))
        first = self._opener(ctx, r, asked)
        generated = [*first, *self.backend.oa.generate(ctx, choice.space, strategy, asked - len(first))]
        self._record_usage(state, r)
        of = min(len(generated), asked)  # the round's candidates: the OA may write fewer than it was asked for
        self.work.round_generated(r, of)
        cands: list[Candidate] = []
        invalid: list[tuple[int, Invalid]] = []
        index_of: dict[str, int] = {}  # candidate id -> its 1-based position among the K generated
        for i, g in enumerate(generated[:asked], start=1):
            if i in taken:
                continue
            if isinstance(g, Invalid):
                invalid.append((i, g))
            else:
                c = replace(g, id=candidate_id(r, i, g.source), space=g.space or choice.space)
                index_of[c.id] = i
                cands.append(c)
        rows: list[CandidateRow] = []
        # The round as it stands, rows filled as candidates finish: a stop before its end reports it `partial`.
        self._in_flight = RoundSummary(r, choice.space.value, scores.as_json(), direction.value, strategy.name,
                                       f"{choice.rationale} | {scores.rationale}", rows, partial=True,
                                       space_title=space_title(choice.space.value, str(self.settings.eval.device)))
        outcomes: list[Outcome] = []

        def finished(c: Candidate, o: Outcome, recorded: bool = False) -> None:
            i = index_of.get(c.id, 0)
            self.plan.finished(c)
            if recorded:
                state.evaluated += 1
            else:
                o = flag_noisy_reference(o, state.reference_ms)
                self.account(state, c, o, r, i)
                self._split_evaluation(o)
            if o.reference:
                state.reference_ms.append(o.reference.median_ms)
                if len(state.reference_ms) == 1:
                    self.emit(ReferenceTimed(o.reference.median_ms))
                # The run's eager time is the median of its pairs, not the first (maybe an outlier) pair.
                self.store.set_reference(state.run_id, median(state.reference_ms), o.device, o.device_name)
            self.consider(state, c, o, r, choice.space, direction)
            outcomes.append(o)
            rows.append(self._candidate_row(c, o, i))
            # the count first: a view's report of the candidate then shows it (engine/progress.py)
            self.work.finish(f"round {r} candidate {i}/{of}: {o.status.value}")
            self.emit(CandidateFinished(
                r, i, of, c.id, str(self.store.run_dir(state.run_id) / "candidates" / f"{c.id}{c.kind.suffix}"),
                o.status.value, o.reason[:2000], o.speedup, o.candidate.median_ms if o.candidate else None,
                state.best.speedup if state.best else None, self._best_event(state), figure(o, False)))

        for i, (c, o) in sorted(taken.items()):
            index_of[c.id] = i
            finished(c, o, recorded=True)
        # What the OA was asked for: a whole ModelNew without the contract, else the contract's source kind.
        asked = (CandidateKind.MODELNEW if not ctx.use_contract
                 else CandidateKind.CUDA if ctx.on_gpu else CandidateKind.CPP)
        for i, inv in invalid:
            c = Candidate(candidate_id(r, i, inv.id + inv.source), asked, inv.source, choice.space,
                          origin=self.backend.name, note=strategy.name)
            index_of[c.id] = i
            self.emit(CandidateStarted(r, i, of))
            finished(c, Outcome(c.id, Status.BUILD_FAILED, f"no usable source: {inv.reason}"))
        def started(c: Candidate) -> None:
            self.clock.enter("evaluate_other")  # the builds are done; split by the worker's own figures
            self.plan.started(c)
            self.work.begin(f"round {r} candidate {index_of.get(c.id, 0)}/{of}: verifying and timing")
            self.emit(CandidateStarted(r, index_of.get(c.id, 0), of))

        def admit(c: Candidate, step: str) -> bool:
            return self.plan.admit(c, step, self._retime_reserve(state))

        self.clock.enter("build")
        self.evaluator.warm_s = 0.0
        # Under a deadline, before this run has timed anything, the first candidate goes alone (the opener where
        # there is one): its answer and its cost come before the rest of the round is built.
        first_alone = self.plan.active and self.deadline.costs.estimate("evaluate") is None and len(cands) > 1
        for batch in ([cands[:1], cands[1:]] if first_alone else [cands]):
            self.evaluator.evaluate(batch, on_outcome=finished, on_start=started, admit=admit,
                                    cap=lambda s: self.deadline.cap(s, self._retime_reserve(state)))
        self._round_costs(cands, outcomes)
        left = set(self.plan.end_round(r, of))
        forget = getattr(self.backend, "forget", None)  # the expert's: what was never evaluated was not played
        if left and forget is not None:
            forget([c.source for c in cands if c.id in left])
        round_best = best_by([o for o in outcomes if o.valid], lambda o: figure_key(figure(o, False)),
                             lambda o: o.shapes)
        if self.settings.profile and state.best is not None and round_best is not None \
                and round_best.candidate_id == state.best.candidate.id:
            skip = self.profiles.not_needed(state, ctx, r)
            if skip is None and state.profiling_off is None and not self.plan.profile_fits():
                skip = "deadline"
                self.plan.leave_out(f"round {r}'s profile")
            if skip:
                state.profiling["skipped"][skip] = state.profiling["skipped"].get(skip, 0) + 1
            else:
                self.clock.enter("profile")
                t0 = time.perf_counter()
                self.work.begin(f"profiling {state.best.candidate.id} with Nsight Compute", extra=True)
                prof = self.profiles.profile(state, state.best.candidate, state.best.candidate.id)
                self.work.finish()
                self.plan.spent("profile", time.perf_counter() - t0)
                if prof is not None:
                    state.parent_profile = prof
                    state.profiling["rounds_profiled"] += 1
        state.history.append(RoundRecord(r, choice.space, direction, strategy.name,
                                         state.best.speedup if state.best else None, tuple(outcomes)))
        self._in_flight.partial = False
        state.rounds.append(self._in_flight)
        self._in_flight = None
        self.emit(RoundFinished(r, state.best.speedup if state.best else None, self._best_event(state)))
        return True

    def _opener(self, ctx: Context, r: int, asked: int) -> list[Candidate]:
        """The run's opener, first in round 1 (engine/agents/expert/opener.py), where the backend has one and the
        round has room for it beside the backend's own. Deterministic: a stopped round 1 that is resumed gets it
        again at the same position."""
        make = getattr(self.backend, "opener", None)
        if r != 1 or asked < 2 or not self.settings.opener or make is None:
            return []
        c = make(ctx)
        return [c] if c is not None else []

    def _round_costs(self, cands: list[Candidate], outcomes: list[Outcome]) -> None:
        """What this round's builds and compiles ahead cost, for the plan of the next ones."""
        built = [o.build_s for o in outcomes if o.build_s and not (o.extra or {}).get("build_cached")]
        if built:
            self.plan.spent("build", max(built))  # in parallel: the batch took about its slowest
        if self.evaluator.warm_s and any(candidate_class(c) == "compile" for c in cands):
            self.plan.spent("compile", self.evaluator.warm_s)

    def account(self, state: LoopState, c: Candidate, o: Outcome, r: int, i: int, retime: bool = False) -> None:
        """Record an evaluated candidate and add its build, verify and time seconds to the run's."""
        self.store.record_candidate(state.run_id, c, o, r, i)
        if retime:
            state.retimed += 1
        else:
            state.evaluated += 1
        for k, v in (("build", o.build_s), ("verify", o.verify_s), ("time", o.time_s)):
            state.seconds[k] += v or 0.0

    def consider(self, state: LoopState, c: Candidate, o: Outcome, r: int, space: Space, d: Direction) -> None:
        if not o.valid or not o.speedup:
            return
        state.valid[c.id] = Best(c, o, r, space, d)
        # The best so far by the run's rule (faster first, then the interval's lower end, on every size checked).
        was = state.best
        state.best = best_first_pair(state.valid.values())
        if state.best is not was:
            self._keep_best(state)

    def _keep_best(self, state: LoopState) -> None:
        """The best as it stands, in the store and in the run's best-so-far folder, from the first valid candidate
        on: a run killed before its end (kill -9, a lost machine) still has its answer on disk."""
        best = state.best
        if best is None or not self.settings.write_results:
            return
        mark = (best.candidate.id, best.speedup, best.retimed)
        if mark == self._kept_best:
            return
        self._kept_best = mark
        paths = self.files.keep_so_far(best, state.run_id)
        self.store.set_best_so_far(state.run_id, {**best.figure().to_json(), "round": best.round,
                                                  "paths": paths.to_json() if paths else None})

    def _record_usage(self, state: LoopState, r: int) -> None:
        for u in self.backend.drain_usage():
            state.usage.append(u)
            state.seconds["model"] += u.seconds
            self.store.record_model_call(state.run_id, r, u.role, u.model, u.prompt_tokens, u.completion_tokens,
                                         u.seconds, u.cost_usd, u.ok, u.error)

    def _split_evaluation(self, o: Outcome) -> None:
        """A candidate's evaluation, counted so far as evaluate_other, into the parts its worker measured."""
        ref_s = float(o.extra.get("time_reference_s") or 0.0) if isinstance(o.extra, dict) else 0.0
        load_s = float(o.extra.get("load_s") or 0.0) if isinstance(o.extra, dict) else 0.0
        self.clock.split("evaluate_other", {"runner": load_s, "verify": o.verify_s or 0.0,
                                            "time_reference": ref_s,
                                            "time_candidate": max((o.time_s or 0.0) - ref_s, 0.0)})

    # --- results --------------------------------------------------------------------------------------

    @staticmethod
    def _candidate_row(c: Candidate, o: Outcome, i: int) -> CandidateRow:
        fig = figure(o, False)
        return CandidateRow(c.id, i, o.status.value, o.reason[:CandidateRow.REASON_CHARS], o.speedup,
                            o.candidate.median_ms if o.candidate else None, o.shapes,
                            fig.verdict if fig else None, fig.low if fig else None, fig.high if fig else None,
                            fig.confidence if fig else None)

    @staticmethod
    def _round_bests(rounds: list[RoundSummary], state: LoopState) -> None:
        """Each round's best by the run's own rule (pick_best over its candidates' latest figures)."""
        for rs in rounds:
            b = best_of(x for x in state.valid.values() if x.round == rs.round)
            rs.best = b.figure() if b else None

    def finish(self, state: LoopState, status: str) -> RunResult:
        self.work.stop()
        self.clock.enter("finish")
        best = state.best
        paths: ResultPaths | None = None
        # A stopped run writes its best so far too (a deadline, a cancel: the user asked for what there is); its
        # figure says when it is a first pair, not timed again. `--resume` continues the run and replaces it.
        if best is not None and self.settings.write_results:
            paths = self.write_results(best, state.run_id)
        ref = median(state.reference_ms)
        costs = [u.cost_usd for u in state.usage if u.cost_usd is not None]
        state.seconds["total"] = state.earlier_s + time.perf_counter() - self.t0
        rounds = state.rounds
        if self._in_flight is not None and self._in_flight.outcomes:
            rounds = [*rounds, self._in_flight]  # what the round a stop cut short had finished
        self._round_bests(rounds, state)
        run_best = None
        if best is not None:
            f = best.figure()
            cuda = best.candidate.kind is CandidateKind.CUDA
            first_use = None
            if paths is not None:  # what the written file costs at its first import, or its first call
                first_use = first_import_note(cuda) if paths.cu else first_call_note(best.candidate.source)
            run_best = RunBest(f.candidate_id, f.speedup, f.candidate_ms, f.reference_ms, f.retimed, f.spread,
                               f.verdict, best.round, best.space.value, best.direction.value, list(best.outcome.flags),
                               paths, first_use, f.candidate_spread, f.reference_spread, best.outcome.shapes,
                               f.speed_of_light, f.low, f.high, f.confidence, self.files.not_delivered(f, paths),
                               space_title(best.space.value, str(self.settings.eval.device)))
        result = RunResult(
            run_id=state.run_id, status=status, task=str(self.spec.path),
            device=str(self.settings.eval.device),
            device_name=(self.evaluator.device_name() or None) if self.evaluator is not None else None,
            backend=self.backend.name, reference_ms=ref, best=run_best, budget=self.settings.total,
            candidates=state.evaluated, retimed=state.retimed, rounds=rounds,
            tokens=Tokens(sum(u.prompt_tokens for u in state.usage), sum(u.completion_tokens for u in state.usage)),
            seconds={k: round(v, 3) for k, v in state.seconds.items()},
            cost_usd=round(sum(costs), 6) if costs else None, notices=self.store.notices(state.run_id),
            phases=self.clock.snapshot(), profiling=self.profiles.summary(state),
            stop_reason=state.stop_reason if status == "stopped" else None, left_out=list(self.deadline.left_out),
            deadline_s=self.settings.deadline_s, precision=self.settings.eval.precision.value,
            tolerance=tolerance_json(self.settings.eval.precision.value),
            stopped_early=state.stopped_early, regions=state.regions)
        if ref is not None:
            self.store.set_reference(state.run_id, ref)
        self.store.finish_run(state.run_id, status, result.to_json())
        self.emit(Result(result))
        return result
