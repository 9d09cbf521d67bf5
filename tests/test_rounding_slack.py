"""The off-distribution trials' rounding slack (engine/evaluate/rounding.py): honest fp32 code that only sums in
another order passes where the reference is ill-conditioned; code computed at lower precision still fails."""

from __future__ import annotations

import torch
from torch import nn

from engine.evaluate import verify
from engine.evaluate.rounding import SLACK_CAP, reference_slack

TOL = 1e-4


class SigmoidBmm(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(torch.matmul(a.transpose(1, 2), b) * 0.5)


def _run(module: nn.Module, inputs: list) -> list[torch.Tensor]:
    with torch.no_grad():
        out = module(*inputs)
    return [out]


def _scaled_inputs(seed: int) -> list[torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(3, 37, 20, generator=g) * 100, torch.randn(3, 37, 28, generator=g) * 100]


def _reordered(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The same fp32 arithmetic, summed over K in the opposite order: what an honest kernel may do."""
    return SigmoidBmm()(a.flip(1), b.flip(1))


def test_control_without_the_slack_an_honest_reordering_fails_some_scaled_trials() -> None:
    fails = 0
    for seed in range(60):
        a, b = _scaled_inputs(seed)
        fails += verify.compare(_reordered(a, b), SigmoidBmm()(a, b), TOL, "out", capped=False) is not None
    assert fails >= 1, fails  # measured: 16 of 200


def test_with_the_slack_the_honest_reordering_passes_every_scaled_trial() -> None:
    for seed in range(60):
        a, b = _scaled_inputs(seed)
        ref = SigmoidBmm()
        (expected,) = _run(ref, [a, b])
        (slack,) = reference_slack(ref, [a, b], [expected], [TOL], seed, _run)
        assert slack is not None
        f = verify.compare(_reordered(a, b), expected, TOL, "out", capped=False, slack=slack)
        assert f is None, (seed, f.reason)


def test_lower_precision_arithmetic_is_caught_wherever_the_plain_rule_catches_it() -> None:
    # bf16 products: on inputs scaled by 100 most of a sigmoid's outputs saturate and hide them, so the scaled
    # trial alone catches bf16 on most seeds, not all (the trials on the task's own inputs catch the rest);
    # the slack must not lose any seed the plain rule catches.
    plain = slacked = 0
    for seed in range(30):
        a, b = _scaled_inputs(seed)
        ref = SigmoidBmm()
        (expected,) = _run(ref, [a, b])
        (slack,) = reference_slack(ref, [a, b], [expected], [TOL], seed, _run)
        cheat = SigmoidBmm()(a.bfloat16(), b.bfloat16()).float()
        p = verify.compare(cheat, expected, TOL, "out", capped=False) is not None
        s = verify.compare(cheat, expected, TOL, "out", capped=False, slack=slack) is not None
        assert s or not p, seed
        plain, slacked = plain + p, slacked + s
    assert plain >= 15 and slacked == plain, (plain, slacked)


def test_a_well_conditioned_output_gets_almost_no_slack_and_the_slack_is_capped() -> None:
    x = torch.randn(64, 64) * 100
    ref = nn.ReLU()
    (expected,) = _run(ref, [x])
    (slack,) = reference_slack(ref, [x], [expected], [TOL], 0, _run)
    scale = float(expected.double().square().mean().sqrt())
    assert slack is not None and float(slack.max()) < 0.1 * TOL * scale  # a few ulps: under a tenth of atol
    a, b = _scaled_inputs(1)
    m = SigmoidBmm()
    (e,) = _run(m, [a, b])
    (s,) = reference_slack(m, [a, b], [e], [TOL], 1, _run)
    assert s is not None and float(s.max()) <= SLACK_CAP * TOL * float(e.double().square().mean().sqrt()) * 1.0001


def test_no_slack_for_half_precision_or_a_reference_that_cannot_run_in_float64() -> None:
    x = torch.randn(8, 8)
    assert reference_slack(nn.ReLU(), [x.half()], [x.half()], [1e-2], 0, _run) == [None]

    class NoDouble(nn.Module):
        def forward(self, y: torch.Tensor) -> torch.Tensor:
            if y.dtype == torch.float64:
                raise RuntimeError("not implemented for 'Double'")
            return y * 2

    assert reference_slack(NoDouble(), [x], [x * 2], [TOL], 0, _run) == [None]


def test_the_failure_message_names_the_slack() -> None:
    a, b = _scaled_inputs(3)
    ref = SigmoidBmm()
    (expected,) = _run(ref, [a, b])
    (slack,) = reference_slack(ref, [a, b], [expected], [TOL], 3, _run)
    f = verify.compare(expected + 0.5, expected, TOL, "out", capped=False, slack=slack)
    assert f is not None and "rounding moves the reference" in f.reason, f
