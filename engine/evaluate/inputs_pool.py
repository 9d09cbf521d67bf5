"""The task's own objects in the checker, made under secret seeds and cached for all of a checker's candidates:
reference modules, input sets (within a memory budget), the timing pool of input sets, and how each timed
call's inputs are perturbed (perturb.py). Trusted: only the task's module runs here, never a candidate."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch

from engine.evaluate import device_memory
from engine.evaluate.perturb import Perturber


class TaskInputs:
    """References and inputs of one task on one device, by seed."""

    def __init__(self, task: Any, device: torch.device):
        self.task = task
        self.device = device
        self._references: dict[int, torch.nn.Module] = {}
        self._inputs: dict[int, list[Any]] = {}
        self._input_bytes: dict[int, int] = {}
        self._perturbers: dict[int, Perturber] = {}
        self._pool: tuple[int, list[list[Any]]] | None = None  # the timing pool, by its first set's seed
        # KernelBench's sets reach 6-9 GB, and besides the cache the checker holds the timing pool, the shared
        # buffers (inputs and outputs), the expected outputs, and the runner needs room of its own on the device.
        self._cache_budget = device_memory.cache_budget(device)

    def reference(self, seed: int) -> torch.nn.Module:
        """Model(*get_init_inputs()) under `seed`, on the device, in eval mode; the last 16 kept."""
        if seed not in self._references:
            if len(self._references) >= 16:
                self._references.pop(next(iter(self._references)))
            torch.manual_seed(seed)
            self._references[seed] = self.task.Model(*self.task.get_init_inputs()).to(self.device).eval()
        return self._references[seed]

    def inputs(self, seed: int) -> list[Any]:
        """get_inputs() under `seed`, made on the device (no GB-sized host copies); cached within a budget."""
        if seed in self._inputs:
            return self._inputs[seed]
        xs = self._make(seed)
        size = _bytes(xs)
        while self._inputs and sum(self._input_bytes.values()) + size > self._cache_budget:
            oldest = next(iter(self._inputs))
            self._inputs.pop(oldest)
            self._input_bytes.pop(oldest)
        self._inputs[seed], self._input_bytes[seed] = xs, size
        return xs

    def _make(self, seed: int) -> list[Any]:
        torch.manual_seed(seed)
        with torch.device(self.device):
            made = self.task.get_inputs()
        return [x.to(self.device) if isinstance(x, torch.Tensor) else x for x in made]

    def timing_pool(self, seed: Callable[[int], int]) -> list[list[Any]]:
        """As many input sets as fit (device_memory.pool_sets: 1 to 8, 4 on the CPU, within a fifth of free
        memory), set i under seed(i) (a secret seed): a cache keyed on buffer addresses sees contents change under
        it; each timed call perturbs one of them anyway (perturb.py). Kept, one pool at a time: the timing,
        the reference's timer and the bursts share the same sets (made again from the cache, a set it had
        evicted would be a second copy of several GiB); not in the trials' cache, whose budget is its own."""
        key = seed(0)
        if self._pool is None or self._pool[0] != key:
            self._pool = None  # the last request's pool goes before this one is made
            first = self._make(key)
            n = device_memory.pool_sets(device_memory.free_bytes(self.device), _bytes(first),
                                        device_memory.POOL_MOST.get(self.device.type, 4))
            self._pool = (key, [first] + [self._make(seed(i)) for i in range(1, n)])
        return self._pool[1]

    def perturber(self, key: int, ref: torch.nn.Module, pool: Sequence[Sequence[Any]],
                  reference_outputs: Callable[[torch.nn.Module, list[Any]], list[torch.Tensor]]) -> Perturber:
        """How this task's timed inputs are perturbed: decided once per checker and pool (`key`: it runs the
        reference once or twice on a perturbed set to see that integer changes keep it working)."""
        if key not in self._perturbers:
            def works(inputs: list[Any]) -> bool:
                try:
                    outs = reference_outputs(ref, inputs)
                except Exception:
                    return False
                return all(bool(torch.isfinite(o).all()) for o in outs if o.is_floating_point())

            self._perturbers[key] = Perturber(pool[0], self.device, works)
        return self._perturbers[key]


def _bytes(xs: Sequence[Any]) -> int:
    return sum(x.numel() * x.element_size() for x in xs if isinstance(x, torch.Tensor))
