"""A host-bound forward's reference on a GPU (timing_policy.host_bound, reference_of_blocks): what decides that a
forward is host-bound, and which of its two timings is its figure. The checker's use of them runs on a GPU only
(tests/test_evaluate_gpu.py::test_a_host_bound_reference_is_timed_beside_the_candidate_and_after_it)."""

from __future__ import annotations

import pytest

from contracts.verdict import FlagKind
from engine.evaluate.timing_policy import DRIFT_NOTED, HOST_BOUND, host_bound, reference_of_blocks


@pytest.mark.parametrize(("host_ms", "device_ms", "bound"), [
    (1.18, 1.35, True),  # ResNet18 on the H100, 2026-12-07: host issue beside device time
    (3.15, 3.06, True),  # a small ViT: the host slower than the device
    (0.02, 5.0, False),  # a large GEMM: a few launches, milliseconds of device work
    (HOST_BOUND * 2.0, 2.0, True),
    (HOST_BOUND * 2.0 - 0.01, 2.0, False),
    (1.0, 0.0, False),  # no device time measured: nothing to say
])
def test_host_bound_is_the_hosts_issue_time_against_the_device_time(host_ms, device_ms, bound) -> None:
    assert host_bound(host_ms, device_ms) is bound


def test_the_faster_block_is_the_figure_whichever_it_is() -> None:
    # ViT's honest copy on the H100: the reference read 2.68 ms after the runner, 1.97 ms is where the host was
    # during the candidate's calls; beside it, the reference would have read about the same.
    b = reference_of_blocks([1.98, 2.01, 1.99], [2.66, 2.68, 2.70])
    assert b.used == "beside" and b.samples == [1.98, 2.01, 1.99]
    assert b.drift == pytest.approx((2.68 - 1.99) / 1.99)
    # Reference blocks slowed while the runner was alive (its queued kernels, or the host then): the figure is the
    # one taken with no runner, which nothing of the candidate's can have slowed.
    b = reference_of_blocks([1.9, 1.8, 1.85], [1.40, 1.45, 1.50])
    assert b.used == "after" and b.samples == [1.40, 1.45, 1.50]
    assert b.record() == {"beside_ms": 1.85, "after_ms": 1.45, "used": "after", "drift": round(0.4 / 1.45, 4)}


def test_agreeing_blocks_are_not_noted() -> None:
    b = reference_of_blocks([1.00, 1.01, 1.02], [1.02, 1.03, 1.01])
    assert b.drift < DRIFT_NOTED
    assert FlagKind.HOST_DRIFT.value == "host_drift"


def test_an_allocation_failure_is_told_from_other_errors() -> None:
    import torch

    from engine.evaluate.checker import _out_of_memory

    assert _out_of_memory(torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB"))
    assert _out_of_memory(RuntimeError("CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`"))
    assert not _out_of_memory(RuntimeError("mat1 and mat2 shapes cannot be multiplied (4x3 and 4x3)"))
