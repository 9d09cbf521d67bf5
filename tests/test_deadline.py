"""A run's deadline (engine/deadline.py, engine/loop_plan.py) and its anytime result: what fits is decided from the
run's own costs, what does not is named, the alarm stops a step that overruns, and a run that stops early (its
deadline, SIGTERM) ends with a `result` event naming its best so far."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.deadline import FINISH_S, Deadline, DeadlineReached
from engine.evaluate.outcome import Candidate, CandidateKind
from engine.loop_plan import Plan, candidate_class
from tests.conftest import TASKS

ROOT = Path(__file__).resolve().parents[1]


def _cand(cid: str, kind: CandidateKind = CandidateKind.CPP, source: str = "// k", origin: str = "expert:x"):
    return Candidate(cid, kind, source, None, origin=origin)


# --- the clock and the plan ------------------------------------------------------------------------------------

def test_without_a_deadline_everything_fits_and_nothing_is_left_out():
    plan = Plan(Deadline(None), on_gpu=False)
    assert plan.round_size(1, 6, reserve=0.0) == 6
    assert plan.admit(_cand("a"), "evaluate", reserve=1e9)
    assert plan.profile_fits() and plan.deadline.left() == float("inf")
    plan.end_round(1, 6)
    assert plan.deadline.left_out == []


def test_a_round_asks_for_as_many_candidates_as_its_evaluations_so_far_say_fit():
    dl = Deadline(30.0, started=time.perf_counter())  # 30 s from now: 28 spendable
    plan = Plan(dl, on_gpu=False)
    assert plan.round_size(1, 6, reserve=0.0) == 6  # nothing measured yet: the round is tried whole
    dl.costs.add("evaluate", 5.0)
    assert plan.round_size(2, 6, reserve=0.0) == 5  # 28 s // 5 s
    dl.costs.add("build", 8.0)
    assert plan.round_size(2, 6, reserve=9.0) == 2  # (28 - 9 - 8) // 5
    dl.costs.add("evaluate", 40.0)
    dl.costs.add("evaluate", 40.0)  # the median evaluation is now 40 s: not one fits
    assert plan.round_size(3, 6, reserve=0.0) == 0
    plan.rounds_left_out(3, [6, 6, 6])
    assert dl.left_out == ["round 3 (6 candidates) not played"]


def test_a_candidate_that_does_not_fit_is_left_out_and_named_once_at_the_round_s_end():
    dl = Deadline(12.0, started=time.perf_counter())  # 10 s spendable
    plan = Plan(dl, on_gpu=True)
    dl.costs.add("evaluate:contract", 4.0)
    dl.costs.add("evaluate", 4.0)
    assert plan.admit(_cand("a"), "evaluate", reserve=0.0)
    assert not plan.admit(_cand("b"), "evaluate", reserve=7.0)  # 4 s + the best's 7 s re-timing: 11 > 10
    compiled = _cand("c", CandidateKind.MODELNEW, "m = torch.compile(f)")
    assert candidate_class(compiled) == "compile"
    assert not plan.admit(compiled, "compile", reserve=0.0)  # no compile seen yet: 30 s guessed on a GPU
    plan.end_round(2, 6)
    assert dl.left_out == ["round 2: 2 of its 6 candidates not evaluated"]


def test_a_modelnew_someone_else_wrote_is_priced_by_its_own_evaluations_not_by_hieras_replay():
    # Another's ModelNew is checked at other batch sizes (several times the calls); hiera's CUDA-graph replay
    # is not. Each is priced from its own kind's evaluations so far.
    dl = Deadline(40.0, started=time.perf_counter())  # 38 s spendable
    plan = Plan(dl, on_gpu=True)
    replay = _cand("r", CandidateKind.MODELNEW, "g = torch.cuda.CUDAGraph()", origin="expert:cuda_graph")
    written = _cand("w", CandidateKind.MODELNEW, "class ModelNew: ...", origin="llm:some-model")
    assert candidate_class(replay) == "modelnew" and candidate_class(written) == "modelnew:other"
    for c, wall in ((replay, 3.0), (written, 25.0)):  # as Plan.finished records an evaluation's wall
        dl.costs.add(f"evaluate:{candidate_class(c)}", wall)
        dl.costs.add("evaluate", wall)
    assert plan.evaluation_estimate(_cand("r2", CandidateKind.MODELNEW, "replay", origin="hiera:opener")) \
        == pytest.approx(3.0, abs=0.1)
    assert plan.evaluation_estimate(_cand("w2", CandidateKind.MODELNEW, "x", origin="user")) \
        == pytest.approx(25.0, abs=0.1)
    assert plan.admit(_cand("r3", CandidateKind.MODELNEW, "replay"), "evaluate", reserve=30.0)
    assert not plan.admit(_cand("w3", CandidateKind.MODELNEW, "x", origin="llm:m"), "evaluate", reserve=30.0)


def test_a_profile_is_taken_only_when_it_is_a_small_share_of_what_is_left():
    assert not Plan(Deadline(60.0, started=time.perf_counter()), on_gpu=True).profile_fits()  # 12 s of 58
    assert Plan(Deadline(300.0, started=time.perf_counter()), on_gpu=True).profile_fits()


def test_the_deadline_counts_from_the_process_start_and_caps_a_step_s_own_limit():
    dl = Deadline(20.0, started=time.perf_counter() - 15.0)  # the process started 15 s ago
    left = dl.spendable()
    assert 2.5 < left <= 20.0 - 15.0 - FINISH_S
    assert 1.0 <= dl.cap(600.0) <= left
    assert Deadline(None).cap(600.0) == 600.0


def test_the_alarm_stops_a_step_that_overruns_and_a_disarmed_one_never_rings():
    dl = Deadline(FINISH_S + 0.3, started=time.perf_counter())
    t0 = time.perf_counter()
    with pytest.raises(DeadlineReached), dl.armed():
        time.sleep(5)  # a build, a candidate's evaluation: whatever the loop waits in
    assert time.perf_counter() - t0 < 2.0
    before = signal.getsignal(signal.SIGALRM)
    quiet = Deadline(FINISH_S + 0.2, started=time.perf_counter())
    with quiet.armed():
        pass
    time.sleep(0.4)  # left armed, it would raise here
    assert signal.getsignal(signal.SIGALRM) == before and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


# --- the whole command on the CPU ------------------------------------------------------------------------------

def _optimize(task: Path, workspace: Path, *flags: str) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "engine.cli", "optimize", str(task), "--device", "cpu", "--events", "jsonl",
           "--workspace", str(workspace), *flags]
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}, start_new_session=True)


@pytest.mark.slow
def test_a_multi_layer_module_with_a_25_s_deadline_ends_by_35_s_with_a_valid_best_so_far(tmp_path):
    task = tmp_path / "mlp_block.py"
    shutil.copy(TASKS / "small_mlp_block.py", task)
    t0 = time.perf_counter()
    p = _optimize(task, tmp_path, "--deadline", "25")
    out, err = p.communicate(timeout=120)
    wall = time.perf_counter() - t0
    result = json.loads(out.strip().splitlines()[-1])
    assert result["event"] == "result", err[-3000:]
    assert wall <= 35.0, f"ended {wall:.1f} s after its start; phases {result['phases']}"
    assert result["deadline_s"] == 25.0
    assert result["status"] == "finished" or result["stop_reason"] == "deadline"
    assert result["best"] is not None, f"no valid best in {wall:.1f} s: {result['rounds']} {result['phases']}"
    assert result["best"]["paths"] is not None and Path(result["best"]["paths"]["py"]).exists()
    assert p.returncode in (0, 3), err[-2000:]  # a deadline's run exits by its outcome


@pytest.mark.slow
def test_sigterm_after_the_first_valid_candidate_ends_with_a_result_naming_it(tmp_path):
    """The editor cancels with SIGTERM to the job's process group and kills it 3 s later (hiera_ls/jobs.py): the
    result event must be out by then, naming the best so far."""
    task = tmp_path / "stop_me.py"
    shutil.copy(TASKS / "scale_bias_relu.py", task)
    p = _optimize(task, tmp_path, "--budget", "6", "--candidates", "3", "--trials", "10")
    valid = None
    lines = []
    try:
        for line in p.stdout:
            lines.append(line)
            e = json.loads(line)
            if e["event"] == "candidate_finished" and e["status"] == "valid":
                valid = e["candidate_id"]
                os.killpg(p.pid, signal.SIGTERM)
                t_term = time.perf_counter()
                break
        rest, err = p.communicate(timeout=60)
        after = time.perf_counter() - t_term
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
    assert valid is not None, "no valid candidate came"
    events = [json.loads(x) for x in [*lines, *rest.splitlines()] if x.strip()]
    result = events[-1]
    assert result["event"] == "result" and result["status"] == "stopped" and result["stop_reason"] == "terminated"
    assert result["best"] is not None and result["best"]["candidate_id"] == valid
    assert p.returncode == 143 and "Traceback" not in err
    assert after < 3.0, f"the result came {after:.1f} s after SIGTERM (the editor kills the job at 3 s)"
