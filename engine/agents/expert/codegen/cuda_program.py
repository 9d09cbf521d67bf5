"""A whole CUDA candidate from a Program: kernels, library calls, the workspace and hiera_forward.

The file includes only the contract header, the CUDA runtime (and cuBLAS or cuDNN when a product or a
convolution uses it), so it
compiles alone in a few seconds. hiera_forward checks every shape it was specialized for (and returns
2 when one differs), puts all work on the caller's stream, and keeps temporaries in one workspace that
lives as long as the library (allocated on first use, grown if ever needed).
"""

from __future__ import annotations

from dataclasses import replace
from math import prod

from engine.agents.expert.codegen import gemm as gemm_gen
from engine.agents.expert.codegen import gemm_split, storage
from engine.agents.expert.codegen.common import (
    INT32_LIMIT,
    buffer_pointers,
    describe,
    entry_preamble,
    index_type,
    pointer,
    short,
)
from engine.agents.expert.codegen.conv import CUDNN_HANDLE, conv_launch, conv_plan
from engine.agents.expert.codegen.pointwise import flat_kernel
from engine.agents.expert.codegen.reduction import HELPERS, RowPlan, row_kernel, row_plan, vec_pointers
from engine.agents.expert.codegen.runtime_batch import RuntimeBatch, guard_lines, runtime_batch
from engine.agents.expert.codegen.transpose import plane_of, transpose_kernel
from engine.agents.expert.codegen.variants import Variant
from engine.agents.expert.device import DeviceLimits
from engine.agents.expert.ir import (
    Binary,
    Buffer,
    ConvStage,
    Expr,
    FusedStage,
    GemmStage,
    Load,
    Program,
    Unary,
    View,
    children,
    loads,
    stage_reads,
    walk,
    with_children,
)
from engine.task.contract import c_params
from engine.task.spec import TaskSpec


def _replace(e: Expr, target: Expr, new: Expr) -> Expr:
    memo: dict[Expr, Expr] = {}

    def go(n: Expr) -> Expr:
        if n == target:
            return new
        if n in memo:
            return memo[n]
        kids = children(n)
        out = with_children(n, tuple(go(c) for c in kids)) if kids else n
        memo[n] = out
        return out

    return go(e)


def _bias_add(st: GemmStage, e: Expr, dom: tuple[int, ...]) -> tuple[Binary, View] | None:
    """The node `product + bias[n]` in e, when every read of the product is that node."""
    found: list[tuple[Binary, View]] = []
    for node in _nodes(e):
        if not (isinstance(node, Binary) and node.op == "add"):
            continue
        for p, q in ((node.a, node.b), (node.b, node.a)):
            if isinstance(p, Load) and p.view.buffer == st.out and isinstance(q, Load) and q.view.buffer != st.out:
                pv, qv = p.view.expand(dom), q.view.expand(dom)
                if pv.offset == 0 and pv.is_contiguous() and dom[-1] == st.n and \
                        qv.strides[-1] == 1 and all(s == 0 for s in qv.strides[:-1]):
                    found.append((node, View(qv.buffer, (st.n,), (1,), qv.offset)))
    if len(found) != 1:
        return None
    node, bias = found[0]
    # every other read of the product must be inside that node
    others = [ld for ld in loads(_replace(e, node, Load(node.shape, View(st.out, (), ())))) if ld.view.buffer == st.out]
    if len(others) != 1:
        return None
    return node, bias


def _nodes(e: Expr) -> list[Expr]:
    return walk(e)


def fold_bias(prog: Program) -> Program:
    """cuBLASLt epilogues: move `+ bias` (and a ReLU right after it) into the product where it matches."""
    stages = list(prog.stages)
    buffers = {b.name: b for b in prog.buffers}
    for i, st in enumerate(stages):
        if not isinstance(st, GemmStage) or i + 1 >= len(stages) or buffers[st.out].kind != "temp":
            continue
        if len(st.batch) > 1:
            continue
        nxt = stages[i + 1]
        if not isinstance(nxt, FusedStage) or len(nxt.outputs) != 1:
            continue
        readers = [s2 for s2 in stages if s2 is not None and st.out in stage_reads(s2)]  # None: folded away
        if len(readers) != 1 or not isinstance(readers[0], FusedStage):
            continue
        (oname, e), = nxt.outputs
        hit = _bias_add(st, e, nxt.domain)
        if hit is None:
            continue
        node, bias = hit
        prod_load = Load(nxt.domain, View.contiguous(st.out, nxt.domain))
        new_e = _replace(e, node, prod_load)
        act = ""
        parents = [n for n in _nodes(new_e) if prod_load in children(n)]
        if parents and all(isinstance(n, Unary) and n.op == "relu" for n in parents):
            # every use of the product is relu(product + bias): cuBLASLt's RELU_BIAS epilogue does it
            act = "relu"
            for n in parents:
                new_e = _replace(new_e, n, prod_load)

        stages[i] = replace(st, bias=bias, activation=act)
        if new_e == prod_load and buffers[oname].numel == prod(nxt.domain):
            # nothing left to do after the product: write the output directly
            stages[i] = replace(stages[i], out=oname)
            stages[i + 1] = None  # type: ignore[call-overload]
            del buffers[st.out]
        else:
            stages[i + 1] = replace(nxt, outputs=((oname, new_e),))
    return Program(tuple(buffers.values()), tuple(s for s in stages if s is not None))


HEADER_INCLUDES = """#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include "hiera_contract.h"
"""

ALIGNED = """
static inline bool hiera_aligned16(const void* p) { return ((uintptr_t)p & 15u) == 0; }
"""

WORKSPACE = """
// Temporaries live in one device buffer kept for the life of the library (grown if ever needed).
static float* hiera_workspace(size_t bytes) {
    static float* ws = nullptr;
    static size_t have = 0;
    if (have < bytes) {
        if (ws != nullptr) cudaFree(ws);
        ws = nullptr;
        have = 0;
        if (cudaMalloc((void**)&ws, bytes) != cudaSuccess) return nullptr;
        have = bytes;
    }
    return ws;
}
"""


def knob_parts(prog: Program, variant: Variant) -> tuple[str, ...]:
    """The variant's knobs that shape this program's code (no GEMM knobs for a softmax, say)."""
    flat = [s for s in prog.fused if not s.has_reduction]
    transposed = [s for s in flat if plane_of(s) is not None]
    return tuple(name for name, present in (
        ("transpose", bool(transposed)), ("conv", bool(prog.convs)), ("gemm", bool(prog.gemms)),
        ("row", any(s.has_reduction for s in prog.fused)),
        ("flat", len(transposed) < len(flat) or variant.transpose is None)) if present)


def stage_summary(prog: Program, variant: Variant) -> list[str]:
    out = []
    for k, st in enumerate(prog.stages):
        if isinstance(st, ConvStage):
            out.append(f"stage {k}: {st.out} = conv2d({st.x}, {st.weight}) (cuDNN; {st.n}x{st.c}x{st.h}x{st.w} -> "
                       f"{'x'.join(map(str, st.out_shape))}, kernel {st.r}x{st.s})")
        elif isinstance(st, GemmStage):
            extra = ""
            if st.bias is not None:
                extra = f" + {st.bias.buffer}" + (" -> relu" if st.activation else "")
            out.append(f"stage {k}: {st.out} = {st.a.buffer} @ {st.b.buffer}{extra} "
                       f"({st.m}x{st.n}x{st.k}{', batch ' + 'x'.join(map(str, st.batch)) if st.batch else ''})")
        else:
            kind = "row reduction" if st.has_reduction else \
                "tiled transpose" if variant.transpose is not None and plane_of(st) is not None else "fused pointwise"
            what = "; ".join(f"{o} = {short(describe(e), 90)}" for o, e in st.outputs)
            out.append(f"stage {k}: {kind} over {'x'.join(map(str, st.domain))}: {what}")
    return out


def half_products(prog: Program) -> Program:
    """In a program with bf16 or fp16 buffers, every temporary a product reads or writes is stored in that type:
    the libraries multiply halves on tensor cores with fp32 accumulation (codegen/gemm.py), and eager holds the
    same values there (PyTorch rounds each operator's output to the module's dtype). Other temporaries stay fp32."""
    halves = {b.dtype for b in prog.buffers if b.dtype in storage.HALF}
    if not halves:
        return prog
    half = "bfloat16" if "bfloat16" in halves else "float16"
    names = {n for st in prog.gemms for n in (st.a.buffer, st.b.buffer, st.out)}
    return Program(tuple(replace(b, dtype=half) if b.name in names and b.kind == "temp" else b for b in prog.buffers),
                   prog.stages)


def cuda_source(spec: TaskSpec, prog: Program, variant: Variant, *, strategy: str, tf32: bool = False,
                title: str = "", dev: DeviceLimits | None = None, policy: str = "fp32",
                rb: RuntimeBatch | None = None, pure: bool = False) -> str:
    """The candidate .cu for `prog` under `variant`, sized for the device `dev` (grids, splits). `policy` is the
    run's precision (contracts/precision.py): under bf16 and fp16, fp32 products may use half tensor cores as
    autocast does. With `rb` (cuda_runtime_batch's for this variant) it also serves any batch in 1..rb.max_batch:
    the kernels specialised to the given shapes run at the given batch, general ones (the batch a kernel argument)
    at any other; `pure` (the space allows no libraries): the general path's products are the variant's tiled
    kernel taking the batch, not cuBLAS calls. Raises ValueError when the variant cannot apply."""
    dev = dev or DeviceLimits()
    gp = variant.gemm
    halves = storage.has_half(prog)
    if halves:
        prog = half_products(prog)
        if prog.convs:
            raise ValueError("a bf16 or fp16 convolution: the cuDNN generator takes fp32 tensors")
    # The program as lowered: the general kernels (with `rb`) are written from it, the specialised ones from the
    # rewrites below (a bias folded into cuBLASLt, the split's copies, an epilogue fused into the tiled product).
    given = prog
    split = bool(prog.gemms) and gp.impl == "split_tf32"
    if split and (halves or policy in ("bf16", "fp16")):
        raise ValueError("the 3xTF32 split is for fp32 products under the strict policy")
    if prog.gemms and gp.impl in ("cublaslt", "split_tf32") and gp.lt_epilogue:
        prog = fold_bias(prog)
    if split:
        prog = gemm_split.with_split_buffers(prog, gp.form)  # the split copies live in the workspace
    idx_t = index_type(prog)
    kernels: list[str] = []
    launches: list[str] = []
    setups: list[str] = []  # one-time library setups (cuBLASLt and cuDNN plans)
    uses_cublas = uses_lt = uses_rows = uses_cudnn = False
    general: list[str] = []  # with rb: the launches of the kernels taking the batch at run time
    sizes: dict[str, str] = {}  # with rb: the element count of each workspace buffer that follows the batch
    skip: set[int] = set()
    unused: set[str] = set()
    extra: list[Buffer] = []  # workspace the kernels add (a split row's partial results)
    for k, st in enumerate(prog.stages):
        if k in skip:
            continue
        name = f"hiera_stage{k}"
        if isinstance(st, ConvStage):
            setups.append(conv_plan(st, k, variant.conv, tf32))
            launches.append(conv_launch(prog, st, k))
            uses_cudnn = True
            continue
        if isinstance(st, GemmStage):
            if gp.impl == "tiled":
                nxt = prog.stages[k + 1] if k + 1 < len(prog.stages) else None
                epi = gemm_gen.epilogue_for(prog, st, nxt) if gp.fuse_epilogue else None
                if epi is not None:
                    skip.add(k + 1)
                    unused.add(st.out)  # the product goes straight through the epilogue to its outputs
                kc = gemm_gen.tiled_kernel(prog, st, gp, name, epi, idx_t)
                kernels.append(kc.source)
                launches.append(kc.launch)
            elif split:
                ks, sets, lns = gemm_split.split_gemm(prog, st, k, gp)
                kernels += ks
                setups += sets
                launches += lns
                uses_lt = True
            elif gp.impl == "cublaslt" and len(st.batch) <= 1:
                setup, launch = gemm_gen.lt_plan(prog, st, k, gp, tf32, policy)
                setups.append(setup)
                launches.append(launch)
                uses_lt = True
            else:
                launches.append(gemm_gen.cublas_launch(prog, st, policy))
                uses_cublas = True
            continue
        uses_rows = uses_rows or st.has_reduction
        srcs, launch, temps = fused_stage(prog, k, variant, idx_t, dev)
        kernels += srcs
        launches.append(launch)
        extra += temps
    if rb is not None:
        for k, st in enumerate(given.stages):
            if isinstance(st, ConvStage):
                # A convolution for any batch: its plan (descriptors, algorithm, workspace) made per batch size.
                setups.append(conv_plan(st, k, variant.conv, tf32, runtime=True))
                general.append(conv_launch(given, st, k, extent=rb.extent(k)))
                uses_cudnn = True
                continue
            if isinstance(st, GemmStage) and pure:
                # A product for any batch in the pure CUDA space: the tiled kernel, its rows (or batch count) this
                # call's, its epilogue the stage as lowered after it.
                kc = gemm_gen.tiled_kernel(given, st, gp, f"hiera_stage{k}_any", None, idx_t, runtime=True)
                kernels.append(kc.source)
                general.append(f"    {{\n        const idx_t hiera_n = (idx_t){rb.extent(k)};\n"
                               f"{_indent(kc.launch)}\n    }}")
                continue
            if isinstance(st, GemmStage):
                # A product for any batch: cuBLAS, told this call's M (or batch count); the tuned product (a
                # cuBLASLt plan, the split, the tiled kernel) serves the given batch.
                general.append(gemm_gen.cublas_launch(given, st, policy, extent=rb.extent(k)))
                uses_cublas = True
                continue
            assert isinstance(st, FusedStage)
            uses_rows = uses_rows or st.has_reduction
            # The same stage for any batch: the row count (or element count) a kernel argument, the launch sized
            # from this call's; the rows walked as planned for the given batch.
            srcs, launch, temps = fused_stage(given, k, variant, idx_t, dev, runtime=True)
            kernels += srcs
            general.append(f"    {{\n        const idx_t hiera_n = (idx_t){rb.extent(k)};\n"
                           f"{_indent(launch)}\n    }}")
            extra += temps
            sizes.update({t.name: f"(size_t)hiera_nb * {t.numel // rb.batch}ull" for t in temps})
        # The general path's temporaries the rewrites took away (a product the tiled kernel's store or a folded
        # epilogue no longer keeps): back in the workspace, sized for this call's batch below.
        have = {b.name for b in prog.buffers if b.name not in unused} | {b.name for b in extra}
        extra += [b for b in given.temps if b.name not in have]
    if rb is not None:
        # The kernels specialised to the given batch serve it (the fastest code there is, unchanged); any other
        # batch runs the general ones.
        launches = [f"    if (hiera_nb == {rb.batch}) {{  // the given batch: the kernels specialised to it",
                    *(_indent(ln) for ln in launches), "    } else {  // any other: the kernels taking the batch",
                    *(_indent(ln) for ln in general), "    }"]
        sizes.update({name: f"(size_t)hiera_nb * {per}ull" for name, per in rb.temp_per_sample.items() if per})
    if unused or extra:
        prog = Program(tuple(b for b in prog.buffers if b.name not in unused) + tuple(extra), prog.stages)
    if split:
        kernels.insert(0, gemm_split.TF32_ROUND)
    return _assemble(spec, prog, variant, strategy=strategy, title=title, idx_t=idx_t, kernels=kernels,
                     launches=launches, setups=setups, uses_cublas=uses_cublas, uses_lt=uses_lt,
                     uses_rows=uses_rows, uses_cudnn=uses_cudnn, tf32=tf32, split=split, policy=policy,
                     rb=rb, sizes=sizes)


def _indent(text: str) -> str:
    return "\n".join("    " + ln if ln else ln for ln in text.splitlines())


def row_plans(st: FusedStage, variant: Variant, dev: DeviceLimits) -> tuple[RowPlan, RowPlan]:
    """How a row stage's kernel and its scalar twin (vec 1, for unaligned buffers) walk the rows."""
    return row_plan(st, variant.row, dev), row_plan(st, replace(variant.row, vec=1), dev)


def fused_stage(prog: Program, k: int, variant: Variant, idx_t: str, dev: DeviceLimits, runtime: bool = False,
                plans: tuple[RowPlan, RowPlan] | None = None) -> tuple[list[str], str, tuple[Buffer, ...]]:
    """Stage k (a FusedStage) as kernels, their launch and the workspace they add. `runtime`: the kernels take the
    batch's row or element count as an argument (`hiera_n` at the launch) and are named `_any`, the rows walked as
    `plans` say (row_plans of the given batch's stage; by default this stage's own)."""
    st = prog.stages[k]
    assert isinstance(st, FusedStage)
    name = f"hiera_stage{k}" + ("_any" if runtime else "")
    if st.has_reduction:
        main, scalar = plans or row_plans(st, variant, dev)
        kc = row_kernel(prog, st, variant.row, name, idx_t, dev, runtime, main if runtime else None)
        ptrs = vec_pointers(prog, st, variant.row, dev)
        if not ptrs:
            return [kc.source], kc.launch, kc.temps
        twin = row_kernel(prog, st, replace(variant.row, vec=1), name + "_scalar", idx_t, dev, runtime,
                          scalar if runtime else None)
        cond = " && ".join(f"hiera_aligned16({p})" for p in ptrs)
        launch = (f"    if ({cond}) {{\n    {kc.launch.strip()}\n    }} else {{\n"
                  f"    {twin.launch.strip()}\n    }}")
        return [kc.source, twin.source], launch, kc.temps + twin.temps
    # (a plane across the batch dim keeps its tiles for the given batch; any other runs the flat kernel)
    plane = plane_of(st) if variant.transpose is not None else None
    if plane is not None and not (runtime and plane.dim == 0):
        kc = transpose_kernel(prog, st, plane, variant.transpose, name, idx_t, runtime)
    else:
        kc = flat_kernel(prog, st, variant.flat, name, idx_t, dev, runtime)
    return [kc.source], kc.launch, kc.temps


INT_MAX = 2**31 - 1


def cuda_runtime_batch(spec: TaskSpec, prog: Program, others: dict[int, Program], variant: Variant,
                       dev: DeviceLimits | None = None, policy: str = "fp32", pure: bool = False) -> RuntimeBatch | str:
    """Whether the CUDA code of `prog` under `variant` can also take the batch at run time (codegen/runtime_batch.py),
    or why not: each stage's general code is compared across batch sizes (a row stage walked as planned for the
    given batch; a product as the cuBLAS call the general path makes, under the run's precision `policy`, or with
    `pure` as the variant's tiled kernel taking the batch)."""
    dev = dev or DeviceLimits()
    idx_t = index_type(prog)
    plans = {k: row_plans(st, variant, dev) for k, st in enumerate(prog.stages)
             if isinstance(st, FusedStage) and st.has_reduction}

    def render(p: Program, k: int, extent: str) -> str:
        st = p.stages[k]
        try:
            if isinstance(st, GemmStage) and pure:
                kc = gemm_gen.tiled_kernel(p, st, variant.gemm, f"hiera_stage{k}_any", None, idx_t, runtime=True)
                return kc.source + kc.launch
            if isinstance(st, GemmStage):
                # The general path's product (cuda_source): cuBLAS with the extent in place of M or the count.
                return gemm_gen.cublas_launch(half_products(p), st, policy, extent=extent)
            if isinstance(st, ConvStage):  # a plan per batch size met (conv.py)
                return conv_plan(st, k, variant.conv, policy == "tf32", runtime=True) + conv_launch(p, st, k, extent)
            srcs, launch, _ = fused_stage(p, k, variant, idx_t, dev, runtime=True, plans=plans.get(k))
        except ValueError as e:
            return f"not general: {e}; {st}"
        return "\n".join([*srcs, launch])

    limit = INT32_LIMIT if idx_t == "unsigned int" else 2**62
    rb = runtime_batch(spec, prog, others, render, index_limit=limit, products=True, convs=True)
    if isinstance(rb, RuntimeBatch) and (prog.gemms or prog.convs):
        # cuBLAS takes M and the batch count as an int, cuDNN its N; the tiled kernel's grid has M's tiles in y and
        # the batch count in z (gemm.GRID_YZ each): the batch is capped where one would overflow.
        caps = []
        for k, st in enumerate(prog.stages):
            if isinstance(st, GemmStage) and pure:
                caps.append(gemm_gen.GRID_YZ * (1 if st.batch else variant.gemm.tile[0]) // rb.per_sample[k])
            elif isinstance(st, (GemmStage, ConvStage)):
                caps.append(INT_MAX // rb.per_sample[k])
        rb = replace(rb, max_batch=max(rb.batch, min(rb.max_batch, *caps)))
    return rb


def _assemble(spec: TaskSpec, prog: Program, variant: Variant, *, strategy: str, title: str, idx_t: str,
              kernels: list[str], launches: list[str], setups: list[str], uses_cublas: bool, uses_lt: bool,
              uses_rows: bool, uses_cudnn: bool, tf32: bool, split: bool = False, policy: str = "fp32",
              rb: RuntimeBatch | None = None, sizes: dict[str, str] | None = None) -> str:
    parts = []
    summary = stage_summary(prog, variant)
    parts.append("// " + (title or f"hiera expert candidate for '{spec.name}'"))
    parts.append(f"// strategy: {strategy}")
    parts.append(f"// variant: {variant.label(knob_parts(prog, variant))}")
    parts.append("// sizes: " + (f"the batch (dim 0) at run time, 1 to {rb.max_batch}: at {rb.batch} (get_inputs()) "
                                 "the kernels specialised to it, at any other the general ones; every other size as "
                                 "given" if rb else "the shapes of get_inputs() only"))
    halves = sorted({b.dtype for b in prog.buffers if b.dtype in storage.HALF})
    if halves:
        parts.append(f"// precision: {policy} policy; {' and '.join(halves)} storage widened to fp32 on load and "
                     "rounded on store; fp32 arithmetic and accumulation (products: half operands on tensor "
                     "cores, fp32 accumulate, no reduced-precision reductions)")
    elif policy in ("bf16", "fp16"):
        parts.append(f"// precision: {policy} policy on fp32 tensors (autocast): products on {policy} tensor cores "
                     "with fp32 accumulation, everything else fp32")
    else:
        parts.append("// precision: " + ("TF32 allowed (tf32 policy)" if tf32 else
                                         "strict fp32: products as 3xTF32 (tensor cores on hi/lo-split operands)"
                                         if split else "strict fp32 (no TF32)"))
    parts += [f"//   {s}" for s in summary]
    parts.append(HEADER_INCLUDES.rstrip())
    if halves:
        parts += [storage.CUDA_HALF.rstrip(), storage.CUDA_HALF_VECTORS.rstrip()]
    if uses_cublas or uses_lt:
        parts.append("#include <cublas_v2.h>")
    if uses_lt:
        parts.append("#include <cublasLt.h>")
    if uses_cudnn:
        parts.append("#include <cudnn.h>")
    parts.append(f"\ntypedef {idx_t} idx_t;  // every index of this task fits")
    if any("hiera_aligned16(" in ln for ln in launches):
        parts.append(ALIGNED)
    if prog.temps:
        parts.append(WORKSPACE)
    if uses_cublas:
        parts.append(gemm_gen.cublas_handle(tf32, halves=bool(halves)))
    if uses_lt:
        parts.append(gemm_gen.LT_COMMON)
    if uses_cudnn:
        parts.append(CUDNN_HANDLE)
    parts += setups
    if uses_rows:
        parts.append(HELPERS)
    parts += kernels
    parts.append(_forward(spec, prog, launches, uses_cublas, uses_cudnn, rb, sizes or {}))
    return "\n".join(parts)


def _forward(spec: TaskSpec, prog: Program, launches: list[str], uses_cublas: bool, uses_cudnn: bool,
             rb: RuntimeBatch | None = None, sizes: dict[str, str] | None = None) -> str:
    lines = [f"extern \"C\" int hiera_forward({', '.join(c_params(spec))}) {{",
             "    cudaStream_t hiera_s = (cudaStream_t)stream;"]
    if rb is None:
        # Guards: the kernels are specialized for these shapes.
        lines += entry_preamble(spec, prog, "kernels")
    else:
        used = {b.name for b in prog.buffers}
        lines += guard_lines(spec, rb, lambda name: name in used, "kernels") + buffer_pointers(prog, "cuda")
    sizes = sizes or {}
    if prog.temps and any(b.name in sizes for b in prog.temps):
        # Slices of 64 floats (256 bytes); those that follow the batch sized for this call's.
        counts = [f"(({sizes[b.name]} + 63) / 64 * 64)" if b.name in sizes else f"{-(-b.numel // 64) * 64}ull"
                  for b in prog.temps]
        offsets = [(b, " + ".join(counts[:i]) or "0") for i, b in enumerate(prog.temps)]
        lines.append(f"    float* hiera_ws = hiera_workspace(({' + '.join(counts)}) * sizeof(float));")
        lines.append("    if (hiera_ws == nullptr) return 3;")
        for b, off in offsets:
            t = storage.c_type(prog, b.name, "cuda")
            where = f"hiera_ws + {off}" if t == "float" else f"({t}*)(hiera_ws + {off})"
            lines.append(f"    {t}* {pointer(b.c_name)} = {where};" + (f"  // {b.dtype}" if t != "float" else ""))
    elif prog.temps:
        offsets = []
        total = 0
        for b in prog.temps:
            offsets.append((b, total))
            total += -(-b.numel // 64) * 64  # 256-byte aligned slices
        lines.append(f"    float* hiera_ws = hiera_workspace({total}ull * sizeof(float));")
        lines.append("    if (hiera_ws == nullptr) return 3;")
        for b, off in offsets:
            t = storage.c_type(prog, b.name, "cuda")
            where = f"hiera_ws + {off}" if t == "float" else f"({t}*)(hiera_ws + {off})"
            lines.append(f"    {t}* {pointer(b.c_name)} = {where};  // {'x'.join(map(str, b.shape))}"
                         + (f" {b.dtype}" if t != "float" else ""))
    if uses_cublas:
        lines.append("    cublasHandle_t hiera_h = hiera_cublas(hiera_s);")
        lines.append("    if (hiera_h == nullptr) return 5;")
    if uses_cudnn:
        lines.append("    cudnnHandle_t hiera_dnn = hiera_cudnn(hiera_s);")
        lines.append("    if (hiera_dnn == nullptr) return 6;")
    lines += launches
    lines.append("    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;")
    lines.append("}")
    return "\n".join(lines) + "\n"


