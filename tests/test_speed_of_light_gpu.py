"""The speed of light on a CUDA device (run on a lent GPU: pytest -m gpu): the ceilings measured there are sane
and an honest, memory-bound kernel is credited near, never far beyond, its bound."""

from __future__ import annotations

import pytest

from engine.evaluate import Status
from engine.evaluate.speed_of_light import MARGIN_GPU
from tests.conftest import DATA, TASKS
from tests.evalkit import evaluate_one, evaluator

pytestmark = pytest.mark.gpu


def test_the_gpus_ceilings_are_measured_and_ordered_as_the_hardware_is(tmp_path, monkeypatch):
    import torch

    from engine.evaluate import ceilings

    monkeypatch.setenv("HIERA_CEILINGS", str(tmp_path / "ceilings.json"))
    c = ceilings.measure(torch.device("cuda:0"))
    assert c.dram_gbps and c.dram_gbps > 500  # any data-centre GPU's HBM
    assert c.cache_gbps and c.cache_gbps >= c.dram_gbps  # L2 is faster than the DRAM behind it
    assert c.fp32_gflops and c.tf32_gflops and c.tf32_gflops > c.fp32_gflops  # tensor cores beat the FMA units
    assert c.bf16_gflops and c.bf16_gflops > c.tf32_gflops
    assert c.launch_us is not None and 0.3 < c.launch_us < 30
    assert c.seconds < 60, c.seconds


def test_an_honest_kernel_is_credited_at_no_more_than_its_bound_and_the_margin(tmp_path, monkeypatch):
    monkeypatch.setenv("HIERA_CEILINGS", str(tmp_path / "ceilings.json"))
    ev = evaluator(TASKS / "big_scale_bias_relu.py", tmp_path / "gpu", device="cuda:0", timeout_s=120)
    try:
        o = evaluate_one(ev, DATA / "gpu" / "scale_bias_relu.cu")
    finally:
        ev.close()
    assert o.status is Status.VALID, o.reason
    sol = o.speed_of_light
    assert sol is not None and sol.bound == "memory" and sol.bytes == 2 * 4096 * 8192 * 4 + 8192 * 4
    assert 0.2 < sol.fraction < 1 + MARGIN_GPU, sol
