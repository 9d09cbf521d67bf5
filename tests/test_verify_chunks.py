"""The comparison in chunks (KernelBench's outputs reach 1.6 G elements) agrees with one over the whole."""

from __future__ import annotations

import pytest
import torch

import engine.evaluate.verify as verify


def _whole(o: torch.Tensor, r: torch.Tensor, tol: float) -> tuple[int, int, float]:
    o, r = o.double(), r.double()
    atol = tol * min(1.0, max(float(r.square().mean().sqrt()), 1e-6))
    finite = torch.isfinite(o)
    diff = torch.where(finite, (o - r).abs(), torch.full_like(o, float("inf")))
    bound = atol + tol * r.abs()
    worst = int(torch.argmax(torch.nan_to_num((diff - bound).flatten(), nan=float("inf"))))
    return int((diff > bound).sum()), worst, float(diff.max())


@pytest.mark.parametrize("chunk", [7, 64, 1 << 25])
def test_chunked_compare_matches_the_whole_tensor_rule(monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    monkeypatch.setattr(verify, "CHUNK", chunk)
    torch.manual_seed(0)
    for trial in range(30):
        r = torch.randn(13, 17)
        o = r + torch.randn(13, 17) * torch.rand(1) * 1e-3
        if trial % 3 == 0:
            o[int(torch.randint(0, 13, ())), int(torch.randint(0, 17, ()))] = float("nan")
        if trial % 5 == 0:
            o[2, 3] += 1
        found = verify.compare(o, r, 1e-4, "out")
        n_bad, worst, max_abs = _whole(o, r, 1e-4)
        if n_bad == 0:
            assert found is None
            continue
        assert found is not None and found.error is not None
        assert found.error.mismatches == n_bad
        assert found.error.where == f"out[{worst // 17}, {worst % 17}]"
        assert found.error.max_abs == pytest.approx(max_abs)


def test_an_output_of_another_size_is_incorrect_not_broadcast() -> None:
    found = verify.compare(torch.zeros(4, 4), torch.zeros(4), 1e-4, "out")
    assert found is not None and "16 elements" in found.reason
