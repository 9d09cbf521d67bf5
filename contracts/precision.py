"""Precision policies: what a module computes in, the tolerance its candidates are held to, and how a run's
policy is found from the module itself (issue 43).

A policy names the arithmetic the reference does and the candidates may do:

  fp32  strict IEEE fp32, TF32 off everywhere (the reference included)
  tf32  fp32 data, TF32 allowed for matrix products and convolutions (the user's choice, reported)
  bf16  the module computes in bfloat16: its parameters or inputs are bf16, or its forward runs under
        torch.autocast(dtype=torch.bfloat16)
  fp16  the same in float16

The tolerance of each is KernelBench's for that dtype as the floor to meet (src/eval.py,
get_tolerance_for_precision: fp32 1e-4, fp16 and bf16 1e-2, used there as atol = rtol): hiera's rule,
|out - ref| <= atol + rtol * |ref| with rtol = tol and atol = tol * min(1, rms(ref)) on the task's own inputs
(engine/evaluate/verify.py), never accepts what KernelBench would refuse.

The module's own policy comes from its tensors (engine/task/spec.py describes every input, parameter, buffer
and output with its dtype, and the fx graph each intermediate's) and from an autocast region in its source;
`--precision` overrides it, looser only: a bf16 module cannot be held to fp32's 1e-4 (its reference's own
rounding is ~4e-3), so a tighter override is refused with what to do.

Imports nothing beyond the standard library (the language server and the CLI read it without torch).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Any

POLICIES = ("fp32", "tf32", "bf16", "fp16")
AUTO = "auto"

# The policy's tolerance (rtol; atol is the same scaled by min(1, rms(ref)) on the task's own inputs).
TOLERANCE = {"fp32": 1e-4, "tf32": 1e-2, "bf16": 1e-2, "fp16": 1e-2}
# KernelBench's per-dtype tolerance (atol = rtol), the floor hiera's rule meets.
KERNELBENCH = {"fp32": 1e-4, "tf32": 1e-4, "bf16": 1e-2, "fp16": 1e-2}
# The tensor dtype of each low-precision policy, and back.
LOW_DTYPES = {"bf16": "bfloat16", "fp16": "float16"}
POLICY_OF_DTYPE = {"bfloat16": "bf16", "float16": "fp16"}
# How loose each policy is: an override may loosen the module's own policy, never tighten it.
_LOOSENESS = {"fp32": 0, "tf32": 1, "bf16": 2, "fp16": 2}
_TORCH_DTYPE_NAMES = {"bfloat16": "bfloat16", "bf16": "bfloat16", "float16": "float16", "half": "float16",
                      "fp16": "float16"}


def is_low(policy: str) -> bool:
    """bf16 or fp16: the policies whose candidates' accumulation is checked on built inputs."""
    return policy in LOW_DTYPES


def tolerance_of(policy: str, dtype: str | None = None) -> float:
    """The tolerance an output of `dtype` is judged with under `policy`: float64 outputs keep the fp64 rule
    (FP64_TOLERANCE in engine/evaluate/outcome.py decides those), a bf16 or fp16 output is never held tighter
    than its own dtype's 1e-2 (its reference rounds there), every other output gets the policy's."""
    tol = TOLERANCE[policy]
    if dtype in POLICY_OF_DTYPE:
        tol = max(tol, TOLERANCE[POLICY_OF_DTYPE[dtype]])
    return tol


def tolerance_json(policy: str) -> dict[str, Any]:
    """The tolerance recorded with a result: what it is, what it meets, and how accumulation was checked."""
    tol = TOLERANCE[policy]
    out: dict[str, Any] = {
        "rtol": tol, "atol": tol, "atol_scaled_by": "min(1, rms(reference)) on the task's own inputs",
        "kernelbench": {"atol": KERNELBENCH[policy], "rtol": KERNELBENCH[policy]},
        "float64_outputs": 1e-10,
    }
    if is_low(policy):
        out["accumulation"] = ("checked on built inputs: values that cancel along every dim, so a sum kept in "
                               f"{LOW_DTYPES[policy]} loses what fp32 keeps")
    return out


@dataclass(frozen=True)
class ModulePrecision:
    """The policy a module computes in, and why (for the run's notice and the result)."""

    policy: str
    why: str
    autocast: str | None = None  # the autocast dtype its source asks for ("bfloat16" | "float16"), if any


def module_precision(spec: Any, source: str | None = None) -> ModulePrecision:
    """The module's own policy from its dtypes (inputs, parameters, buffers, outputs, the graph's
    intermediates) and from an autocast region in its source. `spec` is an engine.task.spec.TaskSpec."""
    seen: dict[str, str] = {}
    for a in spec.args:
        if a.tensor is not None and a.tensor.dtype in POLICY_OF_DTYPE:
            seen.setdefault(a.tensor.dtype, f"{a.role} '{a.name}' is {a.tensor.dtype}")
    for name, t in spec.outputs:
        if t.dtype in POLICY_OF_DTYPE:
            seen.setdefault(t.dtype, f"output '{name}' is {t.dtype}")
    for n in spec.graph or ():
        if n.dtype in POLICY_OF_DTYPE:
            seen.setdefault(n.dtype, f"the forward computes '{n.name}' in {n.dtype}")
    if source is None:
        try:
            source = Path(spec.path).read_text()
        except OSError:
            source = ""
    cast = autocast_in_source(source)
    if cast is not None:
        dtype, line = cast
        seen.setdefault(dtype, f"its forward runs under torch.autocast ({dtype}, line {line})")
    if not seen:
        return ModulePrecision("fp32", "every floating-point tensor of the module is float32")
    # bf16 first when both appear: its 8-bit significand is the coarser of the two.
    dtype = "bfloat16" if "bfloat16" in seen else "float16"
    return ModulePrecision(POLICY_OF_DTYPE[dtype], seen[dtype], cast[0] if cast else None)


class PrecisionRefused(ValueError):
    """An override the module cannot be held to; the message says what to do."""


def resolve(requested: str | None, found: ModulePrecision) -> tuple[str, str]:
    """(the run's policy, a sentence on where it came from). `requested` is --precision (None or "auto": the
    module's own). An override may loosen the module's policy (fp32 -> tf32, bf16 or fp16), never tighten it."""
    if requested in (None, AUTO):
        return found.policy, f"precision {found.policy} from the module: {found.why}"
    if requested not in POLICIES:
        raise PrecisionRefused(f"--precision {requested} is not a policy; use one of {', '.join((AUTO, *POLICIES))}")
    if requested == found.policy:
        return requested, f"precision {requested} (--precision; the module's own: {found.why})"
    if _LOOSENESS[requested] < _LOOSENESS[found.policy] or (is_low(requested) and is_low(found.policy)):
        raise PrecisionRefused(
            f"--precision {requested} cannot judge this module: it computes in {found.policy} ({found.why}), "
            f"and its outputs cannot be held to {requested}'s tolerance of {TOLERANCE[requested]:g}; leave "
            f"--precision out (or pass --precision {found.policy}), or cast the module to the precision you mean")
    return requested, (f"precision {requested} by --precision, looser than the module's own {found.policy} "
                       f"({found.why}); recorded with the result")


_AUTOCAST_NAMES = {"autocast"}


def autocast_in_source(source: str) -> tuple[str, int] | None:
    """(dtype, line) of the first torch.autocast / torch.cuda.amp.autocast / torch.cpu.amp.autocast region
    (a `with` or a decorator) in the source, None when there is none or the source does not parse. The dtype is
    the call's `dtype=` where it names one, else autocast's default for its device type (cuda and
    torch.cuda.amp: float16; cpu and torch.cpu.amp: bfloat16)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    calls: list[ast.Call] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.With, ast.AsyncWith)):
            calls += [i.context_expr for i in node.items if isinstance(i.context_expr, ast.Call)]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            calls += [d for d in node.decorator_list if isinstance(d, ast.Call)]
    for call in sorted(calls, key=lambda c: c.lineno):
        name = _dotted(call.func)
        if name.split(".")[-1] not in _AUTOCAST_NAMES:
            continue
        if _enabled(call) is False:
            continue
        dtype = _kw_dtype(call)
        if dtype is None:
            device = _device_type(call, name)
            dtype = "bfloat16" if device == "cpu" else "float16"
        return dtype, call.lineno
    return None


def _dotted(e: ast.AST) -> str:
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Attribute):
        return f"{_dotted(e.value)}.{e.attr}"
    return ""


def _kw(call: ast.Call, name: str) -> ast.AST | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _enabled(call: ast.Call) -> bool | None:
    v = _kw(call, "enabled")
    return v.value if isinstance(v, ast.Constant) and isinstance(v.value, bool) else None


def _kw_dtype(call: ast.Call) -> str | None:
    v = _kw(call, "dtype")
    if v is None and len(call.args) > 1:  # torch.autocast("cuda", torch.bfloat16)
        v = call.args[1]
    if v is None:
        return None
    return _TORCH_DTYPE_NAMES.get(_dotted(v).split(".")[-1])


def _device_type(call: ast.Call, name: str) -> str:
    if ".cpu." in f".{name}.":
        return "cpu"
    if ".cuda." in f".{name}.":
        return "cuda"
    v = _kw(call, "device_type") or (call.args[0] if call.args else None)
    return v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "cuda"


def precision_phrase(policy: str | None) -> str:
    """How a figure says what it was judged at, e.g. "at bf16 (rtol 0.01, atol 0.01 x min(1, rms))"; "" for a
    result older than the field."""
    if not policy or policy not in TOLERANCE:
        return ""
    tol = TOLERANCE[policy]
    return f"at {policy} (rtol {tol:g}, atol {tol:g} x min(1, rms))"


def tolerance_words(policy: str) -> str:
    """The policy's tolerance in words, e.g. "bf16 (rtol 0.01, atol 0.01 x min(1, rms); meets KernelBench's
    1e-2)"; tf32 says it is looser than KernelBench's fp32 check."""
    tol, kb = TOLERANCE[policy], KERNELBENCH[policy]
    meets = f"meets KernelBench's {kb:g}" if tol <= kb else f"looser than KernelBench's fp32 {kb:g}: TF32 allowed"
    return f"{policy} (rtol {tol:g}, atol {tol:g} x min(1, rms); {meets})"
