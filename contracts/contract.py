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

from contracts.task import Arg, TaskSpec

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


def binding_source(spec: TaskSpec) -> str:
    """cpp_source.cpp: a torch extension exposing `forward` over the C ABI (for the exported ModelNew)."""
    sig = []
    for a in spec.args:
        if a.tensor is not None:
            sig.append(f"torch::Tensor {a.c_name}")
        elif a.scalar_dtype == "float64":
            sig.append(f"double {a.c_name}")
        else:
            sig.append(f"int64_t {a.c_name}")
    views = "\n".join(
        f"    auto {a.c_name}_c = {a.c_name}.contiguous();\n"
        f"    hiera_tensor {a.c_name}_v = hiera_view({a.c_name}_c);"
        for a in spec.tensor_args
    )
    allocs = "\n".join(
        f"    auto {name} = torch::empty({{{', '.join(str(s) for s in t.shape)}}}, "
        f"{spec.tensor_args[0].c_name}.options().dtype(torch::k{_torch_scalar(t.dtype)}));\n"
        f"    hiera_tensor {name}_v = hiera_view({name});"
        for name, t in spec.outputs
    ) if spec.tensor_args else ""
    call_args = [f"&{a.c_name}_v" if a.tensor is not None else a.c_name for a in spec.args]
    call_args += [f"&{name}_v" for name, _ in spec.outputs]
    outs = ", ".join(name for name, _ in spec.outputs)
    return f"""// hiera binding for task '{spec.name}' (frozen). Exposes forward() to Python over the C ABI.
#include <torch/extension.h>
#ifdef HIERA_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
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

std::vector<torch::Tensor> forward({", ".join(sig)}) {{
{views}
{allocs}
#ifdef HIERA_WITH_CUDA
    void* stream = (void*)at::cuda::getCurrentCUDAStream().stream();
#else
    void* stream = nullptr;
#endif
    int rc = hiera_forward({", ".join([*call_args, "stream"])});
    TORCH_CHECK(rc == 0, "hiera_forward failed with code ", rc);
    return {{{outs}}};
}}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {{ m.def("forward", &forward, "hiera contract forward"); }}
"""


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
    }


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
            constraints = ["read-only", "contiguous"]
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
        "outputs": [{"name": n, **tensor(t), "constraints": ["written fully by the candidate"]}
                    for n, t in spec.outputs],
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
