"""The evaluator on the CPU: every outcome kind, and a worker that survives crashing candidates."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from contracts.vocabulary import Space
from engine.evaluate import Status
from engine.evaluate.checker import MIN_TRIALS
from tests.conftest import CANDIDATES, TASKS
from tests.evalkit import candidate, evaluate_one, evaluator


@pytest.fixture(scope="module")
def ev(tmp_path_factory):
    e = evaluator(TASKS / "scale_bias_relu.py", tmp_path_factory.mktemp("eval"), timeout_s=180)
    yield e
    e.close()


def test_correct_cpp_candidate_is_valid_with_paired_timings(ev):
    o = evaluate_one(ev, CANDIDATES / "scale_bias_relu.cpp")
    assert o.status is Status.VALID, o.reason
    # Trials adapt to the call's time (checker.TIMING_TARGET_MS), at least MIN_TRIALS, the same on both sides.
    assert o.candidate.trials == o.reference.trials >= MIN_TRIALS
    assert o.speedup == pytest.approx(o.reference.median_ms / o.candidate.median_ms)
    assert o.candidate.min_ms <= o.candidate.median_ms <= o.candidate.max_ms


def test_compile_error_is_build_failed_with_the_compilers_message(ev):
    o = evaluate_one(ev, CANDIDATES / "broken_syntax.cpp")
    assert o.status is Status.BUILD_FAILED
    assert "error" in o.reason and "undeclared_name" in o.reason


def test_wrong_math_is_incorrect_with_worst_element(ev):
    o = evaluate_one(ev, CANDIDATES / "wrong_math.cpp")
    assert o.status is Status.INCORRECT
    assert o.error is not None and o.error.max_abs > 1e-3
    assert "worst at out[" in o.reason


def test_nonzero_return_code_is_a_runtime_error(ev):
    o = evaluate_one(ev, CANDIDATES / "returns_error.cpp")
    assert o.status is Status.RUNTIME_ERROR
    assert "returned 7" in o.reason


def test_space_violation_names_the_line_and_is_never_built(ev):
    o = evaluate_one(ev, CANDIDATES / "uses_cublas.cpp", Space.PURE_CUDA)
    assert o.status is Status.SPACE_VIOLATION
    assert "line 6:" in o.reason and "cuBLAS" in o.reason
    assert o.extra["lines"] == [6]  # the comment naming cublasSgemm on line 5 is not a violation
    assert o.build_s is None


def test_segfault_ends_only_its_runner_and_the_next_candidate_evaluates(ev):
    restarts = ev.worker.restarts
    o = evaluate_one(ev, CANDIDATES / "segfault.cpp")
    assert o.status is Status.RUNTIME_ERROR
    assert "SIGSEGV" in o.reason
    again = evaluate_one(ev, CANDIDATES / "scale_bias_relu.cpp")
    assert again.status is Status.VALID, again.reason
    assert ev.worker.restarts == restarts  # the checker itself never ran the candidate, so it lives on


def test_hang_times_out_and_the_worker_recovers(tmp_path):
    # A short limit of its own: a loaded CI machine must not turn honest candidates into timeouts elsewhere.
    with evaluator(TASKS / "scale_bias_relu.py", tmp_path, timeout_s=15) as ev:
        o = evaluate_one(ev, CANDIDATES / "hang.cpp")
        assert o.status is Status.TIMEOUT
        ev.settings = replace(ev.settings, request_timeout_s=180)
        again = evaluate_one(ev, CANDIDATES / "scale_bias_relu.cpp")
    assert again.status is Status.VALID, again.reason


def test_build_cache_reuses_an_identical_source(ev):
    c = candidate(CANDIDATES / "scale_bias_relu.cpp")
    from engine.evaluate.build import build_one

    first = build_one(c, ev.build_config)
    second = build_one(c, ev.build_config)
    assert first.ok and second.ok and second.cached
    assert first.artifact == second.artifact


def test_a_batch_builds_in_parallel_and_keeps_order(ev):
    a = candidate(CANDIDATES / "scale_bias_relu.cpp")
    b = candidate(CANDIDATES / "wrong_math.cpp")
    outs = ev.evaluate([b, a])
    assert [o.candidate_id for o in outs] == ["wrong_math", "scale_bias_relu"]
    assert [o.status for o in outs] == [Status.INCORRECT, Status.VALID]


def test_a_cuda_candidate_on_the_cpu_says_what_to_do(ev, tmp_path):
    cu = tmp_path / "k.cu"
    cu.write_text('#include "hiera_contract.h"\n')
    o = evaluate_one(ev, cu)
    assert o.status is Status.RUNTIME_ERROR and "needs a CUDA device" in o.reason


def test_cli_eval_of_several_candidates_reports_each_on_its_own_line(tmp_path: Path) -> None:
    """`hiera eval TASK A B --json`: one worker, one JSON line per candidate, exit 1 when any is invalid."""
    import json
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    good, bad = CANDIDATES / "scale_bias_relu.cpp", CANDIDATES / "wrong_math.cpp"
    p = subprocess.run([sys.executable, "-m", "engine.cli", "eval", str(TASKS / "scale_bias_relu.py"), str(good),
                        str(bad), "--json", "--device", "cpu", "--workspace", str(tmp_path), "--trials", "20"],
                       capture_output=True, text=True, cwd=root, timeout=600)
    lines = [json.loads(x) for x in p.stdout.splitlines() if x.startswith("{")]
    assert p.returncode == 1, p.stderr[-2000:]
    assert [x["candidate_file"] for x in lines] == [str(good), str(bad)]
    assert lines[0]["status"] == "valid" and lines[1]["status"] != "valid"
    assert lines[0]["run_id"] != lines[1]["run_id"]
