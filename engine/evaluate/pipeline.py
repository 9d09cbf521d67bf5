"""The evaluation pipeline: space check -> build (parallel) -> verify and time (worker) -> Outcome."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from contracts.device import CPU, Device, DeviceFacts
from contracts.regions import RegionTimes
from contracts.shapes import draw_sizes
from contracts.speed_of_light import Ceilings
from engine.evaluate.build import BuildConfig, build_many
from engine.evaluate.outcome import BuildResult, Candidate, CandidateKind, Outcome, Precision, Status
from engine.evaluate.requests import EvalReply, EvalRequest
from engine.evaluate.sandbox import probe
from engine.evaluate.speed_of_light import Bound, bound_for, check, suspect_flag
from engine.evaluate.worker import Worker, WorkerDied, WorkerLimits
from engine.task.contract import contract_layout, write_contract
from engine.task.hidden_text import refusal
from engine.task.spaces import Space, check_source
from engine.task.spec import TaskSpec


def resolve_device(device: str) -> Device:
    """The Device a flag or setting names: 'auto' is CUDA device 0 where one exists, else the CPU; a CUDA device
    must exist here. Raises ValueError with what to give instead."""
    import torch

    if device == "auto":
        return Device("cuda", 0) if torch.cuda.is_available() else CPU
    try:
        d = Device.parse(device)
    except ValueError:
        raise ValueError(f"--device {device}: expected cpu, cuda, cuda:N or auto") from None
    if d.is_cuda:
        if not torch.cuda.is_available():
            raise ValueError(f"--device {device}: no CUDA device is available here; use --device cpu")
        if d.index >= torch.cuda.device_count():
            raise ValueError(f"--device {device}: only {torch.cuda.device_count()} CUDA device(s) exist")
    return d


@dataclass(frozen=True)
class EvalSettings:
    device: Device = CPU  # text ("cpu", "cuda:1") is parsed on construction
    precision: Precision = Precision.FP32
    space: Space = Space.LIBRARIES_PYTORCH  # the largest space a candidate may use
    correctness_trials: int = 5
    timing_trials: int = 100
    seed: int = 1234
    # Per-candidate limit on verifying and timing it (a hang or a far too slow kernel ends as `timeout`).
    # None: derived from the reference's own time (a candidate far slower than the reference times out in
    # seconds, not minutes), capped at 600 s.
    request_timeout_s: float | None = None
    build_timeout_s: float = 120.0  # one candidate's compile; past it the candidate is `build_failed`
    # Candidate code (its compiler, its runner) runs in a bubblewrap sandbox. False only on an explicit
    # opt-out (--no-sandbox), never silently.
    sandbox: bool = True
    min_call_limit_s: float = 0.0  # see EvalRequest.min_call_limit_s
    # Which candidates are also verified and briefly timed at other batch sizes (issue 29, variants.py): "contract"
    # (.cu/.cpp candidates, a size costs them well under a second, and every ModelNew file but hiera's own: one a
    # model or a user wrote may hard-code its batch, and its delivered file guards the sizes it was found valid
    # at), "all" (hiera's own ModelNew candidates too: a torch.compile one with dynamic=False compiles again at
    # each new size, seconds each, which a deadline run cannot afford), "off".
    shape_variants: str = "contract"
    # Back-to-back calls timed by the checker's clock as a floor under the candidate's figure (back_to_back.py):
    # False, none; how many calls a burst makes (0: planned from the reference's time).
    back_to_back: bool | None = None
    back_to_back_sets: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "device", Device.parse(self.device))


class Evaluator:
    """Evaluates candidates for one task on one device. Use as a context manager (owns a worker)."""

    def __init__(self, task: TaskSpec, workdir: Path, settings: EvalSettings, cache_dir: Path | None = None):
        self.task = task
        self.settings = settings
        self.workdir = workdir
        self.contract_dir = workdir / "contract"
        self.paths = write_contract(task, self.contract_dir)
        self.layout = contract_layout(task)
        self.cache_dir = cache_dir or workdir / "build-cache"
        if settings.sandbox:
            # Said once, before anything runs: without the sandbox no candidate is evaluated unless the user
            # opted out (SandboxUnavailable's message says how).
            probe(settings.device.is_cuda, str(workdir / "sandbox-probe"))
        # The checker enforces each candidate's own limits; this one only ends a checker that stopped answering.
        self.worker = Worker(str(task.path), str(settings.device), settings.precision.value,
                             WorkerLimits(per_request_s=(settings.request_timeout_s or 600.0) + 120.0),
                             workdir=str(workdir / "eval"), sandboxed=settings.sandbox)
        # What the worker found of the device (DeviceFacts() until it starts); its ceilings once measured.
        self.device_facts = DeviceFacts()
        self.warm_s = 0.0  # the latest compiles ahead (evaluate): what a torch.compile candidate cost to compile
        self._bound: Bound | str | None = None  # the task's speed of light here, once the ceilings are known
        self._remeasured = False  # the ceilings were measured again before a time was refused

    def __enter__(self) -> Evaluator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self, now: bool = False) -> None:
        """End the worker; now: without waiting for it to finish a candidate it is in the middle of (a run that
        stopped has said its result already)."""
        self.worker.close(wait_s=0.0 if now else 2.0)

    def ensure_worker(self) -> DeviceFacts:
        if not self.worker.alive():
            started = self.worker.start()
            # A restarted worker keeps the ceilings measured before (they are the device's, not the worker's).
            c = self.device_facts.ceilings
            self.device_facts = started.with_ceilings(c) if c is not None and started.ceilings is None else started
        return self.device_facts

    def speed_of_light(self, remeasure: bool = False) -> Bound | str:
        """The task's speed-of-light bound on this device (or why there is none), from its graph and the device's
        measured ceilings. Asked before the first build, so that a first measurement has the device to itself;
        `remeasure`: measure the ceilings again (merged with the cache: each can only rise)."""
        if self._bound is None or remeasure:
            self.ensure_worker()
            answer = self.worker.ceilings(remeasure)
            c = Ceilings.from_json(answer.get("ceilings"))
            if c is not None:
                self.device_facts = self.device_facts.with_ceilings(c)
            self._bound = (bound_for(self.task, c, self.settings.precision.value, self.settings.device.is_cuda)
                           if c is not None else f"no speed of light: {answer.get('why')}")
        return self._bound

    def region_times(self, timeout_s: float = 60.0) -> RegionTimes | str:
        """Where the reference's forward spends its time on this device (contracts/regions.py), or why that is not
        known. Asked before the first build, so the timing has the device to itself."""
        self.ensure_worker()
        answer = self.worker.regions(timeout_s)
        found = RegionTimes.from_json(answer.get("regions"))
        return found if found is not None else str(answer.get("why") or "no answer")

    @property
    def build_config(self) -> BuildConfig:
        cap = self.device_facts.capability
        return BuildConfig(self.contract_dir, self.cache_dir, cuda_arch=None if cap is None else str(cap),
                           timeout_s=self.settings.build_timeout_s, sandboxed=self.settings.sandbox)

    def space_of(self, cand: Candidate) -> Space:
        space = cand.space or self.settings.space
        return space if self.settings.space.allows(space) else self.settings.space

    def _precheck(self, cand: Candidate) -> Outcome | None:
        hidden = refusal(cand.source)
        if hidden is not None:  # before anything reads it as code: the compiler, a reviewer, an export
            return Outcome(cand.id, Status.BUILD_FAILED, hidden)
        space = self.space_of(cand)
        python = cand.kind is CandidateKind.MODELNEW
        violations = check_source(cand.source, space, python=python)
        if violations:
            return Outcome(cand.id, Status.SPACE_VIOLATION,
                           "; ".join(v.describe(space) for v in violations[:5]),
                           extra={"lines": [v.line for v in violations]})
        on_cuda = self.settings.device.is_cuda
        if cand.kind is CandidateKind.CUDA and not on_cuda:
            return Outcome(cand.id, Status.RUNTIME_ERROR,
                           "a CUDA candidate needs a CUDA device; this run is on the CPU (use a C++ candidate "
                           "or run on a GPU machine)")
        if cand.kind is CandidateKind.CPP and on_cuda:
            return Outcome(cand.id, Status.RUNTIME_ERROR,
                           "a C++ (CPU) candidate cannot run on a CUDA device; use a .cu candidate")
        return None

    def evaluate(self, cands: Sequence[Candidate],
                 on_outcome: Callable[[Candidate, Outcome], None] | None = None,
                 on_start: Callable[[Candidate], None] | None = None,
                 admit: Callable[[Candidate, str], bool] | None = None,
                 cap: Callable[[float], float] | None = None) -> list[Outcome]:
        """Evaluate a batch, cheapest first, so the first valid answer comes early: whole ModelNew files that
        need no compile, then the contract sources (built in parallel), then hiera's torch.compile candidates
        (compiled together ahead of their evaluations). Within each stage, in the order given.

        admit (the loop's deadline): asked admit(c, "compile") before a torch.compile candidate is compiled
        ahead, admit(c, "uncompiled") when that compile did not finish, and admit(c, "evaluate") just before each
        candidate's evaluation; one it refuses is not evaluated
        and gets no outcome (the caller names it). cap: holds a step's time limit (a build, a compile, a
        candidate's evaluation) inside what the caller has left. The outcomes of the candidates evaluated, in
        the order given; `warm_s` is then the wall time the compiles ahead took."""
        self.ensure_worker()
        capped = cap or (lambda s: s)
        self.speed_of_light()
        outcomes: dict[str, Outcome] = {}

        def report(c: Candidate, o: Outcome) -> None:
            outcomes[c.id] = self._finish(o)
            if on_outcome:
                on_outcome(c, outcomes[c.id])

        checked = []
        for c in cands:
            pre = self._precheck(c)
            if pre is not None:
                report(c, pre)
            else:
                checked.append(c)
        plain = [c for c in checked if c.kind is CandidateKind.MODELNEW and not c.hieras_compile]
        sources = [c for c in checked if c.kind is not CandidateKind.MODELNEW]
        compiled = [c for c in checked if c.hieras_compile]
        for stage in (plain, sources, compiled):
            if stage is compiled and admit is not None:
                stage = [c for c in stage if admit(c, "compile")]
            if not stage:
                continue
            built = build_many(stage, replace(self.build_config, timeout_s=capped(self.settings.build_timeout_s)))
            warmed = {c.id for c in stage}
            if stage is compiled:
                t0 = time.perf_counter()
                warmed = self._warm_compiles(stage, capped)
                self.warm_s = time.perf_counter() - t0
            for c in stage:
                # One whose compile ahead did not finish (its limit held inside the caller's time) would compile
                # again inside its own evaluation: "uncompiled" asks whether that still fits.
                if admit is not None and c.id not in warmed and not admit(c, "uncompiled"):
                    continue
                if admit is not None and not admit(c, "evaluate"):
                    continue
                if on_start:
                    on_start(c)
                b = built[c.id]
                if not b.ok:
                    report(c, Outcome(c.id, Status.BUILD_FAILED, b.log[:4000] or "build failed", build_s=b.seconds))
                else:
                    report(c, self._run(c, b, capped))
        return [outcomes[c.id] for c in cands if c.id in outcomes]

    @property
    def compile_cache(self) -> Path:
        """The torch.compile cache hiera's own ModelNew candidates share (the checker's workdir/compile-cache)."""
        return self.workdir / "eval" / "compile-cache"

    def _modelnew_file(self, cand: Candidate) -> Path:
        path = self.workdir / "candidates" / f"{cand.id}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(cand.source)
        return path

    def _warm_compiles(self, cands: Sequence[Candidate], capped: Callable[[float], float] = lambda s: s) -> set[str]:
        """Compile a round's torch.compile candidates (hiera's own) together, ahead of their evaluations: each
        runner then loads its graphs from the shared cache instead of compiling inside its verification. The ids
        of those whose compile ahead finished (all of them where none is compiled ahead: on the CPU)."""
        if not cands or not self.settings.device.is_cuda:
            return {c.id for c in cands}
        from concurrent.futures import ThreadPoolExecutor

        from engine.evaluate.candidate_process import RunnerSpec, warm_compile

        def warm(c: Candidate) -> bool:
            spec = RunnerSpec(kind="modelnew", device=str(self.settings.device), space=self.space_of(c).value,
                              artifact=self._modelnew_file(c), sandboxed=self.settings.sandbox,
                              workdir=self.workdir / "eval" / "warm",
                              limits={"file_bytes": 8 << 30, "cpu_s": 3600}, compile_cache=self.compile_cache,
                              max_processes=2048)
            spec.workdir.mkdir(parents=True, exist_ok=True)
            ok, _log = warm_compile(spec, self.settings.precision.value,
                                    capped(max(self.settings.build_timeout_s, 300.0)))
            return ok

        with ThreadPoolExecutor(max_workers=min(len(cands), 6)) as pool:
            done = list(pool.map(warm, cands))
        return {c.id for c, ok in zip(cands, done) if ok}

    def _finish(self, out: Outcome) -> Outcome:
        return self._against_light(replace(out, device=str(self.settings.device), device_name=self.device_name(),
                                           precision=self.settings.precision))

    def _against_light(self, out: Outcome) -> Outcome:
        """A valid time beside the task's bound; one faster than the bound beyond its spread is not credited
        (`suspect`, naming the bytes, the FLOPs, the ceiling and the time). The trust decision is the checker
        side's: the bound comes from the task's graph and the measured ceilings, nothing the candidate says."""
        b = self._bound
        if not (out.valid and out.candidate and out.candidate.median_ms > 0):
            return out
        if not isinstance(b, Bound):
            return replace(out, extra={**out.extra, "speed_of_light": b}) if b else out
        ms, spread = out.candidate.median_ms, out.candidate.spread
        why = check(b, ms, spread)
        if why is not None and not self._remeasured:
            # Before refusing a time, make sure the ceilings are not what is wrong: a first measurement taken
            # while the machine was busy reads low. Measured again now (the runner is gone), each can only rise.
            self._remeasured = True
            again = self.speed_of_light(remeasure=True)
            if not isinstance(again, Bound):
                return out
            b, why = again, check(again, ms, spread)
        sol = b.figure(ms)
        if why is None:
            return replace(out, speed_of_light=sol)
        return replace(out, status=Status.SUSPECT, reason=why, flags=(*out.flags, suspect_flag(b, ms)),
                       speed_of_light=sol, shapes=None)

    def device_name(self) -> str:
        """The evaluating device's name ("NVIDIA H200", the CPU's), "" before the worker said it."""
        return self.device_facts.name or ""

    def _run(self, cand: Candidate, b: BuildResult, capped: Callable[[float], float] = lambda s: s) -> Outcome:
        artifact = b.artifact
        if cand.kind is CandidateKind.MODELNEW:
            artifact = str(self._modelnew_file(cand))
        req = EvalRequest(
            candidate_id=cand.id, kind=cand.kind.value, artifact=str(artifact),
            contract=self.layout if cand.kind is not CandidateKind.MODELNEW else None,
            correctness_trials=self.settings.correctness_trials, timing_trials=self.settings.timing_trials,
            seed=self.settings.seed, space=self.space_of(cand).value, timeout_s=self._limit(capped),
            shared_compile_cache=cand.origin.startswith("expert:"), min_call_limit_s=self.settings.min_call_limit_s,
            back_to_back=self.settings.back_to_back, back_to_back_sets=self.settings.back_to_back_sets,
            **self._variants_for(cand),
        )
        t0 = time.perf_counter()
        try:
            reply = self.worker.evaluate(req)
        except WorkerDied as e:
            reply = EvalReply(cand.id, Status.RUNTIME_ERROR, str(e), fatal=True)
        if reply.fatal and reply.status is Status.RUNTIME_ERROR and "restarted" not in reply.reason:
            reply.reason += " (the device was left unusable; the worker was restarted)"
        return Outcome(
            cand.id, reply.status, reply.reason, tuple(reply.flags), reply.candidate, reply.reference,
            reply.error, build_s=b.seconds, verify_s=reply.verify_s or (time.perf_counter() - t0),
            time_s=reply.time_s, extra={"build_cached": b.cached, "load_s": reply.load_s, **reply.extra},
            # the sizes were drawn for this candidate here (_variants_for), where it could not read them
            shapes=replace(reply.shapes, drawn=bool(req.variants)) if reply.status is Status.VALID and reply.shapes
            else None,
        )

    def _limit(self, capped: Callable[[float], float]) -> float | None:
        """A candidate's whole evaluation limit: the settings' (None: the checker's own, 600 s at most), held
        inside what the caller has left."""
        limit = self.settings.request_timeout_s
        held = capped(limit if limit is not None else 600.0)
        return None if limit is None and held >= 600.0 else held

    def _variants_for(self, cand: Candidate) -> dict[str, object]:
        """The batch sizes the request checks the candidate at besides the task's own, drawn afresh for this
        candidate inside the range the reference accepts (shapes.draw_sizes: no fixed list a kernel could be
        written for; none when the task fixes its shapes, or the settings leave this candidate out: "off", or
        under "contract" hiera's own ModelNew candidates, made from the reference and keyed on their inputs'
        shapes, whose torch.compile would compile again at each size)."""
        batch, mode = self.task.batch, self.settings.shape_variants
        if batch is None or mode == "off" or (mode == "contract" and cand.kind is CandidateKind.MODELNEW
                                              and cand.hieras_own):
            return {}
        return {"batch": batch.size, "variants": draw_sizes(batch.size, *batch.bounds)}


def candidate_from_file(path: Path, device: Device | str, space: Space | None = None,
                        cid: str | None = None) -> Candidate:
    """A candidate from a user's file: .cu (CUDA, contract ABI), .cpp/.cc (CPU, contract ABI), .py (ModelNew)."""
    suffix = path.suffix.lower()
    kind = {".cu": CandidateKind.CUDA, ".cpp": CandidateKind.CPP, ".cc": CandidateKind.CPP,
            ".cxx": CandidateKind.CPP, ".py": CandidateKind.MODELNEW}.get(suffix)
    if kind is None:
        raise ValueError(f"{path}: unknown candidate type {suffix!r}; expected .cu, .cpp or a ModelNew .py")
    source = path.read_text()
    import hashlib

    return Candidate(cid or f"{path.stem}-{hashlib.sha256(source.encode()).hexdigest()[:8]}", kind, source,
                     space, origin="user", note=str(path))


def describe_settings(s: EvalSettings) -> str:
    return json.dumps({"device": str(s.device), "precision": s.precision.value, "space": s.space.value,
                       "correctness_trials": s.correctness_trials, "timing_trials": s.timing_trials})
