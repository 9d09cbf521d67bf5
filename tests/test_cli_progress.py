"""Progress that counts the real work (issue 37): the engine counts its steps once (engine/progress.py) and every
view shows its numbers. The bar counted the 18 candidates a run asked for where the expert wrote 10 on the CPU,
read 3/3 after a Ctrl-C, and said nothing for 75 s while one candidate ran; piped output wrapped at 80 columns and
split run ids; each candidate took 4-5 wrapped lines."""

from __future__ import annotations

import io
import time
from pathlib import Path

from rich.console import Console

from contracts.runrecord import (
    CandidateFinished,
    Figure,
    Progress,
    Result,
    RunResult,
    RunStarted,
    Tokens,
    event_json,
)
from engine.progress import WorkCount
from tests.test_cli_loop import FakeEvaluator, make, spec_path, stand_in  # noqa: F401  (fixtures)


def test_the_count_is_the_candidates_generated_and_the_steps_begun() -> None:
    said: list[Progress] = []
    w = WorkCount(said.append, [6, 6, 6])
    assert w.total == 18  # before any round has generated, what they asked for
    w.round_generated(1, 6)
    for _ in range(6):
        w.finish()
    w.round_generated(2, 1)  # the expert wrote one candidate where six were asked for
    w.finish()
    w.round_generated(3, 3)
    assert said[-1].total == 10
    w.begin("re-timing r1c1 on its own", extra=True)  # a re-timing is counted from when it begins
    assert (said[-1].done, said[-1].total) == (7, 11)


def test_a_long_step_has_a_heartbeat() -> None:
    said: list[Progress] = []
    w = WorkCount(said.append, [2], heartbeat_s=1.0)
    w.start()
    try:
        w.begin("round 1 candidate 1/2: verifying and timing")
        time.sleep(2.6)
    finally:
        w.stop()
    beats = [p for p in said if p.seconds is not None]
    assert beats and beats[0].what == "round 1 candidate 1/2: verifying and timing" and beats[0].seconds >= 1.0


def test_the_loops_last_count_is_every_evaluation_it_made(tmp_path, spec_path) -> None:  # noqa: F811
    """Two rounds asked for 3 candidates each; the backend wrote 3 and 1: the count follows, and the re-timings
    are counted as they begin; the last progress event is done == total == the evaluations made, plus the one
    step before round 1 that is no evaluation (timing the reference's submodules, counted as it begins)."""
    lp, _store, events = make(tmp_path, spec_path, {1: [0.5, 0.8, 0.9], 2: [0.6]}, rounds=2, candidates=3)
    result = lp.run(lp.start("generated"))
    progress = [e for e in events if e["event"] == "progress"]
    assert progress[0]["total"] == 6 + 1  # before round 2 generated: what it asked for, and the regions step
    assert "submodules" in progress[0]["what"], progress[0]
    last = progress[-1]
    assert last["done"] == last["total"] == result.candidates + result.retimed + 1
    assert result.candidates + result.retimed == len(FakeEvaluator.evaluated)
    assert result.candidates == 4


def _human():
    """A HumanProgress on the console the test put in engine.commands.optimize."""
    from engine.commands import optimize
    from engine.commands.plain import PlainLines

    return optimize.HumanProgress(18, PlainLines(json_on_stdout=True))


def test_a_stopped_runs_bar_keeps_what_it_would_have_done(monkeypatch) -> None:
    from engine.commands import optimize

    buf = io.StringIO()
    monkeypatch.setattr(optimize, "console", Console(file=buf, width=100, highlight=False, color_system=None))
    human = _human()
    human(event_json(RunStarted("run-1", "t.py", "cpu", 3, 6, 18, "expert", "s.db", "/tmp/run-1")))
    human(event_json(Progress(3, 18, "round 1 candidate 3/6: valid")))
    human(event_json(Result(RunResult("run-1", "stopped", "t.py", "cpu", "expert", 1.0, None, 18, 3, 0, [],
                                      Tokens(0, 0), {"total": 9.0}, None, []))))
    task = human.progress.tasks[0]
    assert (task.completed, task.total) == (3, 18)  # not 3/3


def test_one_line_per_candidate_that_fits_the_terminal(monkeypatch) -> None:
    from engine.commands import optimize

    buf = io.StringIO()
    monkeypatch.setattr(optimize, "console", Console(file=buf, width=80, highlight=False, color_system=None))
    human = _human()
    reason = ("correct on 5 trials and 4 off-distribution variants; 3.54x over the reference (87.97 ms -> 24.84 ms, "
              "median of 71); declined at batch 1, 512, 1023, 2048 (trial 1: hiera_forward returned 2 (non-zero "
              "means failure; from hiera's generated code, 2 means: a tensor's shape differs")
    fig = Figure.of_pair(24.84, 87.97, False, 0.3, 0.5, interval=(1.83, 5.51, 0.95))
    human(event_json(CandidateFinished(1, 1, 6, "r1c1-abc", "/tmp/r1c1-abc.cpp", "valid", reason, 3.54, 24.84, 3.54,
                                       None, fig)))
    bad = "out[12, 7]: expected 0.5012, got 0.25 (the largest of 4096 mismatches); " + "x " * 80
    human(event_json(CandidateFinished(1, 2, 6, "r1c2-def", "/tmp/r1c2-def.cpp", "incorrect", bad, None, None, 3.54,
                                       None, None)))
    lines = [ln for ln in buf.getvalue().splitlines() if ln.strip()]
    assert lines == ["  1/6 valid 3.5x faster (1.8–5.5x at 95%)",
                     "  2/6 incorrect: out[12, 7]: expected 0.5012, got 0.25 (the largest of 4096…"]
    assert all(len(ln) <= 80 for ln in lines)


def test_verbose_prints_the_whole_reason_under_the_line(monkeypatch) -> None:
    from engine.commands import optimize
    from engine.commands.plain import PlainLines

    buf = io.StringIO()
    monkeypatch.setattr(optimize, "console", Console(file=buf, width=80, highlight=False, color_system=None))
    human = optimize.HumanProgress(18, PlainLines(json_on_stdout=True), verbose=True)
    human(event_json(CandidateFinished(1, 2, 6, "r1c2", "/tmp/r1c2.cpp", "incorrect", "first; second; third", None,
                                       None, None, None, None)))
    assert " ".join(buf.getvalue().split()) == "2/6 incorrect: first first; second; third"


def test_piped_output_is_not_wrapped(tmp_path: Path) -> None:
    """stderr to a file: a 150-character line stays one line (it held run ids --resume needs)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    code = ("from engine.commands.common import console; console.print('run 20261205-091630-16c2 ' + 'x' * 150); "
            "from rich.table import Table; t = Table('a'); t.add_row('y' * 150); console.print(t)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root,
                       env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"})
    lines = p.stderr.splitlines()
    assert lines[0] == "run 20261205-091630-16c2 " + "x" * 150
    assert any("y" * 150 in ln for ln in lines)
