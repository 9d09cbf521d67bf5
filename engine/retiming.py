"""Timing the best again before a run reports it, and marking pairs measured under unusual conditions.

The best of many noisy ratios leans high (the winner's curse): the run reports a fresh pair of its best, not the
pair that picked it (confirm_best); where the fresh pair's interval straddles 1 and is too wide to say anything
(contracts/verdict.py too_wide) the candidate is timed again, up to MORE_PAIRS more times, and the re-timings'
samples are taken together (never the first pair's: it picked the candidate). A pair whose eager timing is far
from the run's usual one is flagged (flag_noisy_reference)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from contracts.runrecord import RETIMED, RetimeFinished, RetimeStarted
from contracts.verdict import WIDE, interval_text, noisy_reference_flag, too_wide
from engine.evaluate.outcome import Candidate, Outcome, Timing
from engine.loop_state import Best, LoopState, best_first_pair, best_of, figure, median

if TYPE_CHECKING:
    from engine.loop_host import RetimeHost

# A pair whose eager timing is outside this band around the run's median eager timing was measured under
# unusual conditions (another process, a clock change): its ratio is not to be trusted as it stands.
NOISY_BAND = (2 / 3, 1.5)
# At most this many candidates are re-timed before the run reports (each is one more verify + time).
MAX_RETIMES = 3
# Under a deadline, a best whose figure is under this share of eager's speed is not timed again: re-timing guards
# a delivery against the winner's curse, and a fresh pair seldom moves a figure this far below 1 to a delivery (an
# 8x-slower SGEMM's re-timing held back the time its round's other candidates needed). Without a deadline it is
# re-timed as any best: on a loaded CPU a first pair can read a 1x candidate at 0.5x.
NOT_WORTH_RETIMING = 0.5
# The budget for an interval too wide to say anything: at most this many more evaluations of one re-timed
# candidate, their samples pooled with its re-timing's (on a busy 2-core machine one evaluation is 5-20 s).
MORE_PAIRS = 2


def off_median(o: Outcome, median_ms: float | None) -> bool:
    if not (o.valid and o.reference and median_ms):
        return False
    ratio = o.reference.median_ms / median_ms
    return not NOISY_BAND[0] <= ratio <= NOISY_BAND[1]


def ms_text(t: Timing | None) -> str:
    return f"{t.median_ms:.4g}" if t else "?"


def flag_noisy_reference(o: Outcome, seen_ms: list[float]) -> Outcome:
    """Flag a candidate whose paired reference timing is far from the run's median reference timing.

    Each candidate is timed interleaved with its own reference, so a loaded machine moves both; a reference
    far off the run's typical value still says the pair was measured under unusual conditions.
    """
    if len(seen_ms) < 2 or not off_median(o, median_ms := median(seen_ms)):
        return o
    return replace(o, flags=(*o.flags, noisy_reference_flag(o.reference.median_ms, median_ms)))


def pooled(outcomes: list[Outcome]) -> Outcome:
    """Several valid evaluations of one candidate as one outcome: the last one's, with every evaluation's samples
    on both sides (Timing.pooled) and every flag any of them set."""
    last = outcomes[-1]
    if len(outcomes) == 1 or last.candidate is None or last.reference is None:
        return last
    flags = tuple(dict.fromkeys(f for o in outcomes for f in o.flags))
    return replace(last, flags=flags, candidate=Timing.pooled([o.candidate for o in outcomes if o.candidate]),
                   reference=Timing.pooled([o.reference for o in outcomes if o.reference]))


def retime_one(loop: RetimeHost, state: LoopState, best: Best, c: Candidate) -> Outcome:
    """The re-timing of one candidate: one evaluation, and up to MORE_PAIRS more while the pooled interval
    straddles 1 and is too wide to say anything. A later evaluation that fails is the re-timing's outcome (the
    candidate failed on its own). The stored `-retimed` row is the pooled outcome."""
    outs: list[Outcome] = []
    while True:
        loop.work.begin(f"re-timing {best.candidate.id} on its own"
                        + (f" (evaluation {len(outs) + 1}, samples pooled)" if outs else ""), extra=True)
        (o,) = loop.evaluator.evaluate([c], cap=loop.deadline.cap)
        loop.work.finish(f"re-timed {best.candidate.id}: {o.status.value}")
        if not o.valid:
            loop.account(state, c, o, best.round, 0, retime=True)
            return o
        outs.append(o)
        o = pooled(outs)
        loop.account(state, c, o, best.round, 0, retime=True)
        fig = figure(o, True)
        if fig is None or not too_wide(fig.low, fig.high) or len(outs) > MORE_PAIRS:
            return o
        if not loop.plan.retime_fits(best.candidate.id):
            loop.plan.leave_out(f"more pairs for {best.candidate.id}'s too-wide re-timing")
            return o
        loop.notice(state, f"{best.candidate.id} re-timed: {interval_text(fig.low, fig.high, fig.confidence, sign='x')}"
                           f" straddles 1 and spans more than {WIDE:g}x, too wide to say faster or slower; timing it "
                           f"again (evaluation {len(outs) + 1} of at most {MORE_PAIRS + 1}, samples pooled)")


def worth_retiming(speedup: float | None, under_deadline: bool) -> bool:
    """Whether a best with this first-pair figure is timed again (NOT_WORTH_RETIMING): confirm_best's rule, and
    the loop's for the time it holds back for it."""
    return not under_deadline or speedup is None or speedup >= NOT_WORTH_RETIMING


def confirm_best(loop: RetimeHost, state: LoopState) -> None:
    """Time the best again, on its own, before the run reports it.

    The best is the largest of many noisy figures, each from one interleaved pair of timings, so its own figure
    leans high (the winner's curse): on the H200 the README job's best read 7.25x from a pair whose eager
    ran 17% slow, where the same kernel time read 6.1x against typical eager runs; on a loaded CPU (2
    shared cores) an eager run slowed 2x makes a 0.9x candidate read 2x. A fresh pair, not used to pick
    it, is what the run reports (retime_one: more pairs where its interval is too wide). A best that then falls
    behind another valid candidate by the run's rule (faster first, then the interval's lower end) gives way to
    it, which is timed again the same way; after MAX_RETIMES re-timings the best re-timed one is reported
    (pick_best).
    """
    tried: set[str] = set()
    while state.best is not None and state.best.candidate.id not in tried and len(tried) < MAX_RETIMES:
        best = state.best
        if not worth_retiming(best.speedup, loop.plan.active):
            # Said with the run's other left-out steps (the result and its message name them), not as a notice:
            # the job's end message already says the figure is a first pair; a toast would say it twice.
            loop.plan.leave_out(f"the re-timing of {best.candidate.id} (its first pair read {best.speedup:.2f}x, far "
                                "slower than eager: a fresh pair would hardly make it a result to deliver)")
            break
        if not loop.plan.retime_fits(best.candidate.id):
            # Under a deadline: the figure stays its first pair (and says so), rather than the run ending late.
            loop.plan.leave_out(f"the re-timing of {best.candidate.id} (its figure is its first pair)")
            break
        tried.add(best.candidate.id)
        c = replace(best.candidate, id=f"{best.candidate.id}{RETIMED}", note=f"{best.candidate.note} (re-timed)")
        loop.emit(RetimeStarted(best.candidate.id, best.figure()))
        o = retime_one(loop, state, best, c)
        head = f"the best so far ({best.candidate.id}, {best.speedup:.2f}x) was timed again on its own: "
        if o.valid and o.speedup:
            state.valid[best.candidate.id] = replace(best, outcome=o, retimed=True)
            if abs((o.speedup or 0.0) / best.speedup - 1.0) > 0.1:  # worth saying; small moves are noise
                loop.notice(state, head + f"{o.speedup or 0.0:.2f}x ({ms_text(o.candidate)} ms vs "
                                          f"{ms_text(o.reference)} ms eager); the run reports the fresh figure")
        else:
            state.valid.pop(best.candidate.id, None)
            loop.notice(state, head + f"it failed ({o.status.value}: {o.reason[:200]}); it is not kept")
        # The next to time again: the best candidate by its latest figure and the run's rule, re-timed or not.
        state.best = best_first_pair(state.valid.values())
        top = best_of(state.valid.values())  # the best by the rule, as it stands now
        loop.emit(RetimeFinished(best.candidate.id, o.status.value, figure(o, True),
                                 top.figure() if top else None))
    top = best_of(state.valid.values())
    if state.best is not None and top is not None and top is not state.best:
        loop.notice(state, f"{MAX_RETIMES} re-timings spent; {state.best.candidate.id} "
                           f"({state.best.speedup:.2f}x from its first pair) was not re-timed, so the run "
                           f"reports the best re-timed candidate, {top.candidate.id} ({top.speedup:.2f}x)")
    state.best = top
