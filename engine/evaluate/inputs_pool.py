"""The task's own objects in the checker, made under secret seeds and cached for all of a checker's candidates:
reference modules, input sets (within a memory budget), the timing pool of input sets, and how each timed
call's inputs are perturbed (perturb.py). Trusted: only the task's module runs here, never a candidate."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch

from engine.evaluate.perturb import Perturber


class TaskInputs:
    """References and inputs of one task on one device, by seed."""

    # Share of device memory the cached input sets may hold. KernelBench's sets reach 6-9 GB, and besides
    # the cache the checker holds the timing pool, the shared buffers (inputs and outputs), the expected
    # outputs, and the runner needs room of its own on the same device.
    _CACHE_BYTES = 0.1

    def __init__(self, task: Any, device: torch.device):
        self.task = task
        self.device = device
        self._references: dict[int, torch.nn.Module] = {}
        self._inputs: dict[int, list[Any]] = {}
        self._input_bytes: dict[int, int] = {}
        self._perturbers: dict[int, Perturber] = {}
        if self.device.type == "cuda":
            self._cache_budget = int(torch.cuda.get_device_properties(self.device).total_memory * self._CACHE_BYTES)
        else:
            self._cache_budget = 4 << 30

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
        torch.manual_seed(seed)
        with torch.device(self.device):
            made = self.task.get_inputs()
        xs = [x.to(self.device) if isinstance(x, torch.Tensor) else x for x in made]
        size = sum(x.numel() * x.element_size() for x in xs if isinstance(x, torch.Tensor))
        while self._inputs and sum(self._input_bytes.values()) + size > self._cache_budget:
            oldest = next(iter(self._inputs))
            self._inputs.pop(oldest)
            self._input_bytes.pop(oldest)
        self._inputs[seed], self._input_bytes[seed] = xs, size
        return xs

    def timing_pool(self, seed: Callable[[int], int]) -> list[list[Any]]:
        """As many input sets as fit (2 to 8, within a fifth of free device memory), set i under seed(i) (a
        secret seed): a cache keyed on buffer addresses sees contents change under it; each timed call perturbs
        one of them anyway (perturb.py)."""
        first = self.inputs(seed(0))
        size = max(sum(x.numel() * x.element_size() for x in first if isinstance(x, torch.Tensor)), 1)
        if self.device.type == "cuda":
            free, _ = torch.cuda.mem_get_info(self.device)
            n = int(min(8, max(2, free * 0.2 // size)))
        else:
            n = 4
        return [first] + [self.inputs(seed(i)) for i in range(1, n)]

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
