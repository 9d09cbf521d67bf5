"""How many copies of a task's input sets the checker keeps is sized to the memory that is free (device_memory),
never fixed: a 7 GiB set on an 80 GB card ran the checker out of memory when it kept eight copies of it."""

from __future__ import annotations

import types
from typing import Any

import pytest
import torch

from engine.evaluate import device_memory
from engine.evaluate.inputs_pool import TaskInputs

GiB = 1 << 30


def test_the_pool_holds_as_many_sets_as_a_fifth_of_free_memory_one_at_least() -> None:
    assert device_memory.pool_sets(80 * GiB, 1 << 20, 8) == 8  # small sets: the most
    assert device_memory.pool_sets(80 * GiB, 7 * GiB, 8) == 2  # 16 GiB of room: two 7 GiB sets
    assert device_memory.pool_sets(40 * GiB, 7 * GiB, 8) == 1  # 8 GiB of room: one, never none
    assert device_memory.pool_sets(1 * GiB, 7 * GiB, 8) == 1
    assert device_memory.pool_sets(80 * GiB, 1 << 20, 4) == 4


def _task(calls: list[int]) -> Any:
    """A task whose get_inputs() counts its calls: each call is one more set made."""
    def get_inputs() -> list[Any]:
        calls.append(1)
        return [torch.randn(64, 64), 3]

    return types.SimpleNamespace(get_inputs=get_inputs)


def test_the_pool_is_made_once_and_shared_and_sized_to_free_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    set_bytes = 64 * 64 * 4
    monkeypatch.setattr(device_memory, "free_bytes", lambda device: int(2.5 * set_bytes / device_memory.POOL_SHARE))
    calls: list[int] = []
    objects = TaskInputs(_task(calls), torch.device("cpu"))
    pool = objects.timing_pool(lambda i: 100 + i)
    assert len(pool) == 2 and len(calls) == 2
    # The timing, the reference's timer and the bursts ask for it in turn: the same sets, none made again.
    again = objects.timing_pool(lambda i: 100 + i)
    assert again is pool and all(a[0] is b[0] for a, b in zip(again, pool)) and len(calls) == 2
    # Not in the trials' cache: asking for a trial's set under the pool's first seed makes its own.
    objects.inputs(100)
    assert len(calls) == 3
    # Another request's pool replaces it; with less free memory it is one set.
    monkeypatch.setattr(device_memory, "free_bytes", lambda device: set_bytes)
    assert len(objects.timing_pool(lambda i: 200 + i)) == 1


def test_the_trials_cache_keeps_its_budget_and_always_the_latest_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(device_memory, "cache_budget", lambda device: 3 * 64 * 64 * 4)
    calls: list[int] = []
    objects = TaskInputs(_task(calls), torch.device("cpu"))
    first = objects.inputs(1)
    for s in range(2, 6):
        objects.inputs(s)
    assert len(calls) == 5
    assert objects.inputs(5) is objects.inputs(5) and len(calls) == 5  # the latest is cached
    assert objects.inputs(1) is not first and len(calls) == 6  # the oldest was let go, made again
    monkeypatch.setattr(device_memory, "cache_budget", lambda device: 1)  # smaller than any set
    small = TaskInputs(_task(calls), torch.device("cpu"))
    assert small.inputs(7) is small.inputs(7)  # the latest set is kept whatever its size


def test_the_cpu_cache_budget_is_a_share_of_the_host_at_most_4_gib() -> None:
    budget = device_memory.cache_budget(torch.device("cpu"))
    assert 0 < budget <= device_memory.CPU_CACHE_MOST
    assert budget <= device_memory.total_bytes(torch.device("cpu")) * device_memory.CACHE_SHARE + 1
