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


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("capped", [True, False])
def test_the_fast_acceptance_never_accepts_what_the_exact_rule_refuses(monkeypatch, dtype, capped) -> None:
    """Outputs placed right at the tolerance's edge (a hair inside, on, or a hair outside it, element by element):
    the fast path may leave a case to the exact rule, never decide one the other way."""
    monkeypatch.setattr(verify, "FAST_CHUNK", 50)  # several steps of the fast pass
    monkeypatch.setattr(verify, "CHUNK", 64)
    torch.manual_seed(1)
    tol = 1e-4
    accepted_fast = 0
    for trial in range(60):
        r = (torch.randn(9, 23) * 10 ** float(torch.randint(-3, 3, ()))).to(dtype)
        rms = max(float(r.double().square().mean().sqrt()), 1e-6)
        atol = tol * (min(1.0, rms) if capped else rms)
        edge = atol + tol * r.double().abs()
        where = 1.0 + (torch.rand(9, 23, dtype=torch.float64) - 0.5) * (4e-4 if trial % 2 else 1e-7)
        sign = torch.where(torch.rand(9, 23) < 0.5, -1.0, 1.0).double()
        o = (r.double() + sign * edge * where * (trial % 3 != 0)).to(dtype)
        exact_bad = int(((o.double() - r.double()).abs() > atol + tol * r.double().abs()).sum())
        fast = verify._surely_within(o.reshape(-1), r.reshape(-1), tol, capped)
        accepted_fast += fast
        if fast:
            assert exact_bad == 0, f"trial {trial}: fast path accepted {exact_bad} elements outside the bound"
        found = verify.compare(o, r, tol, "out", capped=capped)
        assert (found is None) == (exact_bad == 0)
    assert accepted_fast > 0  # the fast path does take the cases it is sure of


def test_the_fast_acceptance_never_passes_nan_or_inf() -> None:
    r = torch.randn(1000)
    for bad in (float("nan"), float("inf"), -float("inf")):
        o = r.clone()
        o[517] = bad
        assert not verify._surely_within(o, r, 1e-4, True)
        found = verify.compare(o, r, 1e-4, "out")
        assert found is not None and "NaN/Inf" in found.reason
    r2 = r.clone()
    r2[3] = float("nan")
    assert not verify._surely_within(r2.clone(), r2, 1e-4, True)  # a non-finite reference: the exact rule says so
    assert "reference" in verify.compare(r2.clone(), r2, 1e-4, "out").reason


def test_integer_outputs_are_left_to_the_exact_rule() -> None:
    a = torch.arange(10)
    assert not verify._surely_within(a, a, 1e-4, True)
