"""Where a re-timing's interval straddles 1 and is too wide to say anything, the engine takes more pairs of that
candidate within a stated budget (engine/retiming.py MORE_PAIRS) and pools them, before it gives the verdict up
as level (issue 37). A stand-in evaluator (tests/test_cli_loop.py) gives the re-timings the calls of a busy
machine: eager swinging around a candidate 1.5x faster."""

from __future__ import annotations

from engine import loop as loop_module
from engine.evaluate.outcome import Outcome, Status, Timing
from engine.retiming import MORE_PAIRS
from tests.test_cli_loop import FakeEvaluator, make, spec_path, stand_in  # noqa: F401  (fixtures)

# A busy machine's eager calls: most near 1.5 ms, a few read far less or far more; the candidate steady at 1.0 ms.
SWINGING = [1.5] * 12 + [0.4, 0.5, 0.6, 3.0, 4.0, 5.0, 0.45, 0.55]
# Eager in two modes, half its calls at 0.5 ms and half at 1.5 ms: no number of pairs narrows its median.
TWO_MODES = [0.5, 1.5] * 10
STEADY = [1.0 + 0.01 * (i % 5) for i in range(20)]


class BusyRetimes(FakeEvaluator):
    retimes = 0
    eager = SWINGING

    def evaluate(self, cands, on_outcome=None, on_start=None, **kw):
        if not cands[0].id.endswith("-retimed"):
            return super().evaluate(cands, on_outcome, on_start, **kw)
        BusyRetimes.retimes += 1
        FakeEvaluator.evaluated.append(cands[0].id)
        o = Outcome(cands[0].id, Status.VALID, "correct", candidate=Timing.from_samples(STEADY, "perf_counter"),
                    reference=Timing.from_samples(BusyRetimes.eager, "perf_counter"), device="cpu")
        return [o]


def test_a_too_wide_retiming_takes_more_pairs_and_pools_them(tmp_path, spec_path, monkeypatch) -> None:  # noqa: F811
    from contracts import verdict as rule
    from engine.loop_state import figure

    monkeypatch.setattr(loop_module, "Evaluator", BusyRetimes)
    BusyRetimes.retimes, BusyRetimes.eager = 0, SWINGING
    one = rule.ratio_interval(STEADY, SWINGING)
    assert one is not None and rule.too_wide(*one)  # the control: one such pair says nothing (0.58-1.5x)
    lp, store, events = make(tmp_path, spec_path, {1: [0.5]}, rounds=1, candidates=1)
    state = lp.start("generated")
    result = lp.run(state)
    # two pairs together say it: 1.46-1.49x, faster; no third was taken
    assert BusyRetimes.retimes == 2 == result.retimed
    notices = [e["message"] for e in events if e["event"] == "notice"]
    assert sum("too wide to say faster or slower; timing it again" in n for n in notices) == 1, notices
    # the stored re-timing is the pooled one: both re-timings' calls, never the first pair's
    row = next(r for r in store.candidates(state.run_id) if r["id"].endswith("-retimed"))
    assert len(row["outcome"]["timing"]["candidate"]["samples"]) == 2 * len(STEADY)
    fig = figure(state.best.outcome, True)
    assert fig is not None and fig.verdict == "faster" and fig.low > 1.4
    assert result.best is not None and result.best.low == fig.low and result.best.verdict == "faster"


def test_the_extra_pairs_stop_at_their_budget_and_the_verdict_is_level(tmp_path, spec_path,  # noqa: F811
                                                                       monkeypatch) -> None:
    monkeypatch.setattr(loop_module, "Evaluator", BusyRetimes)
    BusyRetimes.retimes, BusyRetimes.eager = 0, TWO_MODES
    lp, _store, _events = make(tmp_path, spec_path, {1: [0.5]}, rounds=1, candidates=1)
    result = lp.run(lp.start("generated"))
    assert BusyRetimes.retimes == 1 + MORE_PAIRS == result.retimed  # the budget holds
    assert result.best is not None and result.best.verdict == "level" and result.best.low < 1 < result.best.high
    assert result.best.not_delivered and "which includes 1" in result.best.not_delivered


def test_a_best_far_slower_than_eager_is_not_worth_retiming() -> None:
    from engine.retiming import NOT_WORTH_RETIMING, worth_retiming

    assert worth_retiming(None, True) and worth_retiming(1.3, True) and worth_retiming(NOT_WORTH_RETIMING, True)
    assert not worth_retiming(NOT_WORTH_RETIMING * 0.9, True) and not worth_retiming(0.05, True)
    assert worth_retiming(0.05, False)  # without a deadline every best is re-timed
