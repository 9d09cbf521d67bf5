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
