"""The evaluator on the CPU: every outcome kind, and a worker that survives crashing candidates."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

import pytest

from contracts.vocabulary import Space
from engine.evaluate import Status
from engine.evaluate.timing_policy import MIN_TRIALS
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
    # Trials adapt to the call's time (timing_policy.TIMING_TARGET_MS), at least MIN_TRIALS, the same on both sides.
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
        assert re.search(r"no (answer|result) within [\d.]+ s", o.reason), o.reason  # the limit it ran past
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


def test_a_modelnew_runner_reads_the_bytecode_cache_and_writes_nothing_to_it(tmp_path, monkeypatch):
    """The runs' shared bytecode (engine/pycache.py) is bound read-only into the sandbox, and the runner never
    writes bytecode (-B): on the H200 importing the candidate tried to write its .pyc into the cache, which the
    runner's audit hook called a write outside the scratch, and every ModelNew candidate was `suspect`."""
    import sys

    from engine import pycache
    from engine.evaluate.candidate_process import CandidateProcess, RunnerSpec

    prefix = tmp_path / "pycache"
    monkeypatch.setenv("HIERA_PYCACHE", str(prefix))
    monkeypatch.delenv(pycache.ENV, raising=False)
    monkeypatch.setattr(sys, "pycache_prefix", None)
    assert pycache.enable() == prefix
    artifact = tmp_path / "c.py"
    artifact.write_text("")
    spec = RunnerSpec(kind="modelnew", device="cpu", space="libraries_pytorch", artifact=artifact, sandboxed=True,
                      workdir=tmp_path / "runners")
    (tmp_path / "runners").mkdir()
    argv, policy, _env, _artifact = CandidateProcess(spec, "c")._argv_and_policy()
    assert "-B" in argv and f"pycache_prefix={prefix}" in argv
    cache_binds = [b for b in policy.binds if b.source.startswith(str(prefix))]
    assert cache_binds and not any(b.writable for b in cache_binds)
    # Only the installation's folders' bytecode, never the cache of what else a trusted process imported (the
    # task's folder here). By the installation's own paths, which may themselves lie under /tmp (a CI clone).
    from engine.evaluate import sandbox

    installed = {str(prefix) + os.path.abspath(d) for d in sandbox.python_dirs(with_site=True)}
    assert {b.source for b in cache_binds} <= installed, ({b.source for b in cache_binds} - installed)
    assert not any(b.source.startswith(str(prefix) + str(tmp_path)) for b in cache_binds)
    e = evaluator(TASKS / "relu_positive.py", tmp_path / "eval", timeout_s=180)
    try:
        o = evaluate_one(e, CANDIDATES / "relu_modelnew.py")
    finally:
        e.close()
    assert o.status is Status.VALID, o.reason


def test_a_warm_compile_fills_the_shared_cache_in_the_runners_sandbox(tmp_path):
    """hiera's own torch.compile candidates are compiled ahead, together, in the sandbox their runners get
    (pipeline._warm_compiles on a GPU); the cache they fill is the one those runners read."""
    from engine.agents.expert.codegen.torch_variants import TorchVariant, modelnew_source
    from engine.evaluate.candidate_process import RunnerSpec, warm_compile
    from engine.task.spec import load_task

    source = modelnew_source(load_task(TASKS / "relu_positive.py"), TorchVariant("compile"), strategy="test")
    artifact = tmp_path / "cand.py"
    artifact.write_text(source)
    cache = tmp_path / "compile-cache"
    spec = RunnerSpec(kind="modelnew", device="cpu", space="libraries_pytorch", artifact=artifact, sandboxed=True,
                      workdir=tmp_path / "warm", compile_cache=cache, max_processes=2048)
    spec.workdir.mkdir()
    ok, log = warm_compile(spec, "fp32", 300)
    assert ok, log
    assert list((cache / "inductor").rglob("*.py")), "nothing compiled into the shared cache"
    assert not list(spec.workdir.iterdir())  # its scratch is gone
    broken = tmp_path / "broken.py"
    broken.write_text(source.replace("class ModelNew", "raise RuntimeError('no')\nclass ModelNew"))
    ok, log = warm_compile(RunnerSpec(**{**spec.__dict__, "artifact": broken}), "fp32", 300)
    assert not ok and "no" in log


def test_only_hieras_own_torch_compile_candidates_are_warmed():
    from engine.evaluate.outcome import Candidate, CandidateKind

    compiled = "self._c = _hiera_torch.compile(self._f)"
    assert Candidate("a", CandidateKind.MODELNEW, compiled, None, origin="expert:compile").hieras_compile
    assert not Candidate("b", CandidateKind.MODELNEW, compiled, None, origin="llm").hieras_compile  # untrusted
    assert not Candidate("c", CandidateKind.MODELNEW, "class ModelNew: ...", None, origin="expert:x").hieras_compile
    assert not Candidate("d", CandidateKind.CUDA, compiled, None, origin="expert:x").hieras_compile
