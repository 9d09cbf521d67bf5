"""When the timed calls stop: once the median is known to half a percent, not before, not never."""

from __future__ import annotations

import random

from engine.evaluate.timing import median_settled


def test_steady_calls_stop_at_the_minimum() -> None:
    rng = random.Random(1)
    steady = [1.0 + rng.uniform(-0.003, 0.003) for _ in range(20)]
    assert not median_settled(steady[:19], min_trials=20)
    assert median_settled(steady, min_trials=20)


def test_scattered_calls_keep_going() -> None:
    rng = random.Random(2)
    scattered = [1.0 + rng.uniform(-0.05, 0.05) for _ in range(100)]
    assert not median_settled(scattered[:20], min_trials=20)
    assert not median_settled(scattered, min_trials=20)  # the cap ends these, not the rule


def test_one_slow_outlier_does_not_hold_the_stop() -> None:
    calls = [1.0] * 19 + [40.0]  # a preemption: the IQR ignores it, a standard deviation would not
    assert median_settled(calls, min_trials=20)


def test_a_slow_call_needs_fewer_calls_before_its_median_counts() -> None:
    from engine.evaluate.timing_policy import MIN_SLOW_TRIALS, MIN_TRIALS, floor_for

    assert floor_for(0.05) == MIN_TRIALS  # a 50 us kernel: the full minimum
    assert floor_for(233.0) == MIN_SLOW_TRIALS  # a 233 ms convolution: 5 calls, if they agree
    assert MIN_SLOW_TRIALS < floor_for(40.0) < MIN_TRIALS  # 600 ms / 40 ms = 15
