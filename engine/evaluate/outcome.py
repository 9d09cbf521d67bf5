"""Typed data passed between the evaluation stages: candidates in, outcomes out."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from contracts import precision as precision_policy
from contracts.shapes import ShapeReport
from contracts.speed_of_light import SpeedOfLight
from contracts.verdict import timing_spread
from engine.task.compile_calls import compiles_with_inductor
from engine.task.spaces import Space
from engine.untrusted import clean, scrub


class CandidateKind(str, enum.Enum):
    CUDA = "cuda"  # cuda_source.cu against the contract's C ABI
    CPP = "cpp"  # a C++ file against the same ABI, for the CPU path
    MODELNEW = "modelnew"  # a whole KernelBench ModelNew .py (imported solutions, the no-contract mode)

    @property
    def suffix(self) -> str:
        return {"cuda": ".cu", "cpp": ".cpp", "modelnew": ".py"}[self.value]


class Status(str, enum.Enum):
    VALID = "valid"
    BUILD_FAILED = "build_failed"
    SPACE_VIOLATION = "space_violation"
    RUNTIME_ERROR = "runtime_error"
    TIMEOUT = "timeout"
    INCORRECT = "incorrect"
    SUSPECT = "suspect"


class Precision(str, enum.Enum):
    """The run's precision policy (contracts/precision.py says what each means and how a module's is found)."""

    FP32 = "fp32"  # strict IEEE fp32, TF32 off everywhere (reference included)
    TF32 = "tf32"  # TF32 allowed for matmul/conv, looser tolerance; recorded with the result
    BF16 = "bf16"  # the module computes in bfloat16 (its tensors, or torch.autocast); KernelBench's bf16 tolerance
    FP16 = "fp16"  # the same in float16

    @property
    def tolerance(self) -> float:
        # fp32: KernelBench's current 1e-4 for atol and rtol; tf32: 1e-2, what peers use for fp32 runs; bf16 and
        # fp16: KernelBench's 1e-2 for those dtypes.
        return precision_policy.TOLERANCE[self.value]

    @property
    def low(self) -> bool:
        """bf16 or fp16: accumulation is checked on built inputs (engine/evaluate/accumulation.py)."""
        return precision_policy.is_low(self.value)

    def tolerance_for(self, dtype: object) -> float:
        """The tolerance an output of `dtype` is judged with: FP64_TOLERANCE for float64 outputs under any
        policy (TF32 applies to fp32 data only), at least 1e-2 for a bf16 or fp16 output (its reference rounds
        there), the policy's own tolerance for every other dtype."""
        name = str(dtype).replace("torch.", "")
        return FP64_TOLERANCE if name == "float64" else precision_policy.tolerance_of(self.value, name)


# float64 outputs (the stencil tasks, bench/stencil): rtol = 1e-10, atol = 1e-10 * min(1, rms) as for fp32. The
# reference's own rounding is far below it: a sum of n products in fp64 is within n * 2^-53 * sum|w x| of the
# exact value in any order (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., eq. 4.4), 1.4e-14
# of sum|w x| for 125 points; sum|w x| is at most a few times the output's rms on the tasks' data (a 49-point box
# of N(0, 1) data: 0.8 against an rms of 0.14), so two fp64 summation orders differ by ~1e-13 of the rms at
# worst, a thousand times inside. Anything computed in fp32 is far outside: rounding the inputs or the weights to
# fp32 alone moves the output by ~2^-24 = 6e-8 of its scale, 600 times the tolerance.
FP64_TOLERANCE = 1e-10

# The origins of hiera's own candidates (Candidate.origin): the expert's generators, and the opener the LLM backend
# plays (the expert's CUDA-graph replay, re-captured when the input shapes change).
HIERAS_OWN = ("expert:", "hiera:")


@dataclass(frozen=True)
class Candidate:
    id: str
    kind: CandidateKind
    source: str
    space: Space | None = None  # the space the candidate claims; None = check against the run's space
    origin: str = "user"  # who made it: "user", "expert:<generator>", "llm:<model>"
    note: str = ""  # a short description (strategy, variant parameters)

    @property
    def hieras_own(self) -> bool:
        """Whether hiera made this candidate from the reference (the expert's generators, or the opener the LLM
        backend plays: the expert's CUDA-graph replay), not a model's reply or a user's file."""
        return self.origin.startswith(HIERAS_OWN)

    @property
    def hieras_compile(self) -> bool:
        """hiera's own torch.compile ModelNew (the expert's): trusted code, compiled ahead into the run's shared
        cache (pipeline), and priced by its compile (loop_plan). A compile from anywhere else gets no cache."""
        return (self.kind is CandidateKind.MODELNEW and self.origin.startswith("expert:")
                and compiles_with_inductor(self.source))


@dataclass(frozen=True)
class BuildResult:
    ok: bool
    artifact: str | None  # the built .so (or the .py path for ModelNew candidates)
    seconds: float
    cached: bool
    log: str  # the compiler's output (errors first on failure)
    command: str = ""


@dataclass(frozen=True)
class Timing:
    median_ms: float
    min_ms: float
    max_ms: float
    mean_ms: float
    std_ms: float
    p25_ms: float
    p75_ms: float
    trials: int
    method: str  # "cuda_events+device_sync+l2_flush" or "perf_counter"
    # The timed calls themselves, in the order they were made (6 significant digits): what the interval of a
    # figure is computed from (contracts/verdict.py ratio_interval). Empty in records before they were kept.
    samples: tuple[float, ...] = ()

    @property
    def spread(self) -> float:
        """Interquartile range over the median: the relative noise of this measurement."""
        return timing_spread(self.p25_ms, self.p75_ms, self.median_ms)

    @staticmethod
    def from_samples(samples: list[float], method: str) -> Timing:
        s = sorted(samples)
        n = len(s)
        mean = sum(s) / n
        std = (sum((x - mean) ** 2 for x in s) / max(n - 1, 1)) ** 0.5
        return Timing(quantile(s, 0.5), s[0], s[-1], mean, std, quantile(s, 0.25), quantile(s, 0.75), n, method,
                      tuple(float(f"{x:.6g}") for x in samples))

    @staticmethod
    def pooled(timings: list[Timing]) -> Timing:
        """One timing of several timings' samples together (more pairs of the same candidate: engine/retiming.py);
        the first one alone when any of them kept no samples."""
        if any(not t.samples for t in timings):
            return timings[0]
        return Timing.from_samples([x for t in timings for x in t.samples], timings[0].method)


def quantile(ordered: list[float], p: float) -> float:
    """The p-quantile of sorted samples, interpolated between neighbours."""
    k = (len(ordered) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


@dataclass(frozen=True)
class ErrorStats:
    """How far an output is from the reference, at its worst element."""

    max_abs: float
    max_rel: float
    where: str  # e.g. "out[3, 1021]"
    expected: float
    got: float
    mismatches: int
    total: int


@dataclass(frozen=True)
class Outcome:
    candidate_id: str
    status: Status
    reason: str
    flags: tuple[str, ...] = ()
    candidate: Timing | None = None
    reference: Timing | None = None
    error: ErrorStats | None = None
    build_s: float | None = None
    verify_s: float | None = None
    time_s: float | None = None
    precision: Precision = Precision.FP32
    device: str = ""  # what it ran on ("cuda:0", "cpu")
    device_name: str = ""  # that device's name ("NVIDIA H200"); the views join the two (wording.device_words)
    extra: dict[str, Any] = field(default_factory=dict)
    # What it was found valid on at other batch sizes (issue 29); None: not checked (a task that fixes its
    # shapes, a kind left out, an invalid verdict).
    shapes: ShapeReport | None = None
    # The candidate's time against the task's speed-of-light bound on this device (engine/evaluate/
    # speed_of_light.py); None where there is no bound or no valid time.
    speed_of_light: SpeedOfLight | None = None

    def __post_init__(self) -> None:
        # The reason and the flags carry text the candidate controls (its compiler's log, its runner's error,
        # its notes); every display of an outcome (terminal, editor, the LLM's prompt, the store) reads it from
        # here, so it is made inert once, here.
        # Host paths it may have learned (/proc/self/mountinfo) are scrubbed too (untrusted.scrub).
        object.__setattr__(self, "reason", scrub(clean(self.reason)))
        object.__setattr__(self, "flags", tuple(scrub(clean(f)) for f in self.flags))
        if self.shapes is not None:  # its reasons quote the candidate's runner too
            checks = tuple(replace(c, reason=scrub(clean(c.reason))) for c in self.shapes.checks)
            object.__setattr__(self, "shapes", replace(self.shapes, checks=checks))

    @property
    def valid(self) -> bool:
        return self.status is Status.VALID

    @property
    def speedup(self) -> float | None:
        if self.valid and self.candidate and self.reference and self.candidate.median_ms > 0:
            return self.reference.median_ms / self.candidate.median_ms
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "candidate_id": self.candidate_id,
            "status": self.status.value,
            "reason": self.reason,
            "flags": list(self.flags),
            "speedup": self.speedup,
            "candidate_ms": self.candidate.median_ms if self.candidate else None,
            "reference_ms": self.reference.median_ms if self.reference else None,
            "timing": {"candidate": asdict(self.candidate) if self.candidate else None,
                       "reference": asdict(self.reference) if self.reference else None},
            "error": asdict(self.error) if self.error else None,
            "build_s": self.build_s,
            "verify_s": self.verify_s,
            "time_s": self.time_s,
            "device": self.device,
            "device_name": self.device_name,
            "precision": self.precision.value,
            "shapes": self.shapes.to_json() if self.shapes else None,
            "speed_of_light": self.speed_of_light.to_json() if self.speed_of_light else None,
            **({"extra": self.extra} if self.extra else {}),
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> Outcome:
        t = d.get("timing") or {}
        return Outcome(
            candidate_id=d["candidate_id"], status=Status(d["status"]), reason=d["reason"],
            flags=tuple(d.get("flags", ())),
            candidate=_timing(t.get("candidate")), reference=_timing(t.get("reference")),
            error=ErrorStats(**d["error"]) if d.get("error") else None,
            build_s=d.get("build_s"), verify_s=d.get("verify_s"), time_s=d.get("time_s"),
            precision=Precision(d.get("precision", "fp32")), device=d.get("device", ""),
            device_name=d.get("device_name", ""), extra=d.get("extra", {}),
            shapes=ShapeReport.from_json(d["shapes"]) if isinstance(d.get("shapes"), dict) else None,
            speed_of_light=SpeedOfLight.from_json(d.get("speed_of_light")),
        )


def _timing(d: dict[str, Any] | None) -> Timing | None:
    if not d:
        return None
    return Timing(**{**d, "samples": tuple(d.get("samples") or ())})
