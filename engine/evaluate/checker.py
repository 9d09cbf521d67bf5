"""The trusted side of an evaluation: makes inputs, runs and times the reference, judges what a runner returns.

It lives in the evaluation worker process and never loads candidate code: each candidate runs in a fresh
sandboxed runner (candidate_process.py, runner.py) that it feeds through shared buffers (exchange.py).

Per candidate:
1. start the runner and measure the round trip to it before the candidate is loaded (trusted: only hiera's
   code is in it then); load the candidate;
2. verify: trials on fresh seeded inputs and weights, then on the same inputs scaled, negated and shifted
   (where the reference stays finite), each compared with the reference computed here; inputs and weights
   checked bitwise after every call; outputs poisoned with NaN before it;
3. time the candidate: every timed call gets input contents it has never seen (a rotating pool, each set
   rescaled by a secret random factor), and a secret random quarter of the calls have their outputs checked,
   so a candidate that skips work or replays a cached result when timed is caught; the runner reports each
   call's device time, and the checker's own clock around the same calls bounds it (a patched timer or an
   early reply shows as a gap the round trip cannot explain);
4. end the runner (and every process it started); read which libraries it had mapped;
5. time the reference here, with no runner alive, the same way.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import torch

from engine.evaluate import timing, verify, wire
from engine.evaluate.candidate_process import LIBRARY_MARKERS, TORCH_MARKERS, CandidateProcess, RunnerFailed, RunnerSpec
from engine.evaluate.exchange import Exchange, Spec
from engine.evaluate.outcome import Precision, Status, Timing
from engine.evaluate.requests import EvalReply, EvalRequest, Rejected
from engine.evaluate.session import import_file, set_precision

_perf_counter = time.perf_counter

def _wide(x: torch.Tensor) -> torch.Tensor:
    """x in the precision its statistics are taken in: float32, or float64 for a float64 tensor (its shift
    is then exact to fp64, not an fp32-rounded value)."""
    return x if x.dtype == torch.float64 else x.float()


# Off-distribution trials: what is done to every floating-point input. A candidate that is right only for
# get_inputs()'s own distribution (inputs in [0, 1), say) fails one of these; a transform under which the
# reference itself leaves its domain (NaN or Inf) is skipped.
TRANSFORMS: tuple[tuple[str, Callable[[torch.Tensor], torch.Tensor]], ...] = (
    # Large enough to overflow exp() where a softmax forgets to subtract its maximum.
    ("scaled by 100", lambda x: x * 100),
    ("negated", lambda x: -x),
    ("shifted by its standard deviation", lambda x: x + (_wide(x).std() if x.numel() > 1 else 1.0).to(x.dtype)),
    # Centred: inputs of one sign (torch.rand) turned into inputs of both, the case that exposes a product or
    # a sum carried at lower precision (TF32's error cancels out on same-sign data).
    ("centred (mean subtracted)", lambda x: x - _wide(x).mean().to(x.dtype)),
)

SAMPLE_RATE = 0.25  # the share of timed calls whose outputs are checked
CALIBRATION_CALLS = 10
FIRST_CALL_S = 30.0  # a first call, which may compile or search algorithms
# Processes and threads a runner may have (threads count: an emulated CUDA block in the tests runs 1024 of
# them, OpenMP one a core): room for honest code, a cap on a flood.
MAX_PROCESSES = 2048
TIMING_TARGET_MS = {"cuda": 600.0, "cpu": 1500.0}  # wall time to spend on each side's timed calls
MIN_TRIALS = 20
# The fewest timed calls on a GPU for a call so slow that MIN_TRIALS of them would pass the time target (a
# 233 ms fp64 convolution: 20 calls are 4.7 s a candidate); they still stop only once the median is settled.
MIN_SLOW_TRIALS = 5


class Checker:
    """One task on one device: the trusted state (task, references, inputs) and the judging of candidates."""

    # Share of device memory the cached input sets may hold. KernelBench's sets reach 6-9 GB, and besides
    # the cache the checker holds the timing pool, the shared buffers (inputs and outputs), the expected
    # outputs, and the runner needs room of its own on the same device.
    _CACHE_BYTES = 0.1

    def __init__(self, task_path: str, device: str, precision: str, workdir: str, sandboxed: bool = True):
        self.device = torch.device(device)
        self.precision = Precision(precision)
        if self.device.type == "cuda":
            torch.cuda.set_device(self.device)
        set_precision(self.precision)
        self.tol = self.precision.tolerance
        sys.path.insert(0, str(Path(task_path).parent))
        self.task = import_file(Path(task_path), "hiera_task_module")
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.sandboxed = sandboxed
        self.flusher = timing.CacheFlusher(self.device)
        self._references: dict[int, torch.nn.Module] = {}
        self._inputs: dict[int, list[Any]] = {}
        self._input_bytes: dict[int, int] = {}
        self._exchange: Exchange | None = None
        self._shapes: list[tuple[tuple[int, ...], torch.dtype]] | None = None
        self._ref_ms: float | None = None
        self._min_call_s = 0.0
        self._threads = torch.get_num_threads()
        self._rng = random.Random(int.from_bytes(os.urandom(8), "little"))  # secret: never seeded by a task
        if self.device.type == "cuda":
            self._cache_budget = int(torch.cuda.get_device_properties(self.device).total_memory * self._CACHE_BYTES)
        else:
            self._cache_budget = 4 << 30

    def device_info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"device": str(self.device), "torch": torch.__version__}
        if self.device.type == "cuda":
            p = torch.cuda.get_device_properties(self.device)
            info.update(name=p.name, capability=f"{p.major}{p.minor}", sms=p.multi_processor_count,
                        l2_bytes=getattr(p, "L2_cache_size", None), memory_bytes=p.total_memory,
                        max_threads_per_sm=getattr(p, "max_threads_per_multi_processor", None),
                        smem_per_block_optin=getattr(p, "shared_memory_per_block_optin", None))
        else:
            import platform

            info.update(name=platform.processor() or platform.machine(), capability=None,
                        threads=torch.get_num_threads())
        return info

    # --- the task's own objects (trusted) -------------------------------------------------------------

    def make_reference(self, seed: int) -> torch.nn.Module:
        if seed not in self._references:
            if len(self._references) >= 16:
                self._references.pop(next(iter(self._references)))
            torch.manual_seed(seed)
            self._references[seed] = self.task.Model(*self.task.get_init_inputs()).to(self.device).eval()
        return self._references[seed]

    def make_inputs(self, seed: int) -> list[Any]:
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

    def _reference_outputs(self, ref: torch.nn.Module, inputs: Sequence[Any]) -> list[torch.Tensor]:
        with torch.no_grad():
            out = ref(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
        outs = verify.as_outputs(out)
        for o in outs:
            if not isinstance(o, torch.Tensor):
                raise Rejected(Status.RUNTIME_ERROR, f"the reference returned a {type(o).__name__}, not tensors")
        return outs  # type: ignore[return-value]

    # --- shared buffers -------------------------------------------------------------------------------

    def _exchange_for(self, ref: torch.nn.Module, inputs: Sequence[Any], outs: Sequence[torch.Tensor]) -> Exchange:
        shapes = [(tuple(x.shape), x.dtype) for x in inputs if isinstance(x, torch.Tensor)]
        shapes += [(tuple(t.shape), t.dtype) for t in ref.state_dict().values()]
        shapes += [(tuple(o.shape), o.dtype) for o in outs]
        if self._exchange is not None and self._shapes == shapes:
            return self._exchange
        if self._exchange is not None:
            self._exchange.close()
        specs = [Spec(f"input {i}", "input", tuple(x.shape), x.dtype)
                 for i, x in enumerate(x for x in inputs if isinstance(x, torch.Tensor))]
        names = dict(self._state_roles(ref))
        specs += [Spec(f"{names[k]} {k}", "state", tuple(v.shape), v.dtype) for k, v in ref.state_dict().items()]
        specs += [Spec(f"output {i}", "output", tuple(o.shape), o.dtype) for i, o in enumerate(outs)]
        self._exchange, self._shapes = Exchange(specs, self.device), shapes
        return self._exchange

    @staticmethod
    def _state_roles(ref: torch.nn.Module) -> list[tuple[str, str]]:
        params = {n for n, _ in ref.named_parameters()}
        return [(k, "parameter" if k in params else "buffer") for k in ref.state_dict()]

    def _write(self, ex: Exchange, inputs: Sequence[Any], ref: torch.nn.Module) -> None:
        for buf, x in zip(ex.of_role("input"), [x for x in inputs if isinstance(x, torch.Tensor)]):
            buf.copy_(x)
        for buf, v in zip(ex.of_role("state"), ref.state_dict().values()):
            buf.copy_(v)
        ex.poison_outputs()
        timing.sync(self.device)

    def _check_unchanged(self, ex: Exchange, inputs: Sequence[Any], ref: torch.nn.Module, when: str) -> None:
        tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
        for i, (buf, x) in enumerate(zip(ex.of_role("input"), tensors)):
            if not torch.equal(verify._bytes(buf), verify._bytes(x)):
                raise Rejected(Status.SUSPECT, f"{when}: the candidate modified input {i} (inputs, parameters and "
                                               "buffers are read-only)")
        for (name, _), buf, v in zip(self._state_roles(ref), ex.of_role("state"), ref.state_dict().values()):
            if not torch.equal(verify._bytes(buf), verify._bytes(v)):
                raise Rejected(Status.SUSPECT, f"{when}: the candidate modified {name} (inputs, parameters and "
                                               "buffers are read-only)")

    def _compare(self, ex: Exchange, expected: Sequence[torch.Tensor], what: str, status: Status,
                 capped: bool = True) -> None:
        outs = ex.of_role("output")
        for i, (o, r) in enumerate(zip(outs, expected)):
            label = f"out{i}" if len(outs) > 1 else "out"
            # Each output by its own dtype: float64 outputs are judged with the fp64 tolerance, never fp32's.
            f = verify.compare(o, r, self.precision.tolerance_for(r.dtype), label, capped=capped)
            if f:
                raise Rejected(status if f.status is Status.INCORRECT else f.status, f"{what}: {f.reason}", f.error)

    # --- one candidate --------------------------------------------------------------------------------

    def _scalars(self, ref: torch.nn.Module, layout: dict[str, Any] | None, inputs: Sequence[Any]) -> dict[str, Any]:
        if layout is None:
            return {}
        values: dict[str, Any] = {k: getattr(ref, k) for k in layout["scalars"]}
        non_tensor = iter([x for x in inputs if not isinstance(x, torch.Tensor)])
        for a in layout["args"]:
            if a["role"] == "input" and not a["tensor"]:
                values[a["name"]] = next(non_tensor)
        return {k: (float(v) if isinstance(v, float) else int(v)) for k, v in values.items()}

    def _call_limit_s(self) -> float:
        """How long one call may take: a candidate fifty times slower than the reference (or a hang) is a
        timeout within about a second, not minutes."""
        ref_ms = self._ref_ms if self._ref_ms is not None else 1000.0
        return max(0.75 + 50.0 * ref_ms / 1e3, self._min_call_s)

    def _first_call_limit_s(self, req: EvalRequest) -> float:
        """A first call does one-time work: a contract candidate creates its library handles and may search
        cuDNN's algorithms, a ModelNew may compile (torch.compile, a lazy load_inline). It gets FIRST_CALL_S
        more; hiera's own torch.compile candidates (or any, under an explicit --timeout) the load limit."""
        if req.kind == "modelnew" and (req.shared_compile_cache or req.timeout_s is not None):
            return req.load_timeout_s
        return FIRST_CALL_S + self._call_limit_s()

    def _estimate_reference(self, ref: torch.nn.Module, inputs: Sequence[Any]) -> None:
        if self._ref_ms is not None:
            return
        args = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
        # The fastest of a few calls: on a loaded machine a median can read many times the reference's real
        # time, and every call limit is derived from this.
        with torch.no_grad():
            timing.warm_up(lambda: ref(*args), self.device, min_calls=2, min_ms=10.0)
            self._ref_ms = min(timing.time_call(lambda: ref(*args), self.device)[0] for _ in range(5))

    def evaluate(self, req: EvalRequest) -> EvalReply:
        reply = EvalReply(req.candidate_id, Status.VALID, "")
        self._min_call_s = req.min_call_limit_s
        t_start = _perf_counter()
        deadline = t_start + (req.timeout_s or 600.0)
        proc: CandidateProcess | None = None
        try:
            ref0 = self.make_reference(req.seed)
            in0 = self.make_inputs(req.seed + 7)
            out0 = self._reference_outputs(ref0, in0)
            self._estimate_reference(ref0, in0)
            ex = self._exchange_for(ref0, in0, out0)
            # On the CPU the checker's own worker threads would spin (OpenMP's wait policy) on the cores the
            # candidate is timed on: while a runner is alive the checker works on one thread.
            self._quiet(True)
            del out0
            self._release()
            proc = self._start_runner(req, ex, ref0, deadline)
            reply.load_s = _perf_counter() - t_start
            t1 = _perf_counter()
            self._verify(proc, ex, req, deadline)
            reply.verify_s = _perf_counter() - t1
            if not req.timing:
                self._check_libraries(proc, req)
                reply.reason = f"correct on {req.correctness_trials} trials (not timed)"
                return reply
            t2 = _perf_counter()
            time_reference = self._reference_timer(req)
            cand_ms, walls, notes, ref_ms = self._time_candidate(proc, ex, req, deadline, time_reference)
            self._check_libraries(proc, req)
            proc.cleanup()
            proc = None
            self._quiet(False)
            if not ref_ms:
                ref_est = self._ref_ms or 1.0
                ref_ms = self._settled(time_reference, self._trials_for(ref_est, req), self._floor_for(ref_est))
            reply.time_s = _perf_counter() - t2
            method = timing.METHOD_CUDA if self.device.type == "cuda" else timing.METHOD_CPU
            reply.reference = Timing.from_samples(ref_ms, method)
            reply.candidate = Timing.from_samples(cand_ms, method)
            reply.flags += list(self.flusher.notes) + notes
            reply.extra["timing_gap"] = self._cross_check(cand_ms, walls)
            speedup = (reply.reference.median_ms / reply.candidate.median_ms if reply.candidate.median_ms > 0
                       else float("inf"))
            if speedup > req.excessive_speedup:
                reply.flags.append(f"excessive_speedup: {speedup:.1f}x (every timed call ran on new inputs and a "
                                   "sample of them was checked)")
            reply.reason = (f"correct on {req.correctness_trials} trials and {len(TRANSFORMS)} off-distribution "
                            f"variants; {speedup:.2f}x over the reference ({reply.reference.median_ms:.4g} ms -> "
                            f"{reply.candidate.median_ms:.4g} ms, median of {reply.candidate.trials})")
            return reply
        except Rejected as r:
            reply.status, reply.reason, reply.error = r.status, r.reason, r.error
        except RunnerFailed as f:
            status = Status.TIMEOUT if f.kind == "timeout" else (Status.SUSPECT if f.kind == "protocol"
                                                                 else Status.RUNTIME_ERROR)
            reply.status, reply.reason = status, f.reason
        except torch.cuda.OutOfMemoryError as e:
            reply.status, reply.reason = Status.RUNTIME_ERROR, f"out of GPU memory in the checker: {str(e)[:300]}"
            reply.fatal = True
        finally:
            if proc is not None:
                proc.cleanup()
            self._quiet(False)
            self._release()
            reply.verify_s = reply.verify_s or (_perf_counter() - t_start)
        return reply

    def _release(self) -> None:
        """Cached-but-free device memory back to the driver: the runner allocates on the same device."""
        if self.device.type == "cuda":
            torch.cuda.empty_cache()

    def _quiet(self, on: bool) -> None:
        if self.device.type != "cpu":
            return
        if on:
            torch.set_num_threads(1)
        else:
            torch.set_num_threads(self._threads)

    # --- stages ---------------------------------------------------------------------------------------

    def _start_runner(self, req: EvalRequest, ex: Exchange, ref: torch.nn.Module, deadline: float) -> CandidateProcess:
        spec = RunnerSpec(kind=req.kind, device=str(self.device), space=req.space, artifact=Path(req.artifact),
                          sandboxed=self.sandboxed, workdir=self.workdir / "runners",
                          exchange_dir=ex.folder, threads=self._threads if self.device.type == "cpu" else 0,
                          limits=self._limits(), extra_ro=_cudnn_dirs(req),
                          compile_cache=self.workdir / "compile-cache" if req.shared_compile_cache else None,
                          max_memory_bytes=self._host_memory_cap(ex), max_processes=MAX_PROCESSES)
        spec.workdir.mkdir(parents=True, exist_ok=True)
        proc = CandidateProcess(spec, req.candidate_id)
        setup = wire.Setup(kind=req.kind, device=str(self.device), artifact="", buffers=ex.descriptors,
                           contract=req.contract, init_args=_json_args(self.task.get_init_inputs()),
                           state_names=list(ref.state_dict()), threads=spec.threads,
                           flush_bytes=self.flusher.buf.numel(), precision=self.precision.value, space=req.space)
        try:
            proc.start(setup, timeout_s=min(120.0, self._left(deadline)), fds=ex.fds)
            # What an honest timed call costs beyond its own time, measured before any candidate code is in
            # the runner: the same procedure (flush, events, synchronize, output checks, reply) without the
            # candidate. The timed calls are held to it (_cross_check).
            self._cal_gaps = [self._calibration_gap(proc, ex) for _ in range(CALIBRATION_CALLS)]
            self._ask(proc, "load", req.load_timeout_s, deadline, "loading the candidate")
        except BaseException:
            proc.cleanup()
            raise
        return proc

    def _calibration_gap(self, proc: CandidateProcess, ex: Exchange) -> float:
        # As before a timed call: the checker's own device work just before (writing inputs), so the switch
        # between its context and the runner's is in the baseline too.
        for buf in ex.of_role("input"):
            if buf.is_floating_point():
                buf.mul_(1.0)
        ex.poison_outputs()
        timing.sync(self.device)
        t0 = _perf_counter()
        rep = proc.request("calibrate", 60.0, scalars={})
        wall = (_perf_counter() - t0) * 1e3
        ms = rep.get("ms")
        if not rep["ok"] or not isinstance(ms, (int, float)):
            raise RunnerFailed("crashed", f"the runner could not time a call before the candidate loaded: "
                                          f"{str(rep.get('detail'))[:1500]}")
        return wall - float(ms)

    def _host_memory_cap(self, ex: Exchange | None = None) -> int:
        """Host memory a runner may use: 8 GB (torch and a compiler) plus four times the task's shared buffers
        on the CPU, never more than 45% of the machine."""
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        shared = sum(d.nbytes for d in ex.descriptors) if ex is not None and self.device.type == "cpu" else 0
        return int(min((8 << 30) + 4 * shared, max(0.45 * total, 6 << 30)))

    def _limits(self) -> dict[str, int]:
        limits = {"file_bytes": 8 << 30, "cpu_s": 3600}
        if self.device.type == "cpu":
            # Where no memory cgroup can be made (candidate_process.py drops this when one is), an address-space
            # limit instead, on the CPU only (the CUDA driver reserves far more virtual memory than it uses);
            # generous, since it counts every thread's reserved stack too.
            total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
            limits["address_bytes"] = max(16 << 30, total)
        if os.getuid() != 0:
            limits["processes"] = _user_processes() + MAX_PROCESSES
        return limits

    @staticmethod
    def _left(deadline: float) -> float:
        left = deadline - _perf_counter()
        if left <= 0:
            raise RunnerFailed("timeout", "the candidate's time limit ran out")
        return left

    def _ask(self, proc: CandidateProcess, op: str, limit: float, deadline: float, what: str, **fields: Any
             ) -> dict[str, Any]:
        rep = proc.request(op, min(limit, self._left(deadline)), **fields)
        if not rep["ok"]:
            kind, detail = rep.get("error"), str(rep.get("detail", ""))[:3000]
            status = {"space": Status.SPACE_VIOLATION, "output": Status.INCORRECT}.get(kind, Status.RUNTIME_ERROR)
            if kind == "output" and rep.get("suspect") is True:
                status = Status.SUSPECT
            raise Rejected(status, f"{what}: {detail}")
        return rep

    def _verify(self, proc: CandidateProcess, ex: Exchange, req: EvalRequest, deadline: float) -> None:
        first = True
        trials: list[tuple[int, str, Callable[[torch.Tensor], torch.Tensor] | None]] = [
            (t, "", None) for t in range(req.correctness_trials)]
        trials += [(t % max(req.correctness_trials, 1), name, fn) for t, (name, fn) in enumerate(TRANSFORMS)]
        for t, name, transform in trials:
            s = req.seed + 101 * t
            ref = self.make_reference(s)
            inputs = self.make_inputs(s + 7)
            if transform is not None:
                inputs = [transform(x) if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in inputs]
            expected = self._reference_outputs(ref, inputs)
            if transform is not None and not all(bool(torch.isfinite(e).all()) for e in expected
                                                 if e.is_floating_point()):
                continue  # outside the reference's own domain: no verdict from it
            what = f"trial {t + 1} (seed {s})" + (f", inputs {name}" if name else "")
            self._write(ex, inputs, ref)
            limit = self._first_call_limit_s(req) if first else self._call_limit_s()
            if req.kind == "modelnew":
                # The first construction may build an extension (load_inline in __init__); later ones repeat it.
                self._ask(proc, "construct", req.load_timeout_s if first else FIRST_CALL_S, deadline, what, seed=s)
            self._ask(proc, "call", limit, deadline, what, scalars=self._scalars(ref, req.contract, inputs),
                      timed=False, flush=False)
            first = False
            self._check_unchanged(ex, inputs, ref, what)
            self._compare(ex, expected, what, Status.INCORRECT, capped=transform is None)

    def _timing_pool(self, seed: int) -> list[list[Any]]:
        """As many input sets as fit (2 to 8, within a fifth of free device memory): a cache keyed on buffer
        addresses sees contents change under it; each timed call rescales one of them anyway."""
        first = self.make_inputs(seed + 1000)
        size = max(sum(x.numel() * x.element_size() for x in first if isinstance(x, torch.Tensor)), 1)
        if self.device.type == "cuda":
            free, _ = torch.cuda.mem_get_info(self.device)
            n = int(min(8, max(2, free * 0.2 // size)))
        else:
            n = 4
        return [first] + [self.make_inputs(seed + 1000 + i) for i in range(1, n)]

    def _scale(self) -> float:
        """A secret factor for one timed call's float inputs: contents never repeat, so a cache keyed on a
        fingerprint of the inputs never hits."""
        return self._rng.uniform(0.9, 1.1)

    @staticmethod
    def _scaled(base: Sequence[Any], scale: float) -> list[Any]:
        return [x * scale if isinstance(x, torch.Tensor) and x.is_floating_point() else x for x in base]

    @staticmethod
    def _write_scaled(bufs: Sequence[Any], base: Sequence[Any], scale: float) -> None:
        """bufs[i] = base[i] * scale for the float tensors, in place (no GB-sized temporaries)."""
        for b, x in zip(bufs, base):
            if isinstance(b, torch.Tensor):
                b.copy_(x)
                if b.is_floating_point():
                    b.mul_(scale)

    def _trials_for(self, est_ms: float, req: EvalRequest) -> int:
        target = TIMING_TARGET_MS["cuda" if self.device.type == "cuda" else "cpu"]
        by_time = math.ceil(target / max(est_ms, 1e-3))
        return int(max(min(MIN_TRIALS, req.timing_trials), min(req.timing_trials, by_time)))

    @staticmethod
    def _floor_for(est_ms: float) -> int:
        """The fewest GPU calls before the median may be called settled: MIN_TRIALS, fewer for slow calls."""
        by_time = math.ceil(TIMING_TARGET_MS["cuda"] / max(est_ms, 1e-3))
        return max(MIN_SLOW_TRIALS, min(MIN_TRIALS, by_time))

    def _time_candidate(self, proc: CandidateProcess, ex: Exchange, req: EvalRequest, deadline: float,
                        time_reference: Callable[[int], list[float]]
                        ) -> tuple[list[float], list[float], list[str], list[float]]:
        """The candidate's timed calls. On a GPU the reference is timed afterwards, once the runner is gone (a
        runner left alive could keep the device busy with kernels already queued). On the CPU, whose load
        drifts between seconds, the reference's trials come in blocks between the candidate's, with every
        process of the runner stopped meanwhile, so that both sides see the same machine."""
        seed = req.seed + 50_000
        ref = self.make_reference(seed)
        pool = self._timing_pool(seed)
        scalars = self._scalars(ref, req.contract, pool[0])
        self._write(ex, pool[0], ref)
        if req.kind == "modelnew":
            self._ask(proc, "construct", FIRST_CALL_S, deadline, "timing", seed=seed)
        # Warm-up (module loads, autotuning, allocator growth) by the checker's clock: at least 3 calls and
        # 30 ms; the time per call it sees sets how many timed calls to make.
        t0 = _perf_counter()
        calls = 0
        while calls < 3 or ((_perf_counter() - t0) * 1e3 < 30.0 and calls < 1000):
            self._ask(proc, "call", self._call_limit_s(), deadline, "warm-up", scalars=scalars, timed=False,
                      flush=False)
            calls += 1
        est_ms = (_perf_counter() - t0) * 1e3 / calls
        trials = self._trials_for(est_ms, req)
        self._trials = trials
        cand_ms: list[float] = []
        walls: list[float] = []
        ref_ms: list[float] = []
        sampled_any = False
        # On the CPU the count is fixed (the reference's blocks are spread over it); on a GPU the calls stop
        # once their median is known closely enough (a steady kernel needs MIN_TRIALS, not the cap). Which
        # call is the last is decided before it is made, and the last is always checked: a candidate cannot
        # tell the call after which nobody looks.
        block = max(trials // 5, 1) if self.device.type == "cpu" else 0
        floor = min(self._floor_for(est_ms), trials)
        for i in range(trials):
            last = i == trials - 1 or (not block and i % 5 == 0 and timing.median_settled(cand_ms, floor))
            if block and i % block == 0:
                ref_ms += self._frozen(proc, time_reference, min(block, trials - len(ref_ms)))
            base = pool[i % len(pool)]
            scale = self._scale()
            self._write_scaled(ex.of_role("input"), [x for x in base if isinstance(x, torch.Tensor)], scale)
            for buf, v in zip(ex.of_role("state"), ref.state_dict().values()):
                buf.copy_(v)
            ex.poison_outputs()
            timing.sync(self.device)
            sampled = i == 0 or last or self._rng.random() < SAMPLE_RATE
            t0 = _perf_counter()
            rep = self._ask(proc, "call", self._call_limit_s(), deadline, f"timed call {i + 1}", scalars=scalars,
                            timed=True, flush=True)
            walls.append((_perf_counter() - t0) * 1e3)
            ms = rep.get("ms")
            if not isinstance(ms, (int, float)) or not math.isfinite(ms) or ms < 0:
                raise Rejected(Status.SUSPECT, f"timed call {i + 1}: the runner reported no valid time ({ms!r})")
            cand_ms.append(float(ms))
            if sampled:
                sampled_any = True
                inputs = self._scaled(base, scale)
                self._check_unchanged(ex, inputs, ref, f"timed call {i + 1}")
                self._compare(ex, self._reference_outputs(ref, inputs),
                              f"timed call {i + 1} disagrees with the reference on its own inputs (work skipped "
                              "when timed, or a cached result?)", Status.SUSPECT)
                del inputs
            if last:
                break
        assert sampled_any
        if block and len(ref_ms) < trials:
            ref_ms += self._frozen(proc, time_reference, trials - len(ref_ms))
        notes = [str(n)[:300] for n in (rep.get("notes") or [])][:4]
        return cand_ms, walls, notes, ref_ms

    @staticmethod
    def _settled(time_more: Callable[[int], list[float]], cap: int, floor: int) -> list[float]:
        """The reference's trials on a GPU: by the same rule as the candidate's, at least `floor` and at most
        `cap` (its own time sets both: a 30 ms reference is not timed as often as a 30 us one)."""
        ms = time_more(min(floor, cap))
        while len(ms) < cap and not timing.median_settled(ms, floor):
            ms += time_more(min(5, cap - len(ms)))
        return ms

    def _frozen(self, proc: CandidateProcess, time_reference: Callable[[int], list[float]], n: int) -> list[float]:
        if n <= 0:
            return []
        proc.freeze(True)
        self._quiet(False)
        try:
            return time_reference(n)
        finally:
            self._quiet(True)
            proc.freeze(False)

    def _reference_timer(self, req: EvalRequest) -> Callable[[int], list[float]]:
        """The reference timed here the way the runner times a candidate (flush enqueued, events or the host
        clock, device-wide sync, each call on rescaled pool inputs); returns `time(n) -> n more trials`."""
        seed = req.seed + 50_000
        ref = self.make_reference(seed)
        pool = self._timing_pool(seed)
        bufs = [x.clone() if isinstance(x, torch.Tensor) else x for x in pool[0]]
        done = [0]

        def run() -> Any:
            with torch.no_grad():
                return ref(*bufs)

        def time_more(n: int) -> list[float]:
            if done[0] == 0:
                timing.warm_up(run, self.device)
            ms = []
            for _ in range(n):
                self._write_scaled(bufs, pool[done[0] % len(pool)], self._scale())
                ms.append(timing.time_call(run, self.device, before=self.flusher.flush)[0])
                done[0] += 1
            return ms

        return time_more

    def _cross_check(self, cand_ms: list[float], walls: list[float]) -> dict[str, float]:
        """The runner's times against the checker's clock. For every timed call the checker sees the wall time
        from request to reply; minus the reported time, that is the call's overhead, which an honest candidate
        shares with the calibration calls made before it loaded (same procedure, no candidate). A patched timer,
        an early reply or work left running on a stream the timer does not see shows as extra overhead."""
        gaps = sorted(w - c for w, c in zip(walls, cand_ms))
        cal = sorted(self._cal_gaps)
        gap, base = statistics.median(gaps), statistics.median(cal)
        spread = cal[(3 * len(cal)) // 4] - cal[len(cal) // 4]
        cand = statistics.median(cand_ms)
        gpu = self.device.type == "cuda"
        # On a shared CPU a call's wall time wanders by milliseconds: the bound there is for gross cheats (a
        # patched clock), the sampled output checks guard the rest.
        # On the H200 honest candidates showed an overhead beyond the calibration of 0.06-0.2 ms on 0.9 ms
        # kernels (up to 20%), 0.23 ms on a 0.73 ms fp64 stencil (31%) and up to 0.56 ms on 4.6 ms ones (12%:
        # torch.compile, GB-sized outputs), which a bound of 10% refused; the cheats this is for (work on
        # another stream, an early reply, a patched clock) hide the whole kernel, and outputs still being
        # written after the call are caught directly by the runner's snapshot.
        slack = max(0.25, 0.25 * cand, 4 * spread) if gpu else max(3.0, 2 * cand, 8 * spread)
        if gap - base > slack:
            raise Rejected(Status.SUSPECT,
                           f"the runner reported {cand:.4g} ms per call, but by the checker's clock each call took "
                           f"{gap - base:.3g} ms longer than the same procedure without the candidate (allowed "
                           f"{slack:.3g} ms): the reported times cannot be trusted (patched timer, work left running "
                           "on another stream, or an early reply)")
        return {"gap_ms": round(gap, 4), "calibrated_gap_ms": round(base, 4), "slack_ms": round(slack, 4)}

    def _check_libraries(self, proc: CandidateProcess, req: EvalRequest) -> None:
        if req.kind == "modelnew":
            return
        libs = proc.loaded_libraries()
        names = [os.path.basename(p) for p in libs]
        if req.space == "pure_cuda":
            bad = [n for n in names if n.startswith(LIBRARY_MARKERS + TORCH_MARKERS)]
            if bad:
                raise Rejected(Status.SPACE_VIOLATION, f"the candidate loaded {', '.join(sorted(set(bad)))} while it "
                                                       "ran, which pure_cuda does not allow")
        elif req.space == "cuda_libraries":
            bad = [n for n in names if n.startswith(TORCH_MARKERS)]
            if bad:
                raise Rejected(Status.SPACE_VIOLATION, f"the candidate loaded {', '.join(sorted(set(bad)))} while it "
                                                       "ran, which cuda_libraries does not allow")

    def close(self) -> None:
        if self._exchange is not None:
            self._exchange.close()
            self._exchange = None


def _json_args(values: Sequence[Any]) -> list[Any]:
    import json

    out = list(values)
    try:
        json.dumps(out)
    except TypeError as e:
        raise Rejected(Status.RUNTIME_ERROR, f"get_init_inputs() returned values that cannot be handed to a "
                                             f"sandboxed candidate ({e}); use numbers, strings and lists") from e
    return out


def _cudnn_dirs(req: EvalRequest) -> tuple[str, ...]:
    if req.kind == "modelnew" or req.space == "pure_cuda":
        return ()
    from contracts.libraries import find_cudnn

    found = find_cudnn()
    if not found:
        return ()
    include, libdir, _ = found
    return tuple(str(p) for p in (include, libdir) if p)


def _user_processes() -> int:
    uid = os.getuid()
    n = 0
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if os.stat(f"/proc/{d}").st_uid == uid:
                    n += 1
            except OSError:
                continue
    return n
