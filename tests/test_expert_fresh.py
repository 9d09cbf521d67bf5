"""The expert SPA passes over strategies whose variants were all played, instead of spending a round on them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from contracts.vocabulary import Space
from engine.agents.base import Context, Invalid, RoundRecord
from engine.agents.expert import ExpertBackend, planner
from engine.evaluate.outcome import Precision
from engine.task.contract import write_contract
from engine.task.spec import load_task

TASKS = Path(__file__).parent / "data" / "tasks"


def _ctx(tmp_path: Path) -> Context:
    spec = load_task(TASKS / "expert_chain.py")
    write_contract(spec, tmp_path)
    return Context(spec, tmp_path, "cpu", {}, Precision.FP32, 1, 3, tuple(Space), None, None, None)


def test_a_spent_strategy_is_passed_over_and_the_rationale_says_so(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path)
    be = ExpertBackend()
    scores = be.ssda.score_directions(ctx, Space.PURE_CUDA)
    first = planner.plan(ctx, Space.PURE_CUDA, scores)
    second = planner.plan(ctx, Space.PURE_CUDA, scores, fresh=lambda st: st.name != first.name)
    assert second.name != first.name
    assert f"{first.name}: every variant already played" in second.description


def test_when_nothing_is_fresh_the_round_says_the_search_space_is_used_up(tmp_path: Path) -> None:
    ctx = _ctx(tmp_path)
    be = ExpertBackend()
    scores = be.ssda.score_directions(ctx, Space.PURE_CUDA)
    st = planner.plan(ctx, Space.PURE_CUDA, scores, fresh=lambda st: False)
    assert st.name == "exhausted" and "nothing new to try" in st.description
    out = be.oa.generate(ctx, Space.PURE_CUDA, st, 6)
    assert len(out) == 1 and isinstance(out[0], Invalid) and "nothing new to try" in out[0].reason


def test_the_backend_says_used_up_instead_of_replaying_a_spent_strategy(tmp_path: Path) -> None:
    """On the CPU every CPU strategy draws on the same few loop-nest variants: once the first strategy's
    rounds have played them all, the planner says so rather than naming a strategy that writes nothing."""
    ctx = _ctx(tmp_path)
    be = ExpertBackend()
    scores = be.ssda.score_directions(ctx, Space.PURE_CUDA)
    st = be.spa.plan(ctx, Space.PURE_CUDA, scores)
    played = 0
    while True:
        out = be.oa.generate(ctx, Space.PURE_CUDA, st, 6)
        if all(isinstance(c, Invalid) for c in out):
            break
        played += len(out)
    assert played >= 2
    # Without the freshness check the planner would pick a strategy that writes nothing new:
    blind = planner.plan(ctx, Space.PURE_CUDA, scores)
    assert all(isinstance(c, Invalid) for c in be.oa.generate(ctx, Space.PURE_CUDA, blind, 6))
    assert be.spa.plan(ctx, Space.PURE_CUDA, scores).name == "exhausted"


def test_a_space_whose_generators_have_nothing_new_is_passed_over_before_a_round_is_spent(tmp_path: Path) -> None:
    """On the GPU a pointwise chain's kernels are the same in pure CUDA and CUDA libraries: once round 1 has
    played every generated kernel, the dry run says so and round 2 goes to the PyTorch-level candidates
    instead of spending its slots on duplicates."""
    spec = load_task(TASKS / "expert_chain.py")
    be = ExpertBackend()
    ctx = Context(spec, tmp_path, "cuda:0", {"sms": 132, "capability": "90"}, Precision.FP32, 1, 3, tuple(Space),
                  None, None, None)
    first = be.ssda.select_space(ctx)
    assert first.space is Space.PURE_CUDA
    scores = be.ssda.score_directions(ctx, first.space)
    st = be.spa.plan(ctx, first.space, scores)
    while not all(isinstance(c, Invalid) for c in be.oa.generate(ctx, first.space, st, 50)):
        st = be.spa.plan(ctx, first.space, scores)
    history = (RoundRecord(1, Space.PURE_CUDA, scores.best(), st.name, 2.0, ()),)
    later = replace(ctx, round=2, history=history)
    second = be.ssda.select_space(later)
    assert second.space is Space.LIBRARIES_PYTORCH and "nothing new to generate" in second.rationale


def test_a_speculated_round_is_the_round_and_leaves_no_trace(tmp_path: Path) -> None:
    """The loop builds what `speculate` returns while the reference is profiled; the round decided the same way
    must ask for the same sources (so they come from the build cache), and speculating must change nothing of
    what the backend remembers or reports."""
    ctx = _ctx(tmp_path)
    be = ExpertBackend()
    guessed = be.speculate(ctx, tuple(Space), 6)
    assert guessed and be.drain_usage() == [] and not be._memory.seen
    choice = be.ssda.select_space(ctx)
    strategy = be.spa.plan(ctx, choice.space, be.ssda.score_directions(ctx, choice.space))
    real = [c for c in be.oa.generate(ctx, choice.space, strategy, 6) if not isinstance(c, Invalid)]
    assert [c.source for c in guessed] == [c.source for c in real]
    again = be.speculate(ctx, (Space.PURE_CUDA,), 6)  # a fixed space is kept to, and memory now counts
    assert all(c.space in (None, Space.PURE_CUDA) for c in again)


def test_a_round_the_checker_failed_on_does_not_count_against_its_space(tmp_path: Path) -> None:
    """A round whose every candidate got hiera's checker_error (the checker raised: no verdict) says nothing about
    its space: the next round stays there, where a round of real failures moves on (the control)."""
    from contracts.verdict import FlagKind, flag_text
    from engine.evaluate.outcome import Outcome, Status

    spec = load_task(TASKS / "expert_chain.py")
    be = ExpertBackend()
    ctx = Context(spec, tmp_path, "cuda:0", {"sms": 132, "capability": "90"}, Precision.FP32, 1, 3, tuple(Space),
                  None, None, None)
    first = be.ssda.select_space(ctx)
    scores = be.ssda.score_directions(ctx, first.space)

    def after(flags: tuple[str, ...]) -> Space:
        outcomes = tuple(Outcome(f"c{i}", Status.RUNTIME_ERROR, "failed", flags) for i in range(3))
        history = (RoundRecord(1, first.space, scores.best(), "s", None, outcomes),)
        return be.ssda.select_space(replace(ctx, round=2, history=history)).space

    unjudged = (flag_text(FlagKind.CHECKER_ERROR, "hiera's checker failed while judging this candidate"),)
    assert after(unjudged) is first.space
    assert after(()) is not first.space


def test_a_source_the_deadline_left_out_is_not_played_and_comes_again(tmp_path: Path) -> None:
    """A candidate generated but never evaluated (the deadline left it out of its round) is forgotten: a later round
    may write it again instead of finding its strategy used up."""
    ctx = _ctx(tmp_path)
    be = ExpertBackend()
    scores = be.ssda.score_directions(ctx, Space.PURE_CUDA)
    st = be.spa.plan(ctx, Space.PURE_CUDA, scores)
    first = [c for c in be.oa.generate(ctx, Space.PURE_CUDA, st, 1) if not isinstance(c, Invalid)]
    assert len(first) == 1
    again = be.oa.generate(ctx, Space.PURE_CUDA, st, 1)
    assert all(c.source != first[0].source for c in again if not isinstance(c, Invalid))  # played: not again
    be.forget([first[0].source])
    assert [c.source for c in be.oa.generate(ctx, Space.PURE_CUDA, st, 1)] == [first[0].source]
