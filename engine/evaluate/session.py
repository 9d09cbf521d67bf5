"""What runs inside an evaluation worker: load the task, verify and time one candidate at a time.

Only `worker.py` starts this, in a child process. Nothing here is safe to run in a server or CLI process:
it imports and calls untrusted candidate code.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import torch

from engine.evaluate import timing, verify
from engine.evaluate.native import NativeForward
from engine.evaluate.outcome import Precision, Status, Timing
from engine.evaluate.requests import EvalReply, EvalRequest, Rejected
from engine.evaluate.tamper import TamperGuard, restore_precision

_perf_counter = time.perf_counter


def import_file(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class Session:
    """One task on one device, living in a worker process."""

    def __init__(self, task_path: str, device: str, precision: str):
        self.device = torch.device(device)
        self.precision = Precision(precision)
        if self.device.type == "cuda":
            torch.cuda.set_device(self.device)
        # The fp32 policy is strict for the reference too: cuDNN convolutions default to TF32 otherwise.
        tf32 = self.precision is Precision.TF32
        torch.backends.cuda.matmul.allow_tf32 = tf32
        torch.backends.cudnn.allow_tf32 = tf32
        torch.set_float32_matmul_precision("high" if tf32 else "highest")
        self.tol = self.precision.tolerance
        sys.path.insert(0, str(Path(task_path).parent))
        self.task = import_file(Path(task_path), "hiera_task_module")
        self.guard = TamperGuard()
        self.flusher = timing.CacheFlusher(self.device)
        self._references: dict[int, torch.nn.Module] = {}
        self._inputs: dict[int, list[Any]] = {}

    def device_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"device": str(self.device), "torch": torch.__version__}
        if self.device.type == "cuda":
            p = torch.cuda.get_device_properties(self.device)
            info.update(name=p.name, capability=f"{p.major}{p.minor}", sms=p.multi_processor_count,
                        l2_bytes=getattr(p, "L2_cache_size", None), memory_bytes=p.total_memory)
        else:
            import platform
            info.update(name=platform.processor() or platform.machine(), capability=None,
                        threads=torch.get_num_threads())
        return info

    # --- models -----------------------------------------------------------------------------------

    # Every candidate of a task is checked on the same seeds, so the reference models and the input sets
    # are built once per worker and reused (building them on the host took most of a candidate's
    # evaluation time on GPU-sized tasks). Nobody receives the cached tensors themselves: each call gets
    # clones, and candidates get copies of the weights.
    _CACHE_LIMIT = 16

    def _cached(self, cache: dict[int, Any], seed: int, build: Callable[[], Any]) -> Any:
        if seed not in cache:
            if len(cache) >= self._CACHE_LIMIT:
                cache.pop(next(iter(cache)))
            cache[seed] = build()
        return cache[seed]

    def make_reference(self, seed: int) -> torch.nn.Module:
        def build() -> torch.nn.Module:
            torch.manual_seed(seed)
            return self.task.Model(*self.task.get_init_inputs()).to(self.device).eval()

        return self._cached(self._references, seed, build)

    def make_inputs(self, seed: int) -> list[Any]:
        def build() -> list[Any]:
            torch.manual_seed(seed)
            return [x.to(self.device) if isinstance(x, torch.Tensor) else x for x in self.task.get_inputs()]

        return self._cached(self._inputs, seed, build)

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

    # --- one checked call ---------------------------------------------------------------------------

    def checked_call(self, fn: Callable[..., Any], inputs: list[Any], owned: dict[str, torch.Tensor],
                     expected: list[torch.Tensor] | None) -> list[torch.Tensor]:
        """Call the candidate once and apply every per-call check; raises Rejected."""
        tensors = {f"input {i}": x for i, x in enumerate(inputs) if isinstance(x, torch.Tensor)}
        tensors.update({f"parameter {k}": v for k, v in owned.items()})
        before = {k: v.clone() for k, v in tensors.items()}
        threads_before = set(threading.enumerate())
        timing.sync(self.device)
        with torch.no_grad():
            out = fn(*inputs)
        # Snapshot on the caller's stream *before* any device-wide sync: if the candidate's work is on
        # another stream or thread and not yet done, the snapshot differs from the settled output.
        outs = verify.as_outputs(out)
        f = verify.check_output_objects(outs, expected)
        if f:
            raise Rejected(f.status, f.reason)
        snapshot = [o.clone() for o in outs]  # type: ignore[union-attr]
        if self.device.type == "cuda":
            torch.cuda.current_stream(self.device).synchronize()
        # New threads still alive after return may be a library's idle pool (torch.compile starts one) or
        # deferred work: give them a moment, then any change to the output since return is the tell.
        lingering = [t for t in threading.enumerate() if t not in threads_before and t.is_alive()]
        time.sleep(0.2 if lingering else 0.0)
        timing.sync(self.device)
        for i, (s, o) in enumerate(zip(snapshot, outs)):
            if not verify._equal(verify._bytes(s), verify._bytes(o)):  # type: ignore[arg-type]
                where = f"{len(lingering)} background thread(s) it started" if lingering else \
                    "work on an unsynchronized stream"
                raise Rejected(Status.SUSPECT, f"output {i} was still being written after forward returned "
                                               f"({where})")
        f = verify.check_aliasing(outs, tensors) or verify.check_unchanged(before, tensors)  # type: ignore[arg-type]
        if f:
            raise Rejected(f.status, f.reason)
        changed = self.guard.changes()
        if changed:
            raise Rejected(Status.SUSPECT, "the candidate tampered with the evaluator: " + "; ".join(changed))
        return outs  # type: ignore[return-value]

    # --- correctness --------------------------------------------------------------------------------

    def verify(self, make: Callable[..., Callable[..., Any]], trials: int, seed: int) -> None:
        for t in range(trials):
            s = seed + 101 * t
            ref = self.make_reference(s)
            cand = make(ref, s)
            inputs = self.make_inputs(s + 7)
            ref_inputs = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
            cand_inputs = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
            # Alternate the order: candidate-first catches outputs read from the reference's freed memory;
            # reference-first (with the reference output kept alive) catches state left behind.
            with torch.no_grad():
                if t % 2 == 1:
                    cand_out = self.checked_call(cand, cand_inputs, cand.owned, None)  # type: ignore[attr-defined]
                    ref_out = verify.as_outputs(ref(*ref_inputs))
                else:
                    ref_out = verify.as_outputs(ref(*ref_inputs))
                    cand_out = self.checked_call(cand, cand_inputs, cand.owned, ref_out)  # type: ignore[attr-defined,arg-type]
            timing.sync(self.device)
            f = verify.check_output_objects(cand_out, ref_out)  # type: ignore[arg-type]
            if f:
                raise Rejected(f.status, f"trial {t + 1}: {f.reason}")
            for i, (o, r) in enumerate(zip(cand_out, ref_out)):
                label = f"out{i}" if len(ref_out) > 1 else "out"
                f = verify.compare(o, r, self.tol, label)  # type: ignore[arg-type]
                if f:
                    raise Rejected(f.status, f"trial {t + 1} (seed {s}): {f.reason}", f.error)

    # --- timing -------------------------------------------------------------------------------------

    def time_pair(self, make: Callable[..., Callable[..., Any]], trials: int, seed: int
                  ) -> tuple[Timing, Timing, list[str]]:
        """Reference and candidate timed interleaved, on rotating input contents, outputs sampled."""
        ref = self.make_reference(seed)
        cand = make(ref, seed)
        pool = [self.make_inputs(seed + 1000 + i) for i in range(4)]
        ref_bufs = [x.clone() if isinstance(x, torch.Tensor) else x for x in pool[0]]
        cand_bufs = [x.clone() if isinstance(x, torch.Tensor) else x for x in pool[0]]

        def run_ref() -> Any:
            with torch.no_grad():
                return ref(*ref_bufs)

        def run_cand() -> Any:
            with torch.no_grad():
                return cand(*cand_bufs)

        timing.warm_up(run_ref, self.device)
        timing.warm_up(run_cand, self.device)
        ref_ms: list[float] = []
        cand_ms: list[float] = []
        method = timing.METHOD_CUDA if self.device.type == "cuda" else timing.METHOD_CPU
        for i in range(trials):
            src = pool[i % len(pool)]
            for bufs in (ref_bufs, cand_bufs):
                for b, s in zip(bufs, src):
                    if isinstance(b, torch.Tensor):
                        b.copy_(s)
            results: dict[str, Any] = {}
            order = (("ref", run_ref), ("cand", run_cand)) if i % 2 == 0 else (("cand", run_cand), ("ref", run_ref))
            for name, fn in order:
                ms, out = timing.time_call(fn, self.device, before=self.flusher.flush)
                (ref_ms if name == "ref" else cand_ms).append(ms)
                results[name] = out
            # A sample of timed calls is checked too: a cache keyed on input buffers returns stale
            # results once the contents rotate.
            if i % 20 == 19 or i == 1:
                for j, (o, r) in enumerate(zip(verify.as_outputs(results["cand"]), verify.as_outputs(results["ref"]))):
                    f = verify.compare(o, r, self.tol, f"out{j}")  # type: ignore[arg-type]
                    if f:
                        raise Rejected(Status.SUSPECT, f"timed call {i + 1} disagrees with the reference on the "
                                                       f"same inputs (cached or stale output?): {f.reason}", f.error)
        changed = self.guard.changes()
        if changed:
            raise Rejected(Status.SUSPECT, "the candidate tampered with the evaluator: " + "; ".join(changed))
        return (Timing.from_samples(ref_ms, method), Timing.from_samples(cand_ms, method),
                list(self.flusher.notes))

    # --- the whole request ---------------------------------------------------------------------------

    def evaluate(self, req: EvalRequest) -> EvalReply:
        reply = EvalReply(req.candidate_id, Status.VALID, "")
        t0 = _perf_counter()
        try:
            make = self.candidate_factory(req)
            changed = self.guard.changes()
            if changed:
                raise Rejected(Status.SUSPECT, "loading the candidate tampered with the evaluator: "
                               + "; ".join(changed))
            reply.load_s = _perf_counter() - t0
            t1 = _perf_counter()
            self.verify(make, req.correctness_trials, req.seed)
            reply.verify_s = _perf_counter() - t1
            if not req.timing:
                reply.reason = f"correct on {req.correctness_trials} trials (not timed)"
                return reply
            t2 = _perf_counter()
            ref_t, cand_t, notes = self.time_pair(make, req.timing_trials, req.seed + 50_000)
            reply.time_s = _perf_counter() - t2
            reply.reference, reply.candidate = ref_t, cand_t
            reply.flags += notes
            speedup = ref_t.median_ms / cand_t.median_ms if cand_t.median_ms > 0 else float("inf")
            if speedup > req.excessive_speedup:
                # Implausible: verify again on inputs and weights never seen before.
                self.verify(make, req.correctness_trials, req.seed + 900_000)
                reply.flags.append(f"excessive_speedup: {speedup:.1f}x survived re-verification on new inputs")
            reply.reason = (f"correct on {req.correctness_trials} trials; {speedup:.2f}x over the reference "
                            f"({ref_t.median_ms:.4g} ms -> {cand_t.median_ms:.4g} ms, median of {cand_t.trials})")
            return reply
        except Rejected as r:
            reply.status, reply.reason, reply.error = r.status, r.reason, r.error
        except torch.cuda.OutOfMemoryError as e:
            reply.status, reply.reason = Status.RUNTIME_ERROR, f"out of GPU memory: {str(e)[:300]}"
            reply.fatal = True
        except Exception as e:
            reply.status, reply.reason = Status.RUNTIME_ERROR, f"{type(e).__name__}: {str(e)[:1500]}"
            reply.fatal = self.device.type == "cuda" and not self._device_healthy()
        finally:
            restore_precision(self.guard.flags)
            reply.verify_s = reply.verify_s or (_perf_counter() - t0)
        return reply

    def _device_healthy(self) -> bool:
        try:
            torch.cuda.synchronize(self.device)
            torch.ones(1, device=self.device).add_(1).item()
            return True
        except Exception:
            return False
