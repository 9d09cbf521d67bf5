"""Fused pointwise kernels (CUDA): one pass over the domain, every input read once, every output written once.

The loop walks vectors of `vec` elements (float4 when the layout allows; four packed bf16 or fp16 values, 8
bytes, widened to a float4, for a half buffer: codegen/storage.py): inputs that are contiguous along the last
dim are read as one vector load, inputs broadcast along it (a per-channel or per-row
value) are read once for the whole vector, anything else element by element. When an output or a
vectorized input is not 16-byte aligned at run time, hiera_forward launches the scalar twin instead.
"""

from __future__ import annotations

from math import prod

from engine.agents.expert.codegen import storage
from engine.agents.expert.codegen.common import (
    Emitter,
    KernelCode,
    describe,
    offset_code,
    pointer,
    short,
    uniform_ok,
    vec_ok,
)
from engine.agents.expert.codegen.variants import FlatParams
from engine.agents.expert.device import DeviceLimits
from engine.agents.expert.ir import FusedStage, Load, Program, loads

LANES = "xyzw"


def _buffers(prog: Program, stage: FusedStage) -> tuple[list[str], list[str]]:
    reads: dict[str, None] = {}
    for _, e in stage.outputs:
        for ld in loads(e):
            reads[ld.view.buffer] = None
    writes = [n for n, _ in stage.outputs]
    return list(reads), writes


def kernel_params(prog: Program, reads: list[str], writes: list[str], extra: tuple[str, ...] = ()) -> str:
    """Each buffer as a pointer of its storage type (codegen/storage.py)."""
    ps = [f"const {storage.c_type(prog, b, 'cuda')}* __restrict__ {pointer(prog.buffer(b).c_name)}" for b in reads]
    ps += [f"{storage.c_type(prog, b, 'cuda')}* __restrict__ {pointer(prog.buffer(b).c_name)}" for b in writes]
    return ", ".join([*ps, *extra])


def call_args(prog: Program, reads: list[str], writes: list[str]) -> str:
    return ", ".join(pointer(prog.buffer(b).c_name) for b in [*reads, *writes])


def _body(prog: Program, stage: FusedStage, vec: int, index: str, indent: str) -> list[str]:
    """Statements computing and storing `vec` consecutive elements starting at linear index `index`."""
    dom = stage.domain
    lines: list[str] = []
    pre: dict[Load, str] = {}
    uniq: dict[Load, None] = {}
    for _, e in stage.outputs:
        for ld in loads(e):
            uniq[ld] = None
    for n, ld in enumerate(uniq):
        p = pointer(prog.buffer(ld.view.buffer).c_name)
        off = offset_code(ld.view, dom, index)
        b = ld.view.buffer
        if vec > 1 and vec_ok(ld.view, dom, vec):
            # One 8- or 16-byte load: fp32 as float2/float4, bf16 and fp16 as packed pairs widened to float.
            lines.append(f"{indent}const {storage.vtype(vec)} L{n} = {storage.vload(prog, b, f'{p} + {off}', vec)};")
            pre[ld] = f"L{n}"
        elif vec > 1 and uniform_ok(ld.view, dom, vec):
            lines.append(f"{indent}const float U{n} = {storage.ld(prog, b, f'{p}[{off}]')};")
            pre[ld] = f"U{n}"
    results: list[list[str]] = [[] for _ in stage.outputs]
    for lane in range(vec):
        idx = index if lane == 0 else f"({index} + {lane})"

        def leaf(ld: Load, lane: int = lane, idx: str = idx) -> str:
            if ld in pre:
                name = pre[ld]
                return f"{name}.{LANES[lane]}" if name.startswith("L") else name
            p = pointer(prog.buffer(ld.view.buffer).c_name)
            return storage.ld(prog, ld.view.buffer, f"{p}[{offset_code(ld.view, dom, idx)}]")

        em = Emitter(leaf, prefix=f"t{lane}_" if vec > 1 else "t", indent=indent)
        for k, (_, e) in enumerate(stage.outputs):
            results[k].append(em.value(e))
        lines += em.lines
    for (name, _), vals in zip(stage.outputs, results):
        p = pointer(prog.buffer(name).c_name)
        if vec in (2, 4):
            lines.append(f"{indent}{storage.vstore(prog, name, f'{p} + {index}', vec, vals)}")
        elif vec == 1:
            lines.append(f"{indent}{storage.st(prog, name, f'{p}[{index}]', vals[0])};")
        else:
            lines += [f"{indent}{storage.st(prog, name, f'{p}[{index} + {lane}]', v)};" for lane, v in enumerate(vals)]
    return lines


RUNTIME_N = "hiera_n"  # the launch's element count when the batch is taken at run time (set by hiera_forward)


def flat_kernel(prog: Program, stage: FusedStage, params: FlatParams, name: str, idx_t: str,
                dev: DeviceLimits | None = None, runtime: bool = False) -> KernelCode:
    """The stage's kernel and launch. `runtime`: the element count is a kernel argument (the batch's, read when
    called: codegen/runtime_batch.py), the launch reads it from `hiera_n` and sizes the grid from it."""
    dev = dev or DeviceLimits()
    dom = stage.domain
    n = prod(dom)
    vec = params.vec if dom and dom[-1] % params.vec == 0 and n >= params.vec else 1
    reads, writes = _buffers(prog, stage)
    vec_kernel = _flat_source(prog, stage, params, name, idx_t, vec, reads, writes, runtime)
    launch = _launch(prog, params, name, n, vec, reads, writes, dev, runtime)
    if vec == 1:
        return KernelCode(vec_kernel, launch, tuple(reads), tuple(writes))
    # The scalar twin, for buffers that are not 16-byte aligned at run time (a sliced input, say).
    scalar = _flat_source(prog, stage, params, name + "_scalar", idx_t, 1, reads, writes, runtime)
    aligned = [pointer(prog.buffer(b).c_name) for b in writes]
    for _, e in stage.outputs:
        for ld in loads(e):
            if vec_ok(ld.view, dom, vec):
                p = pointer(prog.buffer(ld.view.buffer).c_name)
                if p not in aligned:
                    aligned.append(p)
    cond = " && ".join(f"hiera_aligned16({p})" for p in aligned)
    launch = (f"    if ({cond}) {{\n{_indent(launch)}\n    }} else {{\n"
              f"{_indent(_launch(prog, params, name + '_scalar', n, 1, reads, writes, dev, runtime))}\n    }}")
    return KernelCode(vec_kernel + "\n" + scalar, launch, tuple(reads), tuple(writes))


def _indent(text: str) -> str:
    return "\n".join("    " + ln if ln else ln for ln in text.splitlines())


def _flat_source(prog: Program, stage: FusedStage, params: FlatParams, name: str, idx_t: str, vec: int,
                 reads: list[str], writes: list[str], runtime: bool = False) -> str:
    n = prod(stage.domain)
    nvec = n // vec
    block, ilp = params.block, params.ilp
    what = "; ".join(f"{o} = {short(describe(e), 110)}" for o, e in stage.outputs)
    # Taking the batch at run time, the counts are the kernel's argument n (the batch's elements).
    count = f"n elements (the batch's, at run time) as vectors of {vec}" if runtime else \
        f"{n} elements as {nvec} vectors of {vec}"
    extra = ("const idx_t n",) if runtime else ()
    nvec_c = f"n / {vec}" if runtime and vec > 1 else "n" if runtime else str(nvec)
    lines = [
        f"// {what}",
        f"// {count}; {block} threads/block, {ilp} vector(s) per thread per trip.",
        f"__global__ void __launch_bounds__({block}) {name}({kernel_params(prog, reads, writes, extra)}) {{",
    ]
    if runtime and vec > 1:
        lines.append(f"    const idx_t nvec = {nvec_c};")
        nvec_c = "nvec"
    lines += [
        f"    const idx_t step = (idx_t)gridDim.x * {block * ilp};",
        f"    for (idx_t v0 = (idx_t)blockIdx.x * {block * ilp} + threadIdx.x; v0 < {nvec_c}; v0 += step) {{",
    ]
    if ilp > 1:
        lines += ["#pragma unroll", f"        for (int u = 0; u < {ilp}; ++u) {{",
                  f"            const idx_t v = v0 + (idx_t)u * {block};",
                  f"            if (v >= {nvec_c}) break;",
                  f"            const idx_t i = v * {vec};"]
        lines += _body(prog, stage, vec, "i", "            ")
        lines.append("        }")
    else:
        lines.append(f"        const idx_t i = v0 * {vec};")
        lines += _body(prog, stage, vec, "i", "        ")
    lines.append("    }")
    if runtime and vec > 1:
        # n need not be a multiple of vec for every batch: the last n % vec elements, one per thread
        lines += [f"    const idx_t t = (idx_t)blockIdx.x * {block} + threadIdx.x;",
                  f"    if (t < n % {vec}) {{",
                  f"        const idx_t i = nvec * {vec} + t;"]
        lines += _body(prog, stage, 1, "i", "        ")
        lines.append("    }")
    elif not runtime and n % vec:
        lines += [f"    // the last {n % vec} element(s), one per thread",
                  f"    const idx_t t = (idx_t)blockIdx.x * {block} + threadIdx.x;",
                  f"    if (t < {n % vec}) {{",
                  f"        const idx_t i = {nvec * vec} + t;"]
        lines += _body(prog, stage, 1, "i", "        ")
        lines.append("    }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _launch(prog: Program, params: FlatParams, name: str, n: int, vec: int, reads: list[str],
            writes: list[str], dev: DeviceLimits, runtime: bool = False) -> str:
    nvec = max(n // vec, 1)
    per_block = params.block * params.ilp
    cap = params.grid_cap * dev.sm_count if params.grid_cap else 2**31 - 1
    if runtime:
        # The grid from this call's count: one vector per thread (at most `cap` blocks), at least one block.
        return (f"    {{\n        unsigned long long g = ((unsigned long long){RUNTIME_N} / {vec} + {per_block - 1}) / "
                f"{per_block};\n        g = g < 1 ? 1 : g > {cap}ull ? {cap}ull : g;\n"
                f"        {name}<<<(unsigned)g, {params.block}, 0, hiera_s>>>({call_args(prog, reads, writes)}, "
                f"{RUNTIME_N});\n    }}")
    grid = -(-nvec // per_block)
    if params.grid_cap:
        # A persistent-style grid: `grid_cap` blocks per SM of this device, the grid-stride loop does the rest.
        grid = min(grid, cap)
    grid = max(1, min(grid, 2**31 - 1))
    return f"    {name}<<<{grid}, {params.block}, 0, hiera_s>>>({call_args(prog, reads, writes)});"

