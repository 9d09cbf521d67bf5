"""The trusted side of an evaluation: makes inputs, runs and times the reference, judges what a runner returns.

It lives in the evaluation worker process and never loads candidate code: each candidate runs in a fresh
sandboxed runner (candidate_process.py, runner.py) that it feeds through shared buffers (exchange.py).

Per candidate:
1. start the runner and measure the round trip to it before the candidate is loaded (trusted: only hiera's
   code is in it then); load the candidate;
2. verify: trials on fresh seeded inputs and weights, then on the same inputs scaled, negated and shifted
   (where the reference stays finite), each compared with the reference computed here; inputs and weights
   checked bitwise after every call; outputs poisoned with NaN before it;
3. time the candidate: every timed call gets input contents it has never seen (a rotating pool drawn under
   secret seeds, each element perturbed on its own: perturb.py), and a secret random quarter of the calls
   have their outputs checked, so a candidate that skips work or replays a cached result when timed is
   caught; the outputs are snapshotted the moment the reply arrives and must not change afterwards. On the
   CPU the candidate's time is the checker's own clock around the call less the overhead calibrated before
   the candidate loaded; on a GPU it is the runner's device events, bounded by that clock. Either way the
   runner's report is held to the checker's clock (a patched timer or an early reply shows as a gap);
4. end the runner (and every process it started); read which libraries it had mapped;
5. time the reference here, with no runner alive, the same way.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import statistics
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import torch

from contracts.device import Device, DeviceFacts
from contracts.shapes import ShapeReport
from contracts.verdict import FlagKind, flag_text
from engine.evaluate import accumulation, back_to_back, timing, verify, wire
from engine.evaluate.back_to_back import BackToBack
from engine.evaluate.candidate_process import CandidateProcess, FreezeFailed, RunnerFailed, RunnerSpec
from engine.evaluate.clock_check import calibrate, cross_check, parity, stability
from engine.evaluate.exchange import Exchange, OutputSnapshot, Spec
from engine.evaluate.inputs_pool import TaskInputs
from engine.evaluate.library_audit import check_libraries
from engine.evaluate.off_distribution import TRANSFORMS
from engine.evaluate.outcome import Precision, Status, Timing
from engine.evaluate.perturb import Perturber
from engine.evaluate.requests import EvalReply, EvalRequest, Rejected
from engine.evaluate.rounding import low_precision_slack, reference_slack
from engine.evaluate.runner_limits import MAX_PROCESSES, cudnn_dirs, host_memory_cap, rlimits
from engine.evaluate.task_module import import_file, set_precision
from engine.evaluate.timing_policy import (
    DRIFT_NOTED,
    SLOWER_STOP,
    clearly_slower,
    counted,
    floor_for,
    host_bound,
    reference_of_blocks,
    reference_timer,
    settled,
    trials_for,
)
from engine.evaluate.variants import VariantCheck, finish
from engine.untrusted import scrub

_perf_counter = time.perf_counter


def first_mismatch(outs: Sequence[torch.Tensor], expected: Sequence[torch.Tensor], precision: Precision,
                   capped: bool = True, slacks: Sequence[torch.Tensor | None] = ()) -> verify.Finding | None:
    """The first output outside the rule `expected` sets, each by its own dtype (float64 outputs are judged with
    the fp64 tolerance, never fp32's), or None."""
    for i, (o, r) in enumerate(zip(outs, expected)):
        f = verify.compare(o, r, precision.tolerance_for(r.dtype), f"out{i}" if len(outs) > 1 else "out",
                           capped=capped, slack=slacks[i] if i < len(slacks) else None)
        if f:
            return f
    return None


def self_disagreement(expected: Sequence[torch.Tensor], again: Sequence[torch.Tensor], precision: Precision,
                      capped: bool, slacks: Sequence[torch.Tensor | None] = ()) -> str:
    """Why the reference's second call on the same inputs fails the rule its first call sets (the same
    tolerance, cap and slack a candidate gets), or "" when it agrees with itself."""
    if len(again) != len(expected):
        return f"{len(again)} outputs against {len(expected)}"
    f = first_mismatch(again, expected, precision, capped, slacks)
    return f.reason if f else ""


ACCUMULATION = "accumulation"  # the bf16/fp16 policies' trial on built inputs (accumulation.py)
SAMPLE_RATE = 0.25  # the share of timed calls whose outputs are checked
FIRST_CALL_S = 30.0  # a first call, which may compile or search algorithms


class TaskStateful(Rejected):
    """The task's forward changes its own weights or buffers: no candidate can be judged (the run stops)."""


def stateful_reason(changed: Sequence[str]) -> str:
    """Why a forward that changes its own parameters or buffers cannot be optimized as it is, and what to do."""
    names = ", ".join(changed[:4]) + (f" and {len(changed) - 4} more" if len(changed) > 4 else "")
    return (f"the task's forward changes its own {names} in place on every call (a running statistic, a step "
            "counter): its output then depends on how many times it was called, so no candidate can be compared "
            "with it. To fix: pass that state in as an input and return its new value, or leave it out of forward "
            "(for BatchNorm, evaluation mode)")


def checker_error_reason(e: Exception) -> str:
    """An exception of the checker's own, in words: where it was raised (the innermost frame) and that it is no
    verdict on the candidate."""
    frames = traceback.extract_tb(e.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    return (f"hiera's checker failed while judging this candidate ({type(e).__name__}{where}: {str(e)[:300]}); "
            "this is an error of hiera's or of the task's reference, not a verdict on the candidate: please report "
            "it with the run's folder")


class Checker:
    """One task on one device: the trusted state (task, references, inputs) and the judging of candidates.

    It orchestrates; the concerns it calls on are modules of their own: the task's references, inputs and
    timing pool (inputs_pool.py), how many calls are timed and the reference's timer (timing_policy.py), the
    runner's clock held to the checker's (clock_check.py), the runner's resource limits (runner_limits.py),
    the libraries a runner mapped (library_audit.py) and the other batch sizes (variants.py)."""

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
        self.objects = TaskInputs(self.task, self.device)
        self._exchange: Exchange | None = None
        self._shapes: list[tuple[tuple[int, ...], torch.dtype]] | None = None
        # What the back-to-back and variants checks may read or use is the TrialSeam (trial_seam.py).
        self.ref_ms: float | None = None
        # Inputs (tensor positions) the reference's forward changes in place: a candidate may change them too
        # (its outputs are what is compared; the inputs are written anew before every call).
        self.inputs_modified: set[int] = set()
        self._state_checked = False  # whether the reference was seen to keep its own weights and buffers
        self._stateful: str | None = None  # why the task cannot be judged, once seen (TaskStateful)
        self._timing_cut: str | None = None  # why a candidate's timed calls stopped early (clearly_slower)
        self.ref_host_bound = False  # a GPU forward issued at the host's speed (_estimate_reference)
        self.min_call_s = 0.0
        self.perturbation: Perturber | None = None  # set as a request's timing starts
        self._probe_runner: float | None = None
        self._probe_checker: float | None = None
        self._burst_overhead = 0.0  # an empty burst's cost (back_to_back.calibrate), per runner
        self._runner_threads: dict[str, int] = {}  # the runner's threads by the checker's count, per candidate
        self._threads = torch.get_num_threads()
        self.rng = random.Random(int.from_bytes(os.urandom(8), "little"))  # secret: never seeded by a task
        # Every seed a trial, a construct or the timing pool is made under derives from this (seed): fixed for
        # this checker's life, so the task's references and inputs are made once for all its candidates, and
        # never seen by one (its values say nothing of which phase a construct belongs to).
        self._secret = os.urandom(16)

    def device_facts(self) -> DeviceFacts:
        device = Device.parse(str(self.device))
        if self.device.type == "cuda":
            p = torch.cuda.get_device_properties(self.device)
            return DeviceFacts(device, p.name, torch.__version__, capability=p.major * 10 + p.minor,
                               sms=p.multi_processor_count, l2_bytes=getattr(p, "L2_cache_size", None),
                               memory_bytes=p.total_memory,
                               max_threads_per_sm=getattr(p, "max_threads_per_multi_processor", None),
                               smem_per_block_optin=getattr(p, "shared_memory_per_block_optin", None))
        import platform

        return DeviceFacts(device, platform.processor() or platform.machine(), torch.__version__,
                           threads=torch.get_num_threads())

    # --- the task's own objects (trusted) -------------------------------------------------------------

    def seed(self, req: EvalRequest, what: str, index: int = 0) -> int:
        """A secret seed for `what` (trial, inputs, timing, pool) number `index` of this request's settings."""
        h = hashlib.blake2b(f"{req.seed}:{what}:{index}".encode(), key=self._secret, digest_size=7)
        return int.from_bytes(h.digest(), "little")

    def make_reference(self, seed: int) -> torch.nn.Module:
        return self.objects.reference(seed)

    def make_inputs(self, seed: int) -> list[Any]:
        """get_inputs() under `seed`, made on the device (no GB-sized host copies); cached within a budget."""
        return self.objects.inputs(seed)

    def reference_outputs(self, ref: torch.nn.Module, inputs: Sequence[Any], fresh: bool = False
                          ) -> list[torch.Tensor]:
        """The reference's outputs on `inputs`, called on copies of them (a forward may work in place on its
        inputs, and the cached sets serve every candidate) unless they are `fresh`: made for this call alone
        (a perturbed set made again), when a copy would be one more set of several GiB for nothing."""
        if self._stateful is not None:
            raise TaskStateful(Status.RUNTIME_ERROR, self._stateful)
        args = [x.clone() if isinstance(x, torch.Tensor) and not fresh else x for x in inputs]
        own = [] if self._state_checked else [
            *((f"parameter '{n}'", t, t._version) for n, t in ref.named_parameters()),
            *((f"buffer '{n}'", t, t._version) for n, t in ref.named_buffers())]
        tensors = [x for x in args if isinstance(x, torch.Tensor)]
        before = [x._version for x in tensors]
        with torch.no_grad():
            out = ref(*args)
        # What the forward changed in place (a tensor's version counter counts its in-place writes). Its inputs
        # (x.mul_(2)): a candidate may change them too. Its own weights or buffers, once: see _check_stateless.
        self.inputs_modified |= {i for i, (x, v) in enumerate(zip(tensors, before)) if x._version != v}
        if not self._state_checked:
            self._state_checked = True
            self._check_stateless(ref, inputs, [(n, t) for n, t, v in own if t._version != v])
        outs = verify.as_outputs(out)
        for o in outs:
            if not isinstance(o, torch.Tensor):
                raise Rejected(Status.RUNTIME_ERROR, f"the reference returned a {type(o).__name__}, not tensors")
        return outs  # type: ignore[return-value]

    def _check_stateless(self, ref: torch.nn.Module, inputs: Sequence[Any], written: list[tuple[str, Any]]) -> None:
        """A forward that changes its own weights or buffers on every call (a running statistic) gives outputs
        that depend on the calls before: nothing can be judged against it, and the run is told why and what to
        do (TaskStateful). Written in place is not enough (an LSTM may lay its weights out again, to the same
        values): the reference is called once more, and what changes value again is the state."""
        if not written:
            return
        kept = [t.detach().clone() for _, t in written]
        with torch.no_grad():
            ref(*[x.clone() if isinstance(x, torch.Tensor) else x for x in inputs])
        moving = [n for (n, t), k in zip(written, kept) if not torch.equal(t, k)]
        if moving:
            self._stateful = stateful_reason(moving)
            raise TaskStateful(Status.RUNTIME_ERROR, self._stateful)

    # --- shared buffers -------------------------------------------------------------------------------

    def _exchange_for(self, ref: torch.nn.Module, inputs: Sequence[Any], outs: Sequence[torch.Tensor],
                      variant_specs: Sequence[Spec] = ()) -> Exchange:
        """The shared buffers: set 0 at the task's own shapes (and every parameter and buffer), then the sets of
        the other batch sizes checked (variants.py) and the back-to-back sets (back_to_back.py); kept while the
        next candidate needs the same ones."""
        shapes: list[Any] = [(tuple(x.shape), x.dtype) for x in inputs if isinstance(x, torch.Tensor)]
        shapes += [(tuple(t.shape), t.dtype) for t in ref.state_dict().values()]
        shapes += [(tuple(o.shape), o.dtype) for o in outs]
        shapes += [(s.shape, s.dtype, s.group) for s in variant_specs]
        if self._exchange is not None and self._shapes == shapes:
            return self._exchange
        if self._exchange is not None:
            self._exchange.close()
        specs = [Spec(f"input {i}", "input", tuple(x.shape), x.dtype)
                 for i, x in enumerate(x for x in inputs if isinstance(x, torch.Tensor))]
        names = dict(self._state_roles(ref))
        specs += [Spec(f"{names[k]} {k}", "state", tuple(v.shape), v.dtype) for k, v in ref.state_dict().items()]
        specs += [Spec(f"output {i}", "output", tuple(o.shape), o.dtype) for i, o in enumerate(outs)]
        self._exchange, self._shapes = Exchange([*specs, *variant_specs], self.device), shapes
        return self._exchange

    @staticmethod
    def _state_roles(ref: torch.nn.Module) -> list[tuple[str, str]]:
        params = {n for n, _ in ref.named_parameters()}
        return [(k, "parameter" if k in params else "buffer") for k in ref.state_dict()]

    def write(self, ex: Exchange, inputs: Sequence[Any], ref: torch.nn.Module, group: int = 0) -> None:
        for buf, x in zip(ex.of_role("input", group), [x for x in inputs if isinstance(x, torch.Tensor)]):
            buf.copy_(x)
        for buf, v in zip(ex.of_role("state"), ref.state_dict().values()):
            buf.copy_(v)
        ex.poison_outputs(group)
        timing.sync(self.device)

    def check_unchanged(self, ex: Exchange, inputs: Sequence[Any], ref: torch.nn.Module, when: str,
                         group: int = 0) -> None:
        past = ex.breached(group)
        if past is not None:
            shape = "x".join(map(str, ex.tensors[past].shape))
            raise Rejected(Status.INCORRECT, f"{when}: the candidate wrote past the end of {past} (shape {shape}): a "
                                             "kernel that writes more than a tensor holds corrupts the memory after it")
        tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
        for i, (buf, x) in enumerate(zip(ex.of_role("input", group), tensors)):
            if i in self.inputs_modified:
                continue  # the reference's own forward changes it in place: so may a candidate's
            if not torch.equal(verify.raw_bytes(buf), verify.raw_bytes(x)):
                raise Rejected(Status.SUSPECT, f"{when}: the candidate modified input {i} (inputs, parameters and "
                                               "buffers are read-only)")
        for (name, _), buf, v in zip(self._state_roles(ref), ex.of_role("state"), ref.state_dict().values()):
            if not torch.equal(verify.raw_bytes(buf), verify.raw_bytes(v)):
                raise Rejected(Status.SUSPECT, f"{when}: the candidate modified {name} (inputs, parameters and "
                                               "buffers are read-only)")

    def compare(self, ex: Exchange, expected: Sequence[torch.Tensor], what: str, status: Status,
                 capped: bool = True, group: int = 0, slacks: Sequence[torch.Tensor | None] = ()) -> None:
        f = first_mismatch(ex.of_role("output", group), expected, self.precision, capped, slacks)
        if f:
            raise Rejected(status if f.status is Status.INCORRECT else f.status, f"{what}: {f.reason}", f.error)

    # --- one candidate --------------------------------------------------------------------------------

    def scalars(self, ref: torch.nn.Module, layout: dict[str, Any] | None, inputs: Sequence[Any]) -> dict[str, Any]:
        """What a call passes beside the tensors: a contract's scalars by name; for a ModelNew (no contract) the
        forward's non-tensor arguments by position (wire.CALL_ARGS), which its runner puts between the tensors
        as get_inputs() had them (they were dropped, and every candidate of a forward taking a float failed)."""
        if layout is None:
            fixed = [[i, x] for i, x in enumerate(inputs) if not isinstance(x, torch.Tensor)]
            return {wire.CALL_ARGS: _json_args(fixed, "get_inputs()")} if fixed else {}
        values: dict[str, Any] = {k: getattr(ref, k) for k in layout["scalars"]}
        non_tensor = iter([x for x in inputs if not isinstance(x, torch.Tensor)])
        for a in layout["args"]:
            if a["role"] == "input" and not a["tensor"]:
                values[a["name"]] = next(non_tensor)
        return {k: (float(v) if isinstance(v, float) else int(v)) for k, v in values.items()}

    def call_limit_s(self) -> float:
        """How long one call may take: a candidate fifty times slower than the reference (or a hang) is a
        timeout within about a second, not minutes."""
        ref_ms = self.ref_ms if self.ref_ms is not None else 1000.0
        return max(0.75 + 50.0 * ref_ms / 1e3, self.min_call_s)

    def first_call_limit_s(self, req: EvalRequest) -> float:
        """A first call does one-time work: a contract candidate creates its library handles and may search
        cuDNN's algorithms, a ModelNew may compile (torch.compile, a lazy load_inline). It gets FIRST_CALL_S
        more; hiera's own torch.compile candidates (or any, under an explicit --timeout) the load limit."""
        if req.kind == "modelnew" and (req.shared_compile_cache or req.timeout_s is not None):
            return req.load_timeout_s
        return FIRST_CALL_S + self.call_limit_s()

    def _estimate_reference(self, ref: torch.nn.Module, inputs: Sequence[Any]) -> None:
        if self.ref_ms is not None:
            return
        args = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
        host: list[float] = []

        def issue() -> Any:
            t0 = _perf_counter()
            out = ref(*args)
            host.append((_perf_counter() - t0) * 1e3)
            return out

        # The fastest of a few calls: on a loaded machine a median can read many times the reference's real
        # time, and every call limit is derived from this. The host's time to issue the forward beside it
        # says whether the forward is host-bound (timing_policy.host_bound).
        with torch.no_grad():
            timing.warm_up(lambda: ref(*args), self.device, min_calls=2, min_ms=10.0)
            self.ref_ms = min(timing.time_call(issue, self.device)[0] for _ in range(5))
        self.ref_host_bound = self.device.type == "cuda" and host_bound(min(host), self.ref_ms)

    def evaluate(self, req: EvalRequest) -> EvalReply:
        reply = EvalReply(req.candidate_id, Status.VALID, "")
        self.min_call_s = req.min_call_limit_s
        # The parity probe's two figures for this candidate (CPU ModelNew runners; clock_check.parity).
        self._probe_runner = None
        self._probe_checker = None
        t_start = _perf_counter()
        deadline = t_start + (req.timeout_s or 600.0)
        if self.device.type == "cuda":
            torch.cuda.reset_peak_memory_stats(self.device)  # the checker's own peak, recorded below
        proc: CandidateProcess | None = None
        try:
            ref0 = self.make_reference(self.seed(req, "trial", 0))
            in0 = self.make_inputs(self.seed(req, "inputs", 0))
            out0 = self.reference_outputs(ref0, in0)
            self._estimate_reference(ref0, in0)
            sizes = VariantCheck(self, req)
            planned, skipped = sizes.plan(in0, out0)
            bursts = back_to_back.sets_for(req, self.ref_ms or 1.0, back_to_back.set_bytes(in0, out0), self.device)
            ex = self._exchange_for(ref0, in0, out0, [*sizes.specs(planned, in0, out0),
                                                      *back_to_back.specs(bursts, in0, out0)])
            ex.arm()  # a write past a buffer by an earlier candidate is its own verdict, not this one's
            # Set 0 lives on in the exchange and (within its budget) the trials' cache: this frame's hold on it
            # would be one more copy through the whole evaluation (a 7 GiB set ran an 80 GB card out).
            del in0
            # On the CPU the checker's own worker threads would spin (OpenMP's wait policy) on the cores the
            # candidate is timed on: while a runner is alive the checker works on one thread.
            self._quiet(True)
            del out0
            self._release()
            proc = self._start_runner(req, ex, ref0, deadline)
            reply.load_s = _perf_counter() - t_start
            t1 = _perf_counter()
            reply.flags += self._verify(proc, ex, req, deadline)
            reply.verify_s = _perf_counter() - t1
            if not req.timing:
                check_libraries(proc, req)
                reply.reason = f"correct on {req.correctness_trials} trials (not timed)"
                if planned or skipped:
                    checks, _, proc = sizes.run(proc, ex, planned, skipped, deadline, None,
                                                lambda: self._start_runner(req, ex, ref0, deadline))
                    self._say_shapes(reply, finish(req.batch or 0, checks, []))
                return reply
            t2 = _perf_counter()
            time_reference = counted(self._reference_timer(req), reply.extra, "time_reference_s")
            frozen_by = proc.freezer
            cand_ms, walls, notes, ref_ms = self._time_candidate(proc, ex, req, deadline, time_reference)
            reported = cand_ms
            gap = cross_check(reported, walls, self.overhead, self.device)
            if not gap["charged"]:
                cand_ms = timing.candidate_times(reported, walls, self.overhead, gpu=self.device.type == "cuda")
            else:
                cand_ms = self.overhead.trusted(walls)
                notes.append(flag_text(FlagKind.HOST_TIME_CHARGED,
                                       f"each call took {gap['gap_ms'] - gap['calibrated_gap_ms']:.3g} ms more by the "
                                       "checker's clock than the same procedure without the candidate (allowed "
                                       f"{gap['slack_ms']:.3g} ms), so its time is the clock's, not the runner's "
                                       "device events: host time they do not see is charged to it"))
            calls = back_to_back.calls_for(len(ex.back_to_back_groups()), statistics.median(reported),
                                           statistics.median(self.overhead.trusted(walls)))
            b2b = BackToBack(self, req, ex, calls) if calls else None
            cand_burst = b2b.candidate(proc, deadline, self.scalars(b2b.ref, req.contract, b2b.pool[0]),
                                       self._burst_overhead) if b2b else None
            check_libraries(proc, req)
            t3 = _perf_counter()
            # A candidate cut short as far slower (clearly_slower) is verified at the other sizes, not timed there.
            checks, later, proc = sizes.run(proc, ex, planned, skipped, deadline,
                                            None if self._timing_cut else statistics.median(cand_ms),
                                            lambda: self._start_runner(req, ex, ref0, deadline))
            variants_s = _perf_counter() - t3
            if proc is not None:
                proc.cleanup()
            proc = None
            self._quiet(False)
            # On a GPU the reference is always timed once the runner is gone; what was timed beside it (a
            # host-bound forward's blocks) is weighed against that below. On the CPU its blocks are the figure.
            gpu = self.device.type == "cuda"
            beside = ref_ms if gpu else []
            if gpu or not ref_ms:
                ref_est = self.ref_ms or 1.0
                ref_ms = settled(time_reference, trials_for(ref_est, req.timing_trials, self.device),
                                 floor_for(ref_est))
            if beside:
                blocks = reference_of_blocks(beside, ref_ms)
                ref_ms = blocks.samples
                reply.extra["reference_blocks"] = blocks.record()
                if blocks.drift > DRIFT_NOTED:
                    notes.append(flag_text(FlagKind.HOST_DRIFT,
                                           f"a host-bound forward (issued at the CPU's speed): the reference read "
                                           f"{blocks.beside_ms:.4g} ms timed beside the candidate's calls and "
                                           f"{blocks.after_ms:.4g} ms after them ({blocks.drift:.0%} apart); the "
                                           "faster is the figure, never slower than the one taken with no runner "
                                           "alive"))
            if cand_burst is not None:
                back_to_back.record(reply.extra, reply.flags, cand_burst, statistics.median(reported),
                                    statistics.median(ref_ms))
                if self.device.type == "cuda" and not gap["charged"]:
                    # The burst bounds the device events more tightly than the per-call clock, and without
                    # charging the host time around each call that the reference's events do not see either
                    # (an honest ModelNew twin of a 5 us relu read 0.07x from that clock on the H200).
                    cand_ms = list(reported)
                cand_ms = back_to_back.floor(cand_ms, cand_burst, statistics.median(ref_ms))
            method = timing.METHOD_CUDA if self.device.type == "cuda" else timing.METHOD_CPU
            reply.reference = Timing.from_samples(ref_ms, method)
            reply.candidate = Timing.from_samples(cand_ms, method)
            speedup = (reply.reference.median_ms / reply.candidate.median_ms if reply.candidate.median_ms > 0
                       else float("inf"))
            if planned or skipped:
                t4 = _perf_counter()
                # the other sizes' figures are measured against this one (contracts/shapes.py SLOWER_LIMIT)
                self._say_shapes(reply, finish(req.batch or 0, checks, later,
                                               speedup if math.isfinite(speedup) else None))
                reply.extra["variants_s"] = round(variants_s + _perf_counter() - t4, 4)
            reply.time_s = _perf_counter() - t2
            reply.flags += list(self.flusher.notes) + notes
            # What the runner claimed, kept in the record also when the cross-check below rejects it.
            reply.extra["runner_reported_ms"] = round(statistics.median(reported), 6)
            reply.extra["timing_gap"] = gap
            reply.extra["inputs_per_call"] = self.perturbation.describe()
            if self._timing_cut:
                reply.extra["timing_cut"] = self._timing_cut
            if self.inputs_modified:
                # Changed in place by the reference's own forward, so the candidate was allowed to as well; its
                # outputs were compared, what it left in these inputs was not.
                reply.extra["inputs_the_reference_modifies"] = sorted(self.inputs_modified)
            reply.extra["timing_pool_sets"] = len(self.timing_pool(req))
            reply.extra["runner_threads"] = dict(self._runner_threads)
            reply.extra["runner_frozen_by"] = frozen_by
            stability(reply, ref_ms, cand_ms, self.overhead, self.device)
            parity(reply, self._probe_checker, self._probe_runner)
            if speedup > req.excessive_speedup:
                fresh = ("every timed call ran on inputs never seen before" if self.perturbation.changes_every_input
                         else "every timed call's float inputs were new; " + self.perturbation.describe())
                reply.flags.append(flag_text(FlagKind.EXCESSIVE_SPEEDUP,
                                             f"{speedup:.1f}x ({fresh}, and a sample of the calls was checked)"))
            built = ", inputs built to expose low-precision accumulation" if self.precision.low else ""
            reply.reason = (f"correct on {req.correctness_trials} trials and {len(TRANSFORMS)} off-distribution "
                            f"variants{built}; {speedup:.2f}x over the reference "
                            f"({reply.reference.median_ms:.4g} ms -> {reply.candidate.median_ms:.4g} ms, median of "
                            f"{reply.candidate.trials})"
                            + (f"; {reply.shapes.summary()}" if reply.shapes else ""))
            return reply
        except Rejected as r:
            reply.status, reply.reason, reply.error = r.status, r.reason, r.error
            if isinstance(r, TaskStateful):
                reply.flags.append(flag_text(FlagKind.TASK_STATEFUL, r.reason))
        except RunnerFailed as f:
            status = Status.TIMEOUT if f.kind == "timeout" else (Status.SUSPECT if f.kind == "protocol"
                                                                 else Status.RUNTIME_ERROR)
            reply.status, reply.reason = status, f.reason
        except torch.cuda.OutOfMemoryError as e:
            reply.status, reply.reason = Status.RUNTIME_ERROR, f"out of GPU memory in the checker: {str(e)[:300]}"
            reply.fatal = True
        except Exception as e:
            # hiera's own code (or the task's reference) raised while judging: no verdict on the candidate, and
            # said so, instead of the worker dying and the candidate being blamed for "crashing" it (a per-row
            # input at batch 1 once did that to every candidate of a module). A fresh worker takes the next one.
            reply.status, reply.fatal = Status.RUNTIME_ERROR, True
            reply.reason = checker_error_reason(e)
            reply.flags.append(flag_text(FlagKind.CHECKER_ERROR, reply.reason))
            reply.extra["checker_traceback"] = traceback.format_exc(limit=8)[-4000:]
            print(reply.extra["checker_traceback"], file=sys.stderr, flush=True)
        finally:
            if proc is not None:
                proc.cleanup()
            self._quiet(False)
            self._release()
            # What the runner said may quote host paths it read (/proc/self/mountinfo): scrubbed of every folder
            # this process gave a sandbox, before it leaves the checker (untrusted.scrub).
            reply.reason, reply.flags = scrub(reply.reason), [scrub(f) for f in reply.flags]
            if reply.shapes is not None:
                reply.shapes = replace(reply.shapes, checks=tuple(replace(c, reason=scrub(c.reason))
                                                                  for c in reply.shapes.checks))
            reply.verify_s = reply.verify_s or (_perf_counter() - t_start)
            if self.device.type == "cuda":
                # What this evaluation held at most on the device beside the runner (its copies of the inputs,
                # the shared buffers, the reference's work): the figure device_memory's shares are judged by.
                reply.extra["checker_peak_gib"] = round(torch.cuda.max_memory_allocated(self.device) / 2**30, 2)
        return reply

    @staticmethod
    def _say_shapes(reply: EvalReply, shapes: ShapeReport) -> None:
        """The other batch sizes' verdict on the reply: the report, and a flag when it was valid only at the
        given shapes (an exported file of it then serves those alone)."""
        reply.shapes = shapes
        if shapes.fixed_only:
            reply.flags.append(flag_text(FlagKind.FIXED_SHAPE, f"valid only at the shapes of get_inputs() (batch "
                                         f"{shapes.batch}); {shapes.not_valid()}"))

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
                          threads=self._threads if self.device.type == "cpu" else 0,
                          limits=rlimits(self.device.type, self.sandboxed), extra_ro=cudnn_dirs(req),
                          compile_cache=self.workdir / "compile-cache" if req.shared_compile_cache else None,
                          max_memory_bytes=host_memory_cap(self.device.type, ex), max_processes=MAX_PROCESSES)
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
            # candidate. The timed calls are held to it (clock_check.py).
            self._cal_gaps, self.overhead = calibrate(proc, ex, self.device, self.rng, self.write_unseen)
            if ex.back_to_back_groups():
                self._burst_overhead = back_to_back.calibrate(proc, self.device, self.write_unseen)
            if self.device.type == "cpu" and req.kind == "modelnew" and self._probe_runner is None:
                self._probe_checker, self._probe_runner = self._parity(proc)
            self._runner_threads = {"before_load": proc.threads()}
            self.ask(proc, "load", req.load_timeout_s, deadline, "loading the candidate")
        except BaseException:
            proc.cleanup()
            raise
        return proc

    def _parity(self, proc: CandidateProcess) -> tuple[float | None, float | None]:
        """The parity probe (wire.probe_ms) on both sides before the candidate loads: the checker's fastest and
        the runner's fastest, (None, None) if the runner gave none. The two alternate, the runner stopped while
        the checker runs it as it is while the reference is timed, so that both see the same machine (a probe
        in the runner at one moment and in the checker at another compared a busy second with a quiet one)."""
        checker = runner = math.inf
        for _ in range(wire.PROBE_ROUNDS):
            rep = proc.request("probe", 60.0)
            if not rep.ok or rep.ms is None or not math.isfinite(rep.ms):
                return None, None
            runner = min(runner, rep.ms)
            try:
                proc.freeze(True)
            except FreezeFailed:
                return None, None
            self._quiet(False)
            try:
                checker = min(checker, wire.probe_ms(torch))
            finally:
                self._quiet(True)
                proc.freeze(False)
        return checker, runner

    @staticmethod
    def _left(deadline: float) -> float:
        left = deadline - _perf_counter()
        if left <= 0:
            raise RunnerFailed("timeout", "the candidate's time limit ran out")
        return left

    def ask(self, proc: CandidateProcess, op: str, limit: float, deadline: float, what: str, **fields: Any
             ) -> wire.Reply:
        rep = proc.request(op, min(limit, self._left(deadline)), **fields)
        if not rep.ok:
            kind, detail = rep.error, rep.detail[:3000]
            status = {"space": Status.SPACE_VIOLATION, "output": Status.INCORRECT}.get(kind, Status.RUNTIME_ERROR)
            if kind == "output" and rep.suspect:
                status = Status.SUSPECT
            raise Rejected(status, f"{what}: {detail}")
        return rep

    def _verify(self, proc: CandidateProcess, ex: Exchange, req: EvalRequest, deadline: float) -> list[str]:
        """The correctness trials; returns the notes of trials that gave no verdict because the reference
        disagreed with itself there (self_disagreement)."""
        first = True
        void: list[str] = []
        judged_own = 0  # trials on the task's own distribution that gave a verdict
        trials: list[tuple[int, str, Callable[[torch.Tensor], torch.Tensor] | None]] = [
            (t, "", None) for t in range(req.correctness_trials)]
        if self.precision.low:
            # Under bf16 and fp16 a trial on inputs built to expose a sum kept at low precision comes right after
            # the task's own (accumulation.py): its verdict then names what it found.
            trials.append((0, ACCUMULATION, None))
        trials += [(t % max(req.correctness_trials, 1), name, fn) for t, (name, fn) in enumerate(TRANSFORMS)]
        for t, name, transform in trials:
            s = self.seed(req, "trial", t)
            ref = self.make_reference(s)
            inputs = self.make_inputs(self.seed(req, "inputs", t))
            if name == ACCUMULATION:
                gen = torch.Generator().manual_seed(self.seed(req, "accumulation") >> 1)
                built = accumulation.trial(inputs, gen, lambda xs, ref=ref: self.reference_outputs(ref, xs))
                if built is None:
                    continue  # the reference leaves its domain on both patterns: no verdict from it
                name, inputs, expected = built
            else:
                if transform is not None:
                    inputs = [transform(x) if isinstance(x, torch.Tensor) and x.is_floating_point() else x
                              for x in inputs]
                expected = self.reference_outputs(ref, inputs)
                if transform is not None and not all(bool(torch.isfinite(e).all()) for e in expected
                                                     if e.is_floating_point()):
                    continue  # outside the reference's own domain: no verdict from it
            off = bool(name)  # off the task's own distribution: uncapped atol, and the rounding slack
            what = f"trial {t + 1}" + (f", inputs {name}" if name else "")  # no seed: the LLM reads reasons
            # Off the task's distribution the reference can be ill-conditioned where its own scale is not
            # (rounding.py): those elements get the slack its rounding needs there (fp32's, or under bf16 and
            # fp16 how far the low-precision reference is from float64), nothing more.
            tols = [self.precision.tolerance_for(e.dtype) for e in expected]
            slacks = [] if not off else low_precision_slack(ref, inputs, expected, tols, self.reference_outputs) \
                if self.precision.low else reference_slack(ref, inputs, expected, tols,
                                                           self.seed(req, "rounding", t), self.reference_outputs)
            self.write(ex, inputs, ref)
            limit = self.first_call_limit_s(req) if first else self.call_limit_s()
            if req.kind == "modelnew":
                # The first construction may build an extension (load_inline in __init__); later ones repeat it.
                self.ask(proc, "construct", req.load_timeout_s if first else FIRST_CALL_S, deadline, what, seed=s)
            self.ask(proc, "call", limit, deadline, what, scalars=self.scalars(ref, req.contract, inputs),
                      timed=False, flush=False)
            first = False
            self.check_unchanged(ex, inputs, ref, what)
            try:
                self.compare(ex, expected, what, Status.INCORRECT, capped=not off, slacks=slacks)
            except Rejected as e:
                if e.status is not Status.INCORRECT:
                    raise
                # A forward that draws random numbers (torch.randn for an LSTM's initial state) can give outputs
                # that do not depend on them on the task's inputs and do on others (inputs scaled by 100 saturate
                # the forget gate, so the random initial cell state is kept to the end). The reference called
                # again on the same inputs then fails the same rule: the trial cannot judge anyone.
                why = self_disagreement(expected, self.reference_outputs(ref, inputs), self.precision, not off,
                                        slacks)
                if not why:
                    raise
                void.append(flag_text(FlagKind.SELF_DISAGREEMENT,
                                      f"{what} gave no verdict: the reference called twice on the same inputs "
                                      f"disagrees with itself ({why}); its forward draws random numbers or is not "
                                      "deterministic there"))
                del slacks
                continue
            judged_own += not off
            del slacks
        if req.correctness_trials and not judged_own:
            raise Rejected(Status.INCORRECT, "no trial on the task's own inputs could judge the candidate: the "
                           "reference called twice on the same inputs disagrees with itself (its forward draws "
                           "random numbers, e.g. torch.randn, or is not deterministic). To fix: make Model.forward "
                           "deterministic (pass the random state in as an input, or seed it)")
        return void

    def timing_pool(self, req: EvalRequest) -> list[list[Any]]:
        """The timing pool of input sets, each under a secret seed of this request (inputs_pool.py)."""
        return self.objects.timing_pool(lambda i: self.seed(req, "pool", i))

    def _perturber(self, req: EvalRequest, ref: torch.nn.Module, pool: Sequence[Sequence[Any]]) -> Perturber:
        """How this task's timed inputs are perturbed: decided once per checker (inputs_pool.py)."""
        # The sets it tries are made for the try alone: no copy of them for the reference.
        return self.objects.perturber(self.seed(req, "pool", 0), ref, pool,
                                      lambda r, xs: self.reference_outputs(r, xs, fresh=True))

    def _time_candidate(self, proc: CandidateProcess, ex: Exchange, req: EvalRequest, deadline: float,
                        time_reference: Callable[[int], list[float]]
                        ) -> tuple[list[float], list[float], list[str], list[float]]:
        """The candidate's timed calls. On a GPU the reference is timed afterwards, once the runner is gone (a
        runner left alive could keep the device busy with kernels already queued). On the CPU, whose load
        drifts between seconds, the reference's trials come in blocks between the candidate's, with every
        process of the runner stopped meanwhile, so that both sides see the same machine; on a GPU too for a
        host-bound forward, which runs at the host's drifting speed (evaluate then takes the faster of these
        blocks and the reference timed afterwards: timing_policy.reference_of_blocks)."""
        seed = self.seed(req, "timing")
        ref = self.make_reference(seed)
        pool = self.timing_pool(req)
        self.perturbation = perturb = self._perturber(req, ref, pool)
        scalars = self.scalars(ref, req.contract, pool[0])
        self.write(ex, pool[0], ref)
        if req.kind == "modelnew":
            self.ask(proc, "construct", FIRST_CALL_S, deadline, "timing", seed=seed)
        # Warm-up (module loads, autotuning, allocator growth) by the checker's clock: at least 3 calls and
        # 30 ms; the time per call it sees sets how many timed calls to make.
        t0 = _perf_counter()
        calls = 0
        while calls < 3 or ((_perf_counter() - t0) * 1e3 < 30.0 and calls < 1000):
            self.ask(proc, "call", self.call_limit_s(), deadline, "warm-up", scalars=scalars, timed=False,
                      flush=False)
            calls += 1
        est_ms = (_perf_counter() - t0) * 1e3 / calls
        self._runner_threads["after_warm_up"] = proc.threads()
        trials = trials_for(est_ms, req.timing_trials, self.device)
        self._trials = trials
        cand_ms: list[float] = []
        walls: list[float] = []
        ref_ms: list[float] = []
        sampled_any = False
        cpu = self.device.type == "cpu"
        # On the CPU the count is fixed (the reference's blocks are spread over it); on a GPU the calls stop
        # once their median is known closely enough (a steady kernel needs MIN_TRIALS, not the cap). Which
        # call is the last is decided before it is made, and the last is always checked: a candidate cannot
        # tell the call after which nobody looks.
        # The same on a GPU for a host-bound forward (timing_policy.host_bound), whose time drifts with the host's
        # speed between blocks; there the reference is timed once more after the runner is gone, and the faster
        # of the two is the figure (evaluate: timing_policy.reference_of_blocks).
        block = max(trials // 5, 1) if cpu or self.ref_host_bound else 0
        floor = min(floor_for(est_ms), trials)
        snap = None
        self._timing_cut = None
        for i in range(trials):
            last = i == trials - 1 or (not block and i % 5 == 0 and timing.median_settled(cand_ms, floor))
            if not last and clearly_slower(cand_ms, statistics.median(ref_ms) if ref_ms else self.ref_ms):
                # Decided before the call, as any last call is (so it is checked like one).
                last = True
                self._timing_cut = (f"timed {i + 1} of {trials} calls: every one took over {SLOWER_STOP:g}x the "
                                    "reference's time, so no more were needed")
            if snap is not None:
                self.settled_since(snap, f"timed call {i}")
            if block and i % block == 0:
                try:
                    ref_ms += self.frozen(proc, time_reference, min(block, trials - len(ref_ms)))
                except RuntimeError as e:  # torch.cuda.OutOfMemoryError is one; cuBLAS/cuDNN say it in words
                    if cpu or not _out_of_memory(e):
                        raise
                    # No room for the reference's buffers beside the runner's: the reference is timed after
                    # the runner is gone alone, as for any other GPU forward.
                    block, ref_ms = 0, []
                    torch.cuda.empty_cache()
            base = pool[i % len(pool)]
            state = perturb.state()

            def write(base: Sequence[Any] = base) -> None:
                perturb.write(ex.of_role("input"), base)
                for buf, v in zip(ex.of_role("state"), ref.state_dict().values()):
                    buf.copy_(v)
                ex.poison_outputs()

            self.write_unseen(proc, write)
            sampled = i == 0 or last or self.rng.random() < SAMPLE_RATE
            # The clock runs from before the thaw: whatever the candidate does once it can see the inputs is in
            # the call's time (on the CPU the caches were flushed here, with the inputs written: no request of
            # the runner's stands between the inputs and the timed call).
            t0 = _perf_counter()
            proc.freeze(False, wait=False)
            rep = self.ask(proc, "call", self.call_limit_s(), deadline, f"timed call {i + 1}", scalars=scalars,
                            timed=True, flush=not cpu)
            # The snapshot inside the measured span: a checker held up between the reply and its snapshot (a busy
            # machine) then counts that delay in the call's time, so outputs written late cannot both escape the
            # snapshot and go uncounted.
            snap = ex.snapshot_outputs(self.rng)
            walls.append((_perf_counter() - t0) * 1e3)
            ms = rep.ms
            if ms is None or not math.isfinite(ms) or ms < 0:
                raise Rejected(Status.SUSPECT, f"timed call {i + 1}: the runner reported no valid time ({ms!r})")
            cand_ms.append(ms)
            if sampled:
                sampled_any = True
                inputs = perturb.make(base, state)
                self.check_unchanged(ex, inputs, ref, f"timed call {i + 1}")
                self.compare(ex, self.reference_outputs(ref, inputs, fresh=True),
                              f"timed call {i + 1} disagrees with the reference on its own inputs (work skipped "
                              "when timed, or a cached result?)", Status.SUSPECT)
                del inputs
                self.settled_since(snap, f"timed call {i + 1}")
            if last:
                break
        assert sampled_any
        if snap is not None:
            self.settled_since(snap, "the last timed call")
        if block and len(ref_ms) < trials:
            ref_ms += self.frozen(proc, time_reference, trials - len(ref_ms))
        notes = list(rep.notes[:4])
        if len(pool) == 1 and not perturb.changes_every_input:
            notes.append(flag_text(FlagKind.SINGLE_TIMING_SET,
                                   "one input set fit in the timing pool (device_memory.pool_sets), and some of its "
                                   "inputs are the same on every call (" + perturb.describe() + "): a result cached "
                                   "by those inputs' addresses is not ruled out by the timing alone"))
        self._thread_counts(proc, self._runner_threads, notes)
        return cand_ms, walls, notes, ref_ms

    def write_unseen(self, proc: CandidateProcess, write: Callable[[], None], flush: bool = True) -> None:
        """`write` (a timed call's or a burst's inputs) made with every process of the runner stopped, and on the
        CPU the caches flushed after it, as the reference's are (timing_policy.reference_timer): the runner
        is left frozen, and the caller starts its clock, thaws it and sends the request. A candidate that
        watches its buffers (a helper thread filling each output the moment it is poisoned, a hook on a
        request) then computes only inside the timed span (issue 42). Through the cgroup freezer where one is
        made, else SIGSTOP (candidate_process.freeze); a runner that cannot be stopped is not timed."""
        try:
            proc.freeze(True)
        except FreezeFailed as e:
            raise Rejected(Status.SUSPECT, f"the candidate's processes could not be stopped while its inputs were "
                                           f"written ({e}): a process that keeps forking could compute before its "
                                           "timed call, so no timing is reported") from e
        try:
            write()
            if flush and self.device.type == "cpu":
                self.flusher.flush()
            timing.sync(self.device)
        except BaseException:
            proc.freeze(False)
            raise

    def _thread_counts(self, proc: CandidateProcess, counts: dict[str, int], reply_flags: list[str]) -> None:
        """The runner's threads as the checker counts them (candidate_process.threads), recorded; a flag where
        the timed calls left more than the warm-up did: threads a candidate starts as it is timed (an OpenMP
        pool is made by the first calls, and its threads wait for the next call)."""
        counts["after_timing"] = proc.threads()
        more = counts["after_timing"] - counts.get("after_warm_up", counts["after_timing"])
        if more > 0:
            reply_flags.append(flag_text(FlagKind.HELPER_THREADS,
                                         f"{more} thread(s) more in the candidate's runner after its timed calls than "
                                         f"after its warm-up ({counts}); work they do between calls is not the call's "
                                         "(the runner is stopped while inputs are written), outputs they write late "
                                         "are caught"))

    @staticmethod
    def settled_since(snap: OutputSnapshot, what: str) -> None:
        moved = snap.changed()
        if moved is not None:
            raise Rejected(Status.SUSPECT, f"{what}: output {moved} changed after the runner replied that the call "
                                           "was done (work left running past the timed span: a thread, another "
                                           "stream, or an early reply)")

    def frozen(self, proc: CandidateProcess, time_reference: Callable[[int], list[float]], n: int) -> list[float]:
        if n <= 0:
            return []
        try:
            proc.freeze(True)
        except FreezeFailed as e:
            raise Rejected(Status.SUSPECT, f"the candidate's processes could not be stopped while the reference was "
                                           f"timed beside it ({e}): a process that keeps forking would run during "
                                           "the reference's calls, so no timing is reported") from e
        self._quiet(False)
        try:
            return time_reference(n)
        finally:
            self._quiet(True)
            proc.freeze(False)

    def _reference_timer(self, req: EvalRequest) -> Callable[[int], list[float]]:
        """The reference timed here the way the runner times a candidate, on this request's timing pool
        (timing_policy.reference_timer); returns `time(n) -> n more trials`."""
        ref = self.make_reference(self.seed(req, "timing"))
        pool = self.timing_pool(req)
        perturb = self._perturber(req, ref, pool)
        return reference_timer(ref, pool, perturb, self.device, self.flusher)

    def ceilings(self, remeasure: bool = False) -> dict[str, Any]:
        """This device's measured ceilings (ceilings.py): cached, else measured now, with no runner alive; a
        measurement that fails leaves no bound, said so, and the evaluation goes on without one."""
        from engine.evaluate import ceilings

        try:
            pinned = ceilings.load(self.device)
            if remeasure and not (pinned and pinned.pinned):
                c = ceilings.save(ceilings.measure(self.device, self.flusher.buf.numel()))
            else:
                c = ceilings.for_device(self.device, self.flusher.buf.numel())
        except (RuntimeError, OSError, ValueError) as e:
            return {"ceilings": None, "why": f"measuring this device's ceilings failed ({type(e).__name__}: {e})"}
        if c is None:
            return {"ceilings": None, "why": "the ceilings are not measured (HIERA_CEILINGS=off)"}
        return {"ceilings": c.to_json(), "why": None}

    def region_times(self) -> dict[str, Any]:
        """Where the reference's forward spends its time on this device (region_times.py), with no runner alive;
        {"regions": None, "why": ...} for a module with no submodules or one whose timing failed."""
        from engine.evaluate import region_times

        ref = self.make_reference(0)
        if not region_times.timed_modules(ref):  # before its inputs are made: a single operator's can be GBs
            return {"regions": None, "why": "the module has no submodules to split its time over"}
        try:
            found = region_times.measure(ref, self.make_inputs(0), self.device)
        except (RuntimeError, TypeError, ValueError) as e:  # out of memory is a RuntimeError too
            return {"regions": None, "why": f"timing the reference's submodules failed ({type(e).__name__}: {e})"}
        if found is None:
            return {"regions": None, "why": "the module has no submodules to split its time over"}
        return {"regions": found.to_json(), "why": None}

    def close(self) -> None:
        if self._exchange is not None:
            self._exchange.close()
            self._exchange = None


def _out_of_memory(e: BaseException) -> bool:
    """Whether an error is an allocation failing on the device: PyTorch's own, or a library's reported in words
    (CUBLAS_STATUS_ALLOC_FAILED, cuDNN's "out of memory")."""
    text = str(e)
    return isinstance(e, torch.cuda.OutOfMemoryError) or "out of memory" in text.lower() or "ALLOC_FAILED" in text


def _json_args(values: Sequence[Any], where: str = "get_init_inputs()") -> list[Any]:
    import json

    out = list(values)
    try:
        json.dumps(out)
    except TypeError as e:
        raise Rejected(Status.RUNTIME_ERROR, f"{where} returned values that cannot be handed to a "
                                             f"sandboxed candidate ({e}); use numbers, strings and lists") from e
    return out
