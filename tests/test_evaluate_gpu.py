"""The evaluator on a CUDA device (run on the H200: pytest -m gpu)."""

from __future__ import annotations

import pytest

from engine.evaluate import Status
from tests.conftest import CANDIDATES, CHEATS, DATA, TASKS
from tests.evalkit import evaluate_one, evaluator

GPU = DATA / "gpu"
pytestmark = pytest.mark.gpu
REJECTED = {Status.SUSPECT, Status.INCORRECT}


@pytest.fixture(scope="module")
def ev(tmp_path_factory):
    e = evaluator(TASKS / "big_scale_bias_relu.py", tmp_path_factory.mktemp("gpu"), device="cuda:0", timeout_s=120)
    yield e
    e.close()


def test_correct_cuda_candidate_is_valid_and_faster(ev):
    o = evaluate_one(ev, GPU / "scale_bias_relu.cu")
    assert o.status is Status.VALID, o.reason
    assert o.speedup > 1.0
    assert o.candidate.method.startswith("cuda_events")


def test_work_on_an_unsynchronized_side_stream_is_suspect(ev):
    o = evaluate_one(ev, GPU / "side_stream.cu")
    assert o.status is Status.SUSPECT, o.reason
    assert "unsynchronized stream" in o.reason


def test_zeroing_inputs_on_the_gpu_is_suspect(ev):
    o = evaluate_one(ev, GPU / "zero_inputs.cu")
    assert o.status is Status.SUSPECT and "modified input 0" in o.reason


def test_unwritten_output_is_incorrect(ev):
    o = evaluate_one(ev, GPU / "empty_output.cu")
    assert o.status in REJECTED, o.reason


def test_illegal_memory_access_is_recorded_and_the_worker_recovers(ev):
    o = evaluate_one(ev, GPU / "illegal_address.cu")
    assert o.status is Status.RUNTIME_ERROR
    assert "illegal memory access" in o.reason.lower() or "cuda error" in o.reason.lower()
    again = evaluate_one(ev, GPU / "scale_bias_relu.cu")
    assert again.status is Status.VALID, again.reason


def test_modelnew_cheats_are_rejected_on_the_gpu(tmp_path):
    with evaluator(TASKS / "relu_positive.py", tmp_path, device="cuda:0") as e:
        for cheat in ("empty_output.py", "return_input.py", "cache_by_buffer.py", "lazy_subclass.py",
                      "background_thread.py", "patch_timer.py"):
            o = evaluate_one(e, CHEATS / cheat)
            assert o.status in REJECTED, (cheat, o.reason)
        assert evaluate_one(e, CANDIDATES / "relu_modelnew.py").status is Status.VALID


def test_tf32_under_fp32_policy_is_rejected_on_the_gpu(tmp_path):
    with evaluator(TASKS / "small_linear.py", tmp_path, device="cuda:0") as e:
        assert evaluate_one(e, CHEATS / "enable_tf32.py").status is Status.SUSPECT
        assert evaluate_one(e, CHEATS / "low_precision.py").status is Status.INCORRECT


HOST_BOUND_TASK = '''import torch
import torch.nn as nn


class Model(nn.Module):
    """Four hundred tiny operations: the device waits on the host's launches (host-bound)."""

    def forward(self, x):
        for _ in range(200):
            x = x * 1.0001
            x = x + 0.0001
        return x


def get_inputs():
    return [torch.randn(256)]


def get_init_inputs():
    return []
'''


def test_a_host_bound_reference_is_timed_beside_the_candidate_and_after_it(tmp_path):
    """The reference of a host-bound forward is timed in blocks beside the candidate's and again after the runner
    is gone; the faster median is its figure (timing_policy.reference_of_blocks). Whether an unchanged copy then
    reads 1.0x is measured by scripts/parity_gpu.sh, not asserted here (a timing, not a behaviour)."""
    task = tmp_path / "host_bound.py"
    task.write_text(HOST_BOUND_TASK)
    # Not copy.py: the task's folder comes first on its import path, and torch's `import copy` found the
    # candidate (a circular import; H100 2026-12-07).
    copy = tmp_path / "unchanged_copy.py"
    copy.write_text(HOST_BOUND_TASK + '\n\nclass ModelNew(Model):\n    """The reference unchanged."""\n')
    with evaluator(task, tmp_path / "work", device="cuda:0") as e:
        o = evaluate_one(e, copy)
    assert o.status is Status.VALID, o.reason
    blocks = o.extra.get("reference_blocks")
    assert blocks and blocks["used"] in ("beside", "after"), o.extra
    used = blocks["beside_ms"] if blocks["used"] == "beside" else blocks["after_ms"]
    assert used == min(blocks["beside_ms"], blocks["after_ms"])
    assert abs(o.reference.median_ms - used) <= 1e-3 * used + 1e-6, (o.reference.median_ms, blocks)
