"""Derive a task's frozen contract and write its files.

The contract fixes one C entry point that a candidate implements:

    int hiera_forward(const hiera_tensor* <input>..., const hiera_tensor* <param/buffer>...,
                      <scalar constants>..., hiera_tensor* <output>..., void* stream);

A candidate is then one source file (`cuda_source.cu`, or a C++ file on the CPU path) that includes only
`hiera_contract.h` and what it needs itself. Why a C ABI and not a torch binding per candidate: a `.cu`
that includes `torch/extension.h` takes about a minute to compile, one that includes only
`cuda_runtime.h` a second or two (BENCHMARKS.md, its first table). The torch binding (`cpp_source.cpp`) is
compiled only when a result is exported as a self-contained KernelBench ModelNew.

Files written (all frozen: the model writes only the candidate source):
  groundtruth.py         the reference task, verbatim
  hiera_contract.h       the C ABI: the tensor view struct and the forward's declaration
  cpp_source.cpp         the PyTorch binding of that forward (used by the exported ModelNew)
  torch_demo.py          ModelNew holding exactly the reference's parameters, calling the candidate
  params_semantics.json  every argument's role, shape, dtype, layout and constraints, the outputs, the graph
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict
from pathlib import Path
from typing import Any

from contracts.shapes import Coverage, describe_range
from engine.task.spec import Arg, TaskSpec

MAX_DIMS = 8
_C_SCALAR = {"float64": "double", "int64": "int64_t", "bool": "int64_t"}
_C_ELEM = {"float32": "float", "float64": "double", "int64": "int64_t", "int32": "int32_t",
           "float16": "__half", "bfloat16": "__nv_bfloat16", "bool": "bool", "uint8": "uint8_t",
           "int8": "int8_t"}


def c_params(spec: TaskSpec) -> list[str]:
    """The C parameter list of hiera_forward, in contract order."""
    params = []
    for a in spec.args:
        if a.tensor is not None:
            params.append(f"const hiera_tensor* {a.c_name}")
        else:
            params.append(f"{_C_SCALAR.get(a.scalar_dtype or 'float64', 'double')} {a.c_name}")
    params += [f"hiera_tensor* {name}" for name, _ in spec.outputs]
    params.append("void* stream")
    return params


def _shape_comment(a: Arg) -> str:
    if a.tensor is None:
        return f"{a.c_name:<16} {a.role:<9} {a.scalar_dtype} scalar (seen: {a.scalar_value})"
    t = a.tensor
    shape = "x".join(str(s) for s in t.shape) or "scalar tensor"
    extra = f"  '{a.name}'" if a.c_name != a.name else ""
    return f"{a.c_name:<16} {a.role:<9} {t.dtype}[{shape}] contiguous{extra}"


def contract_header(spec: TaskSpec) -> str:
    lines = [f" *   {_shape_comment(a)}" for a in spec.args]
    lines += [f" *   {name:<16} output    {t.dtype}[{'x'.join(map(str, t.shape))}] contiguous, "
              "allocated by the caller" for name, t in spec.outputs]
    if spec.batch is not None:
        free = [a.c_name for a in spec.tensor_args if spec.batched(a.name)] + [n for n, _ in spec.outputs]
        lo, hi = spec.batch.bounds
        lines += [" *", f" *   Dim 0 of {', '.join(free)} is the batch ({spec.batch.size} above), free from {lo} to "
                  f"{hi}:",
                  " *   candidates are also verified at other batch sizes in that range, drawn at random for each",
                  " *   candidate and not announced, and a kernel is used over the sizes it was found valid on; read",
                  " *   sizes from the tensors (sizes[0]), or return 2 for a size the kernel does not handle."]
    decl = ",\n    ".join(c_params(spec))
    return f"""// hiera contract for task '{spec.name}' (frozen: do not edit; generated from the task).
#pragma once
#include <stdint.h>

#define HIERA_MAX_DIMS {MAX_DIMS}

/* A view of one tensor: device (or host) pointer, sizes and strides in elements. */
typedef struct {{
    void* data;
    int64_t ndim;
    int64_t sizes[HIERA_MAX_DIMS];
    int64_t strides[HIERA_MAX_DIMS];
}} hiera_tensor;

/*
 * Arguments, in order (tensors are dense and contiguous; element types as listed):
{chr(10).join(lines)}
 *   stream           the cudaStream_t to launch on (NULL on the CPU path); all work must be
 *                    ordered on it: the caller reads the outputs on this stream right after return.
 *
 * Return 0 on success, non-zero on failure. Outputs are preallocated by the caller and must be fully
 * written. Inputs, parameters and buffers must not be modified.
 */
#ifdef __cplusplus
extern "C"
#endif
int hiera_forward(
    {decl});
"""


def binding_source(spec: TaskSpec, cover: Coverage | None = None) -> str:
    """cpp_source.cpp: a torch extension exposing `forward` over the C ABI (for the exported ModelNew).

    The binding, not the candidate, guards the call (issue 29): every tensor's dtype, device, dims and sizes
    and every scalar's value are checked against what the kernel was verified on before hiera_forward runs,
    and the outputs are allocated at the sizes that check found. A call outside it never reaches the kernel:
    `forward` returns no outputs (the exported ModelNew then runs the reference's own forward) and `refusal`
    says why. `cover` is what the candidate was verified on: the given shapes only (None, or no batch range),
    or batch sizes [lo, hi] in dim 0 of every argument `spec.batched` names."""
    cover = cover or Coverage()
    batched = cover.general and spec.batch is not None
    lo, hi = cover.batch_range if batched and cover.batch_range else (0, 0)
    sig = []
    for a in spec.args:
        if a.tensor is not None:
            sig.append(f"torch::Tensor {a.c_name}")
        elif a.scalar_dtype == "float64":
            sig.append(f"double {a.c_name}")
        else:
            sig.append(f"int64_t {a.c_name}")
    checks = []
    for a in spec.args:
        if a.tensor is not None:
            sizes = ", ".join(str(n) for n in a.tensor.shape)
            free = "true" if batched and spec.batched(a.name) else "false"
            dtype = f"torch::k{_torch_scalar(a.tensor.dtype)}"
            checks.append(f'    why = hiera_mismatch({a.c_name}, "{a.c_name}", {dtype}, {{{sizes}}}, {free}, g);')
        else:
            checks.append(f"    why = {_scalar_check(a)};")
        checks.append("    if (!why.empty()) return why;")
    views = "\n".join(
        f"    auto {a.c_name}_c = {a.c_name}.contiguous();\n"
        f"    hiera_tensor {a.c_name}_v = hiera_view({a.c_name}_c);"
        for a in spec.tensor_args
    )
    def dims(name: str, shape: tuple[int, ...]) -> str:
        return ", ".join(["g.batch" if batched and spec.batched(name) and i == 0 else str(n)
                          for i, n in enumerate(shape)])

    allocs = "\n".join(
        f"    auto {name} = torch::empty({{{dims(name, tuple(t.shape))}}}, "
        f"{spec.tensor_args[0].c_name}.options().dtype(torch::k{_torch_scalar(t.dtype)}));\n"
        f"    hiera_tensor {name}_v = hiera_view({name});"
        for name, t in spec.outputs
    ) if spec.tensor_args else ""
    call_args = [f"&{a.c_name}_v" if a.tensor is not None else a.c_name for a in spec.args]
    call_args += [f"&{name}_v" for name, _ in spec.outputs]
    outs = ", ".join(name for name, _ in spec.outputs)
    params = ", ".join(a.c_name for a in spec.args)
    device = spec.tensor_args[0].c_name if spec.tensor_args else None
    guard = f"    const c10::cuda::OptionalCUDAGuard device_guard({device}.device());\n" if device else ""
    return f"""// hiera binding for task '{spec.name}' (frozen). Exposes forward() to Python over the C ABI.
// It guards the kernel: a call whose tensors or scalars differ from what the kernel was verified on
// ({_c_comment(describe_range(cover, spec.batch.size if spec.batch else None))}; dtypes, devices and the
// other sizes exactly) returns no outputs and never reaches hiera_forward; refusal() says why.
#include <torch/extension.h>
#include <cmath>
#include <string>
#include <vector>
#ifdef HIERA_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#endif
#include "hiera_contract.h"

static hiera_tensor hiera_view(const torch::Tensor& t) {{
    TORCH_CHECK(t.dim() <= HIERA_MAX_DIMS, "hiera: tensors of more than ", HIERA_MAX_DIMS, " dims");
    hiera_tensor v{{}};
    v.data = t.data_ptr();
    v.ndim = t.dim();
    for (int64_t i = 0; i < t.dim(); ++i) {{ v.sizes[i] = t.size(i); v.strides[i] = t.stride(i); }}
    return v;
}}

// What the checks of one call found so far: the batch size (-1 until a batched tensor is seen) and the
// device of the first tensor (every tensor must be on it).
struct HieraGuard {{
    int64_t batch = -1;
    bool have_device = false;
    torch::Device device{{torch::kCPU}};
}};

static std::string hiera_sizes(at::IntArrayRef sizes) {{
    std::string s;
    for (size_t i = 0; i < sizes.size(); ++i) s += (i ? "x" : "") + std::to_string(sizes[i]);
    return sizes.empty() ? "a scalar tensor" : s;
}}

// "" when `t` is what the kernel was verified on: a dense tensor of `dtype` on the kernel's device (the
// same for every argument), not a lazily negated or conjugated view, of exactly `sizes`; where `free`, dim 0
// may be any batch size in [{lo}, {hi}], the same for every such argument. Otherwise the mismatch, in words.
static std::string hiera_mismatch(const torch::Tensor& t, const char* name, torch::ScalarType dtype,
                                  const std::vector<int64_t>& sizes, bool free, HieraGuard& g) {{
    const std::string n(name);
    if (!t.defined()) return n + " is an undefined tensor";
    if (t.layout() != torch::kStrided) return n + " is not a dense (strided) tensor";
    if (t.is_neg() || t.is_conj()) return n + " is a lazily negated or conjugated view";
    if (t.scalar_type() != dtype)
        return n + " is " + std::string(c10::toString(t.scalar_type())) + ", the kernel takes " + c10::toString(dtype);
#ifdef HIERA_WITH_CUDA
    if (!t.is_cuda()) return n + " is on " + t.device().str() + ", the kernel runs on a CUDA device";
#else
    if (!t.device().is_cpu()) return n + " is on " + t.device().str() + ", the kernel runs on the CPU";
#endif
    if (g.have_device && t.device() != g.device)
        return n + " is on " + t.device().str() + ", another argument on " + g.device.str();
    g.device = t.device();
    g.have_device = true;
    const std::string want = hiera_sizes(sizes);
    if (t.dim() != (int64_t)sizes.size())
        return n + " has " + std::to_string(t.dim()) + " dims (" + hiera_sizes(t.sizes()) + "), the kernel takes " +
               want;
    for (int64_t i = 0; i < t.dim(); ++i) {{
        if (free && i == 0) {{
            const int64_t b = t.size(0);
            if (b < {lo} || b > {hi})
                return n + " has batch size " + std::to_string(b) + " (dim 0), the kernel covers {lo} to {hi}";
            if (g.batch >= 0 && b != g.batch)
                return n + " has batch size " + std::to_string(b) + ", another argument " + std::to_string(g.batch);
            g.batch = b;
        }} else if (t.size(i) != sizes[i]) {{
            return n + " is " + hiera_sizes(t.sizes()) + ", the kernel takes " + want + (free ? " (dim 0 free)" : "");
        }}
    }}
    return "";
}}

static std::string hiera_check({", ".join(sig)}, HieraGuard& g) {{
    std::string why;
{chr(10).join(checks)}
    return "";
}}

// Why a call would not reach the kernel ("" when it would).
std::string refusal({", ".join(sig)}) {{
    HieraGuard g;
    return hiera_check({params}, g);
}}

// The outputs, or none when the call is outside what the kernel was verified on (see refusal()).
std::vector<torch::Tensor> forward({", ".join(sig)}) {{
    HieraGuard g;
    if (!hiera_check({params}, g).empty()) return {{}};
#ifdef HIERA_WITH_CUDA
{guard}    void* stream = (void*)at::cuda::getCurrentCUDAStream().stream();
#else
    void* stream = nullptr;
#endif
{views}
{allocs}
    int rc = hiera_forward({", ".join([*call_args, "stream"])});
    TORCH_CHECK(rc == 0, "hiera_forward failed with code ", rc);
    return {{{outs}}};
}}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {{
    m.def("forward", &forward, "hiera contract forward (no outputs: outside what the kernel was verified on)");
    m.def("refusal", &refusal, "why forward() would return no outputs for these arguments ('' if it would not)");
}}
"""


def _scalar_check(a: Arg) -> str:
    """A C++ expression: "" when scalar `a` has the value the kernel was verified with (it is baked into hiera's
    generated kernels as a constant), else the mismatch in words."""
    v = a.scalar_value
    if a.scalar_dtype == "float64":
        if isinstance(v, str):  # inf, -inf, nan (the probe writes non-finite floats as text)
            n = a.c_name
            cond = {"inf": f"std::isinf({n}) && {n} > 0", "-inf": f"std::isinf({n}) && {n} < 0",
                    "nan": f"std::isnan({n})"}.get(v, "false")
            lit = v
        else:
            cond, lit = f"{a.c_name} == {float(v)!r}", repr(float(v))
    else:
        cond, lit = f"{a.c_name} == {int(v)}", str(int(v))
    return (f'({cond}) ? std::string() : "{a.c_name} is " + std::to_string({a.c_name}) + '
            f'", the kernel was verified with {lit}"')


def _c_comment(text: str) -> str:
    return text.replace("*/", "* /").replace("\n", " ")


def _torch_scalar(dtype: str) -> str:
    return {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int", "float16": "Half",
            "bfloat16": "BFloat16", "bool": "Bool", "uint8": "Byte", "int8": "Char"}[dtype]


# The body of a ModelNew.__init__ that holds exactly the reference's parameters: it adopts the reference's
# submodules, parameters and buffers under their own names, so state dicts match key for key.
ADOPT_REFERENCE = """        reference = Model(*init_inputs)
        for name, child in reference.named_children():
            self.add_module(name, child)
        for name, p in reference._parameters.items():
            self.register_parameter(name, p)
        for name, b in reference._buffers.items():
            self.register_buffer(name, b)"""


def torch_demo_source(spec: TaskSpec) -> str:
    return f'''"""ModelNew for task '{spec.name}' (frozen): the reference's parameters, the candidate's forward.

It holds exactly the reference Model's parameters and buffers (same names, so state dicts match) and
calls the candidate through hiera's native runtime; `hiera export` writes a self-contained version.
"""

import torch
from torch import nn

from engine.evaluate.native import NativeForward
from groundtruth import Model, get_init_inputs, get_inputs  # noqa: F401

CONTRACT = {contract_layout(spec)!r}


class ModelNew(nn.Module):
    def __init__(self, *init_inputs, library_path=None):
        super().__init__()
{ADOPT_REFERENCE}
        self._scalars = {{k: getattr(reference, k) for k in CONTRACT["scalars"]}}
        self._native = NativeForward(library_path, CONTRACT) if library_path else None

    def forward(self, *inputs):
        state = dict(self.named_parameters())
        state.update(self.named_buffers())
        return self._native(inputs, state, self._scalars)
'''


def contract_layout(spec: TaskSpec) -> dict[str, Any]:
    """What the native runtime needs to call hiera_forward: the order and kinds of its arguments."""
    return {
        "task": spec.name,
        "args": [{"name": a.name, "role": a.role, "tensor": a.tensor is not None,
                  "dtype": a.tensor.dtype if a.tensor else a.scalar_dtype} for a in spec.args],
        "scalars": [a.name for a in spec.scalar_args],
        "outputs": [{"name": n, "shape": list(t.shape), "dtype": t.dtype} for n, t in spec.outputs],
        "output_is_tuple": spec.output_is_tuple,
        "batch": _batch_layout(spec),
    }


def _batch_layout(spec: TaskSpec) -> dict[str, Any] | None:
    """Which dims may vary (issue 29): dim 0 of these inputs and outputs, in this range (issue 38: the sizes a
    candidate is checked at inside it are drawn for each candidate and written nowhere a candidate reads)."""
    if spec.batch is None:
        return None
    return {"dim": 0, "size": spec.batch.size, "range": list(spec.batch.bounds),
            "inputs": [a.name for a in spec.tensor_args if spec.batched(a.name)],
            "outputs": [n for n, _ in spec.outputs]}


def params_semantics(spec: TaskSpec) -> dict[str, Any]:
    def tensor(a_t: Any) -> dict[str, Any]:
        d = asdict(a_t)
        d["layout"] = "dense contiguous, row-major"
        d["c_type"] = _C_ELEM.get(a_t.dtype, a_t.dtype)
        return d

    args = []
    for i, a in enumerate(spec.args):
        entry: dict[str, Any] = {"index": i, "name": a.name, "c_name": a.c_name, "role": a.role}
        if a.tensor is not None:
            entry.update(tensor(a.tensor))
            entry["free_dims"] = [0] if spec.batched(a.name) else []
            constraints = ["read-only", "contiguous"]
            if spec.batched(a.name):
                constraints.append("dim 0 is the batch: it may vary")
            if a.tensor.min is not None:
                constraints.append(f"values seen in [{a.tensor.min:.4g}, {a.tensor.max:.4g}]")
            entry["constraints"] = constraints
        else:
            entry.update({"dtype": a.scalar_dtype, "value": a.scalar_value,
                          "constraints": ["compile-time constant of the module"]})
        args.append(entry)
    return {
        "task": spec.name,
        "entry_point": "hiera_forward",
        "signature": c_params(spec),
        "args": args,
        "outputs": [{"name": n, **tensor(t), "free_dims": [0] if spec.batched(n) else [],
                     "constraints": ["written fully by the candidate"]} for n, t in spec.outputs],
        "batch": _batch_layout(spec),
        "batch_note": spec.batch_note,
        "graph": [asdict(n) for n in spec.graph] if spec.graph else None,
        "trace_error": spec.trace_error,
    }


def write_contract(spec: TaskSpec, out_dir: Path) -> dict[str, Path]:
    """Write the frozen contract files into out_dir; returns their paths by role."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {
        "groundtruth": out_dir / "groundtruth.py",
        "header": out_dir / "hiera_contract.h",
        "binding": out_dir / "cpp_source.cpp",
        "demo": out_dir / "torch_demo.py",
        "semantics": out_dir / "params_semantics.json",
    }
    shutil.copyfile(spec.path, paths["groundtruth"])
    paths["header"].write_text(contract_header(spec))
    paths["binding"].write_text(binding_source(spec))
    paths["demo"].write_text(torch_demo_source(spec))
    paths["semantics"].write_text(json.dumps(params_semantics(spec), indent=2, default=str))
    return paths
