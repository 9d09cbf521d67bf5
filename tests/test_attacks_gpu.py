"""The attack corpus on a CUDA device (issue 13; run on the H200: pytest -m gpu tests/test_attacks_gpu.py).

The CUDA candidates (tests/data/attacks/gpu/*.cu) try each escape class from a kernel's host code, what
only a GPU allows (device printf on stdout, a kernel that never ends, device memory left allocated for the
next candidate, cuBLAS looked up by name in a pure CUDA candidate, PyTorch on device pointers through the
CPython C API), and the ModelNew attacks whose mechanism differs on the GPU (dispatcher patches, snooping,
caches, bf16). The arena, the runs and the checks are the CPU file's (tests/test_attacks_cpu.py).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import test_attacks_cpu as kit
from tests.conftest import DATA, TASKS

pytestmark = pytest.mark.gpu

BIG = TASKS / "big_scale_bias_relu.py"
HONEST_CU = DATA / "gpu" / "scale_bias_relu.cu"
ESCAPE_CU = [str(HONEST_CU), "gpu/write_outside.cu", "gpu/net_tcp.cu", "gpu/env_getenv.cu", "gpu/read_include.cu",
             "gpu/stdout_device_printf.cu"]


@pytest.fixture(scope="module")
def escape_cu(tmp_path_factory: pytest.TempPathFactory) -> Iterator[kit.Escape]:
    with kit.arena_at(tmp_path_factory.mktemp("escape-cu")) as a:
        yield kit.run_escape(a, BIG, ESCAPE_CU, device="cuda")


def test_the_cuda_escape_batch_ends_with_every_verdict_and_the_honest_one_valid(escape_cu: kit.Escape) -> None:
    run = escape_cu.run
    assert not run.killed_by_test and run.rc in (0, 1), run.summary()
    assert all(run.verdict(p) is not None for p in escape_cu.cands.values()), run.summary()
    assert run.status(escape_cu.cands[HONEST_CU.name]) == "valid", run.summary()
    unbuilt = [n for n, p in escape_cu.cands.items() if run.status(p) == "build_failed" and not n.startswith("read_")]
    assert not unbuilt, f"attacks that did not build: {unbuilt}\n{run.summary()}"


@pytest.mark.parametrize("target", ["workspace", "home", "task file", "host /tmp"])
def test_a_cuda_candidate_writes_nothing_outside_its_scratch(escape_cu: kit.Escape, target: str) -> None:
    bad = kit.writes_outside_scratch(escape_cu, target)
    assert not bad, f"the CUDA candidates wrote into the {target}: {bad}"


def test_a_cuda_candidate_reaches_no_listener_on_localhost(escape_cu: kit.Escape) -> None:
    assert escape_cu.arena.listeners is not None
    assert not escape_cu.arena.listeners.received["tcp"], escape_cu.arena.listeners.received


def test_environment_secrets_appear_nowhere_on_the_cuda_path(escape_cu: kit.Escape) -> None:
    found = kit.secrets_found(escape_cu)
    assert not found, "secrets leaked:\n" + "\n".join(found)


def test_nvcc_does_not_quote_files_outside_the_build(escape_cu: kit.Escape) -> None:
    assert escape_cu.run.status(escape_cu.cands["read_include.cu"]) == "build_failed", escape_cu.run.summary()
    leaked = kit.canaries_in_verdict(escape_cu, "read_include.cu")
    assert not leaked and not kit.canaries_found(escape_cu), leaked or kit.canaries_found(escape_cu)


def test_device_printf_does_not_reach_hieras_json_stdout(escape_cu: kit.Escape) -> None:
    problems = kit.stdout_problems(escape_cu)
    assert not problems, problems[:6]


def test_a_cuda_daemon_does_not_outlive_the_evaluation(tmp_path: Path) -> None:
    with kit.arena_at(tmp_path) as a:
        cands = [a.render("gpu/daemon_setsid.cu"), a.render(str(HONEST_CU))]
        run = kit.hiera_eval(a, a.task(BIG), cands, device="cuda")
        time.sleep(5.0)
        assert run.status(cands[1]) == "valid", run.summary()
        assert not kit.processes_named(a.token), "a daemon started by the CUDA candidate is still running"
        assert not a.leftovers(), a.leftovers()


def test_a_cuda_candidate_killing_hiera_fails_and_the_batch_keeps_its_verdicts(tmp_path: Path) -> None:
    with kit.arena_at(tmp_path) as a:
        before, after = a.render(str(HONEST_CU), "honest_before.cu"), a.render(str(HONEST_CU), "honest_after.cu")
        cand = a.render("gpu/kill_parent.cu")
        run = kit.hiera_eval(a, a.task(BIG), [before, cand, after], device="cuda", pidns=True)
        assert run.rc in (0, 1), f"hiera's CLI was killed (exit {run.rc})\n{run.summary()}"
        assert run.status(before) == "valid" and run.status(after) == "valid", run.summary()


def test_a_hung_kernel_times_out_within_seconds_and_the_next_candidate_is_valid(tmp_path: Path) -> None:
    with kit.arena_at(tmp_path) as a:
        cands = [a.render("gpu/kernel_hang.cu"), a.render(str(HONEST_CU))]
        run = kit.hiera_eval(a, a.task(BIG), cands, device="cuda", limit_s=180)
        hang = run.verdict(cands[0])
        assert hang is not None, f"no verdict within the test's 180 s\n{run.summary()}"
        assert hang["status"] == "timeout" and (hang.get("verify_s") or 0) < 60, hang
        assert run.status(cands[1]) == "valid", run.summary()


# --- the Evaluator API on the device ----------------------------------------------------------------------

def cuda_api(tmp: Path, task: Path, entries: list[tuple[str, Any]]) -> dict[str, Any]:
    with kit.arena_at(tmp) as a:
        return kit.evaluate_api(a, task, entries, device="cuda:0")


@pytest.mark.parametrize("task,attack", [(TASKS / "small_linear.py", "gpu/pure_dlsym_cublas.cu"),
                                         (BIG, "gpu/pure_cpython.cu"),
                                         (TASKS / "relu_positive.py", "pure_alias_assign.py"),
                                         (TASKS / "relu_positive.py", "pure_import_alias.py")])
def test_library_or_pytorch_calls_in_a_pure_cuda_candidate_are_space_violations(tmp_path: Path, task: Path,
                                                                                 attack: str) -> None:
    o = cuda_api(tmp_path, task, [(attack, kit.PURE)])[Path(attack).stem]
    assert o.status.value == "space_violation", kit.describe(o)


def test_device_memory_left_allocated_does_not_reach_the_next_candidate(tmp_path: Path) -> None:
    outs = cuda_api(tmp_path, BIG, [("gpu/device_mem_leak.cu", None), ("gpu/device_mem_probe.cu", None)])
    assert outs["device_mem_probe"].valid, kit.describe(outs["device_mem_probe"])


def test_skipping_kernels_on_timed_calls_is_not_valid_and_fast(tmp_path: Path) -> None:
    o = cuda_api(tmp_path, BIG, [("gpu/timed_count.cu", None)])["timed_count"]
    kit.honest_or_refused(o, "incorrect")  # checked timed outputs catch the skipped launches; a crash does not pass


def test_caching_a_matmul_on_an_input_fingerprint_does_not_inflate_the_speedup(tmp_path: Path) -> None:
    task = kit.ATTACKS / "tasks" / "gpu_linear.py"
    o = cuda_api(tmp_path, task, [("fingerprint_cache.py", None)])["fingerprint_cache"]
    kit.honest_or_refused(o)  # right for every input: valid, at a speed the cache did not inflate


@pytest.mark.parametrize("attack", ["patch_torch_relu.py", "patch_dispatcher.py"])
def test_patching_the_reference_on_the_gpu_is_rejected(tmp_path: Path, attack: str) -> None:
    o = cuda_api(tmp_path, TASKS / "relu_positive.py", [(attack, None)])[Path(attack).stem]
    assert o.status.value in kit.REJECTED, kit.describe(o)


def test_snooping_for_the_reference_on_the_gpu_is_rejected(tmp_path: Path) -> None:
    outs = cuda_api(tmp_path, TASKS / "scale_bias_relu.py", [("snoop_gc.py", None), ("snoop_frames.py", None)])
    for name in ("snoop_gc", "snoop_frames"):
        assert outs[name].status.value in kit.REJECTED, (name, kit.describe(outs[name]))


def test_correctness_gaps_are_closed_on_the_gpu(tmp_path: Path) -> None:
    outs = cuda_api(tmp_path, kit.ATTACKS / "tasks" / "softmax_wide.py", [("softmax_bf16.py", None)])
    outs.update(cuda_api(tmp_path / "relu", TASKS / "relu_positive.py", [("offdist_identity.py", None)]))
    for name in ("softmax_bf16", "offdist_identity"):
        assert outs[name].status.value == "incorrect", (name, kit.describe(outs[name]))
