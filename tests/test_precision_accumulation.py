"""The bf16/fp16 policies' accumulation trial (engine/evaluate/accumulation.py): inputs built so that a sum kept in
bf16 fails where one kept in fp32 passes, judged by the checker's own rule (verify.compare) and slack."""

from __future__ import annotations

import torch

from engine.evaluate import accumulation, verify
from engine.evaluate.outcome import Precision, Status
from engine.evaluate.rounding import low_precision_slack

TOL = Precision.BF16.tolerance_for("bfloat16")


class RowSum(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.sum(dim=-1)  # bf16 in, fp32 accumulation inside, bf16 out: PyTorch's own rule


class ScaledRowSum(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x * 1.1).sum(dim=-1)  # the product is rounded to bf16 before the sum


def run(module: torch.nn.Module, inputs: list) -> list[torch.Tensor]:
    with torch.no_grad():
        return verify.as_outputs(module(*inputs))  # type: ignore[return-value]


def runs_of_8_in_bf16(x: torch.Tensor) -> torch.Tensor:
    """A row sum that adds runs of 8 terms in bf16 (packed-half FMAs) and the runs' sums in fp32."""
    acc = torch.zeros(x.shape[:-1] + (x.shape[-1] // 8,), dtype=torch.bfloat16)
    parts = x.reshape(*x.shape[:-1], -1, 8)
    for j in range(8):
        acc = acc + parts[..., j]
    return acc.float().sum(-1).to(torch.bfloat16)


def fp32_reversed(x: torch.Tensor) -> torch.Tensor:
    return x.float().flip(-1).sum(-1).to(torch.bfloat16)


def built(module: torch.nn.Module, x: torch.Tensor, seed: int) -> tuple[str, torch.Tensor, torch.Tensor]:
    gen = torch.Generator().manual_seed(seed)
    got = accumulation.trial([x], gen, lambda xs: run(module, xs))
    assert got is not None
    what, inputs, expected = got
    return what, inputs[0], expected[0]


def judge(module: torch.nn.Module, x: torch.Tensor, out: torch.Tensor, ref: torch.Tensor) -> verify.Finding | None:
    slack = low_precision_slack(module, [x], [ref], [TOL], run)
    return verify.compare(out, ref, TOL, "out", capped=False, slack=slack[0])


def test_bf16_accumulation_passes_the_tasks_own_inputs_and_fails_the_built_ones():
    torch.manual_seed(0)
    ref = RowSum()
    for _trial in range(5):  # positive control: the task's own distribution (torch.rand) lets it through
        x = torch.rand(64, 4096).to(torch.bfloat16)
        assert verify.compare(runs_of_8_in_bf16(x), run(ref, [x])[0], TOL, "out") is None
    for seed in range(3):
        x = torch.rand(64, 4096).to(torch.bfloat16)
        what, xb, expected = built(ref, x, seed)
        assert "cancel" in what
        f = judge(ref, xb, runs_of_8_in_bf16(xb), expected)
        assert f is not None and f.status is Status.INCORRECT, f
        assert f.error is not None and f.error.max_abs > 20 * TOL * float(expected.double().square().mean().sqrt())


def test_fp32_accumulation_in_another_order_passes_the_built_inputs():
    torch.manual_seed(1)
    for module, fn in ((RowSum(), fp32_reversed), (ScaledRowSum(), lambda z: (z.float() * 1.1).flip(-1).sum(-1)
                                                   .to(torch.bfloat16))):
        for seed in range(3):
            x = torch.rand(32, 2048).to(torch.bfloat16)
            _, xb, expected = built(module, x, seed)
            # The second is more accurate than the reference (no bf16 rounding of x * 1.1): the slack, how far the
            # reference is from float64, is what lets it through.
            assert judge(module, xb, fn(xb), expected) is None


def test_the_built_values_cancel_along_every_dim():
    # On constant inputs only the pattern is left: +-B by halves of every dim, 0 in the middle of an odd one.
    x = torch.full((6, 10, 7), 0.25).to(torch.bfloat16)
    xb = accumulation.build_one(x, "cancelling", torch.Generator().manual_seed(3)).double()
    big = float(xb.abs().max())
    assert 16 <= big < 64 and set(xb.abs().unique().tolist()) == {0.0, big}
    for dim in range(3):
        assert float(xb.sum(dim).abs().max()) == 0.0
    assert float(xb[:, :, 3].abs().max()) == 0.0 and float(xb[:, :, :3].abs().min()) == big


def test_non_negative_twin_where_the_reference_needs_positive_inputs():
    class LogSum(torch.nn.Module):
        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.log(x).sum(-1)

    x = (torch.rand(8, 512) + 0.5).to(torch.bfloat16)
    what, _xb, expected = built(LogSum(), x, 0)
    assert "non-negative" in what and bool(torch.isfinite(expected).all())
