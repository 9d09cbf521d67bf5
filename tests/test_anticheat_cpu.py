"""Each known cheat is rejected (suspect or incorrect) or, for a real implausible speedup, flagged."""

from __future__ import annotations

import pytest

from engine.evaluate import Status
from tests.conftest import CANDIDATES, CHEATS, TASKS
from tests.evalkit import evaluate_one, evaluator

REJECTED = {Status.SUSPECT, Status.INCORRECT}


@pytest.fixture(scope="module")
def relu(tmp_path_factory):
    e = evaluator(TASKS / "relu_positive.py", tmp_path_factory.mktemp("relu"), timeout_s=60)
    yield e
    e.close()


@pytest.fixture(scope="module")
def linear(tmp_path_factory):
    e = evaluator(TASKS / "small_linear.py", tmp_path_factory.mktemp("linear"), timeout_s=60)
    yield e
    e.close()


def test_honest_modelnew_is_valid(relu):
    o = evaluate_one(relu, CANDIDATES / "relu_modelnew.py")
    assert o.status is Status.VALID, o.reason


def test_zeroing_inputs_is_suspect(tmp_path):
    with evaluator(TASKS / "scale_bias_relu.py", tmp_path) as ev:
        o = evaluate_one(ev, CHEATS / "zero_inputs.cpp")
    assert o.status is Status.SUSPECT
    assert "modified input 0" in o.reason


def test_uninitialized_output_hoping_for_freed_reference_memory_is_rejected(relu):
    o = evaluate_one(relu, CHEATS / "empty_output.py")
    assert o.status in REJECTED, o.reason


@pytest.mark.parametrize("cheat", ["return_input.py", "return_view.py"])
def test_returning_the_input_or_a_view_is_suspect(relu, cheat):
    o = evaluate_one(relu, CHEATS / cheat)
    assert o.status is Status.SUSPECT
    assert "shares memory with input 0" in o.reason


def test_output_cache_keyed_on_input_buffers_is_rejected(relu):
    o = evaluate_one(relu, CHEATS / "cache_by_buffer.py")
    assert o.status in REJECTED, o.reason


def test_result_hard_coded_to_one_input_is_incorrect(relu):
    o = evaluate_one(relu, CHEATS / "cache_forever.py")
    assert o.status is Status.INCORRECT


def test_lazy_tensor_subclass_is_suspect(relu):
    o = evaluate_one(relu, CHEATS / "lazy_subclass.py")
    assert o.status is Status.SUSPECT
    assert "subclass" in o.reason


def test_patching_the_timer_is_suspect(relu):
    o = evaluate_one(relu, CHEATS / "patch_timer.py")
    assert o.status is Status.SUSPECT
    assert "time.perf_counter was replaced" in o.reason


def test_background_thread_finishing_after_return_is_suspect(relu):
    o = evaluate_one(relu, CHEATS / "background_thread.py")
    assert o.status is Status.SUSPECT
    assert "still being written" in o.reason and "background thread" in o.reason


def test_lowered_precision_under_fp32_policy_is_incorrect(linear):
    o = evaluate_one(linear, CHEATS / "low_precision.py")
    assert o.status is Status.INCORRECT
    assert o.error is not None and o.error.max_abs > 1e-4


def test_flipping_tf32_switches_under_fp32_policy_is_suspect(linear):
    o = evaluate_one(linear, CHEATS / "enable_tf32.py")
    assert o.status is Status.SUSPECT
    assert "allow_tf32" in o.reason


def test_real_implausible_speedup_is_reverified_and_flagged(tmp_path):
    with evaluator(TASKS / "redundant_mean.py", tmp_path) as ev:
        o = evaluate_one(ev, CANDIDATES / "redundant_mean_fast.py")
    assert o.status is Status.VALID, o.reason
    assert o.speedup > 10
    assert any(f.startswith("excessive_speedup") for f in o.flags)


def test_an_idle_thread_pool_started_by_honest_code_is_not_a_cheat(relu):
    o = evaluate_one(relu, CANDIDATES / "idle_thread_pool.py")
    assert o.status is Status.VALID, o.reason
