"""A task and one candidate loaded into one process: the program Nsight Compute profiles (engine/profile/target.py).

Evaluation never does this (the checker and each candidate's runner are separate processes, checker.py and
runner.py); profiling needs the candidate's kernels in a process of their own under ncu, with the same
reference weights and inputs. That process runs in the candidates' sandbox (engine/profile/__init__.py), so
nothing here is safe to run in a server or CLI process: it imports and calls untrusted candidate code.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from engine.evaluate.native import NativeForward
from engine.evaluate.outcome import Precision, Status
from engine.evaluate.requests import EvalRequest, Rejected
from engine.evaluate.task_module import import_file, set_precision

_perf_counter = time.perf_counter


class Session:
    """One task on one device and the candidate factory, in the profiled process."""

    def __init__(self, task_path: str, device: str, precision: str):
        self.device = torch.device(device)
        self.precision = Precision(precision)
        if self.device.type == "cuda":
            torch.cuda.set_device(self.device)
        set_precision(self.precision)
        sys.path.insert(0, str(Path(task_path).parent))
        self.task = import_file(Path(task_path), "hiera_task_module")

    def make_reference(self, seed: int) -> torch.nn.Module:
        torch.manual_seed(seed)
        return self.task.Model(*self.task.get_init_inputs()).to(self.device).eval()

    def make_inputs(self, seed: int) -> list[Any]:
        """get_inputs() under `seed`, made on the device as the checker makes them (checker.py)."""
        torch.manual_seed(seed)
        with torch.device(self.device):
            made = self.task.get_inputs()
        return [x.to(self.device) if isinstance(x, torch.Tensor) else x for x in made]

    def candidate_factory(self, req: EvalRequest) -> Callable[[torch.nn.Module, int], Callable[..., Any]]:
        """Returns make(reference, seed) -> callable(*inputs), a candidate with the reference's weights."""
        if req.kind in ("cuda", "cpp"):
            assert req.contract is not None
            native = NativeForward(req.artifact, req.contract)
            scalar_names = req.contract["scalars"]

            def make_native(ref: torch.nn.Module, seed: int) -> Callable[..., Any]:
                # The candidate gets its own copy of the weights: it cannot corrupt the reference's.
                state = {k: v.detach().clone() for k, v in ref.state_dict().items()}
                scalars = {k: getattr(ref, k) for k in scalar_names}
                fn = lambda *inputs: native(inputs, state, scalars)  # noqa: E731
                fn.owned = state  # type: ignore[attr-defined]
                return fn

            return make_native

        module = import_file(Path(req.artifact), f"hiera_candidate_{req.candidate_id}")
        if not hasattr(module, "ModelNew"):
            raise Rejected(Status.RUNTIME_ERROR, f"{req.artifact} defines no class ModelNew")

        def make_modelnew(ref: torch.nn.Module, seed: int) -> Callable[..., Any]:
            torch.manual_seed(seed)
            model = module.ModelNew(*self.task.get_init_inputs())
            ref_state = ref.state_dict()
            if set(model.state_dict()) == set(ref_state):
                model.load_state_dict(ref_state)
            model = model.to(self.device).eval()
            fn = lambda *inputs: model(*inputs)  # noqa: E731
            fn.owned = dict(model.state_dict())  # type: ignore[attr-defined]
            return fn

        return make_modelnew
