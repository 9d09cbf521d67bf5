"""The loop stops spending budget once its best reaches its speed of light, and says so; the figure reaches the
result's best, each round's best and the progress events."""

from __future__ import annotations

from dataclasses import replace

from contracts.runrecord import RunResult, parse_event
from contracts.speed_of_light import STOP_FRACTION, SpeedOfLight
from engine.cli import main
from engine.evaluate.outcome import Outcome
from engine.evaluate.pipeline import Evaluator
from tests.cli_kit import flat
from tests.scripted_backend import Scripted
from tests.test_loop import SOURCES, make_loop


def _at(fraction: float):
    """An Evaluator whose valid outcomes read `fraction` of a memory bound (the bound itself is
    tests/test_speed_of_light.py's; here only what the loop does with it)."""

    def against_light(self: Evaluator, out: Outcome) -> Outcome:
        if not (out.valid and out.candidate):
            return out
        ms = out.candidate.median_ms
        return replace(out, speed_of_light=SpeedOfLight("memory", 1050624, 262144, "memory 40 GB/s", fraction,
                                                        ms * fraction, ms))

    return against_light


def test_a_best_at_its_speed_of_light_ends_the_run_after_its_round_and_the_result_says_so(tmp_path, monkeypatch,
                                                                                          capfd):
    monkeypatch.setattr(Evaluator, "_against_light", _at(0.91))
    loop, store, events, _ = make_loop(tmp_path, Scripted(SOURCES), rounds=3)
    state = loop.start("scripted")
    result = loop.run(state)
    assert [r.round for r in result.rounds] == [1]  # rounds 2 and 3 not played
    assert result.candidates == 3
    stop = result.stopped_early
    assert stop is not None and (stop.round, stop.candidates_saved, stop.bound) == (1, 6, "memory")
    assert stop.fraction == 0.91 and stop.seconds_saved > 0
    assert any(n.startswith("stopped early after round 1: the best runs at 91% of its speed of light")
               for n in store.notices(state.run_id))
    back = RunResult.from_json(result.to_json())
    assert back.stopped_early == stop and back.best is not None
    assert back.best.speed_of_light is not None and back.best.speed_of_light.fraction == 0.91
    assert back.rounds[0].best is not None and back.rounds[0].best.speed_of_light is not None
    finished = [parse_event(e) for e in events if e["event"] == "candidate_finished" and e["best"]]
    assert finished and all(ev.best.speed_of_light.fraction == 0.91 for ev in finished)
    # `hiera report` says it: the best's figure and what it is made of, the round's, and the stop
    monkeypatch.setenv("COLUMNS", "250")
    capfd.readouterr()
    assert main(["report", state.run_id, "--workspace", str(tmp_path)]) == 0
    shown = flat(capfd.readouterr().err)
    assert "speed of light: 91% of speed of light, memory-bound: bound" in shown and "1.05 MB and 262 kFLOP" in shown
    assert "speed of light" in shown and "91% memory" in shown  # the round table's column
    assert "stopped early after round 1" in shown


def test_a_best_under_the_stop_fraction_spends_the_whole_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(Evaluator, "_against_light", _at(STOP_FRACTION - 0.01))
    loop, _, _, _ = make_loop(tmp_path, Scripted(SOURCES), rounds=2)
    result = loop.run(loop.start("scripted"))
    assert [r.round for r in result.rounds] == [1, 2] and result.stopped_early is None
    assert result.to_json()["stopped_early"] is None
