"""Row kernels (CUDA): reductions over the last dim with everything around them fused.

`threads` threads own one row (one thread, part of a warp, a warp, or a whole block). Each pass computes
the reductions whose inputs are ready (softmax: max, then the sum of exp(x - max); layer norm: the mean,
then the centered sum of squares), combining within the row by warp shuffles and, past 32 threads, one
shared-memory exchange. With `cache` the row's inputs are loaded once into registers (float4 when the
row allows) and every pass reads them there: one read of global memory, one write, whatever the number
of passes. Values that do not change along the row (row statistics, per-row inputs) are computed once
per row, outside the column loops.
"""

from __future__ import annotations

from collections.abc import Callable
from math import prod

from engine.agents.expert.codegen.common import (
    Emitter,
    KernelCode,
    col_varying,
    describe,
    last_stride,
    offset_code,
    pointer,
    reduce_combine,
    reduce_identity,
    reduction_passes,
    short,
    vec_ok,
)
from engine.agents.expert.codegen.pointwise import call_args, kernel_params
from engine.agents.expert.codegen.variants import RowParams
from engine.agents.expert.ir import Const, Expr, FusedStage, Load, Program, Reduce, View, loads, walk

LANES = "xyzw"
REG_BUDGET = 64  # cached floats per thread before caching would cost occupancy (or spill)

HELPERS = r"""
// Combine a value across `W` consecutive lanes (W a power of two <= 32); every lane gets the result.
template <int W> __device__ __forceinline__ float hiera_warp_sum(float v) {
#pragma unroll
    for (int o = W / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
template <int W> __device__ __forceinline__ float hiera_warp_max(float v) {
#pragma unroll
    for (int o = W / 2; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
template <int W> __device__ __forceinline__ float hiera_warp_min(float v) {
#pragma unroll
    for (int o = W / 2; o > 0; o >>= 1) v = fminf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
// Combine across a whole block of NW warps: each warp's result goes through shared memory, then every
// warp reduces the NW partials itself, so all threads get the total without a second broadcast.
#define HIERA_BLOCK_REDUCE(NAME, OP, IDENTITY)                                       \
    template <int NW> __device__ __forceinline__ float NAME(float v, float* smem) { \
        v = OP<32>(v);                                                               \
        const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;                  \
        if (lane == 0) smem[warp] = v;                                               \
        __syncthreads();                                                             \
        v = lane < NW ? smem[lane] : IDENTITY;                                       \
        v = OP<32>(v);                                                               \
        __syncthreads();                                                             \
        return v;                                                                    \
    }
HIERA_BLOCK_REDUCE(hiera_block_sum, hiera_warp_sum, 0.0f)
HIERA_BLOCK_REDUCE(hiera_block_max, hiera_warp_max, -INFINITY)
HIERA_BLOCK_REDUCE(hiera_block_min, hiera_warp_min, INFINITY)
"""


def choose_threads(d: int, rows: int, params: RowParams, vec: int) -> int:
    """Threads per row: enough to cover the row in a few vectors each, without idling most of a warp."""
    if params.threads:
        return params.threads
    chunks = max(1, d // vec)
    if d <= 16:
        t = 1
    elif chunks <= 32:
        t = 8 if chunks <= 8 else 16 if chunks <= 16 else 32
    elif d <= 1024:
        t = 32
    elif d <= 2048:
        t = 128
    elif d <= 4096:
        t = 256
    elif d <= 8192:
        t = 512
    else:
        t = 1024
    t = int(t * params.scale)
    t = max(1, min(1024, t))
    # powers of two only (shuffle widths)
    p = 1
    while p * 2 <= t:
        p *= 2
    return p


def choose_rows_per_block(t: int, rows: int, params: RowParams) -> int:
    if t > 32:
        return 1
    if params.rows_per_block:
        return max(1, min(params.rows_per_block, 1024 // t))
    return max(1, min(256 // t, 1024 // t))


def strided_rows(stage: FusedStage) -> bool:
    """True when the row runs across memory (a reduction over a non-innermost dim) and the rows are adjacent.

    Then lanes along the row would each touch a different memory segment; instead adjacent threads take
    adjacent rows (coalesced) and the lanes of one row meet in shared memory.
    """
    dom = stage.domain
    varying = [ld for _, e in stage.outputs for ld in loads(e) if last_stride(ld.view, dom) != 0]
    if not varying or any(last_stride(ld.view, dom) == 1 for ld in varying):
        return False
    lead = dom[:-1]
    return bool(lead) and all(ld.view.expand(dom).strides[-2] == 1 for ld in varying)


def row_config(stage: FusedStage, params: RowParams) -> tuple[int, int, int, int]:
    """(vec, threads per row, rows per block, vectors per thread) for a stage."""
    d = stage.row_len
    if strided_rows(stage):
        rpb = 32
        t = params.threads if params.threads and params.threads <= 32 else int(8 * params.scale)
        p = 1
        while p * 2 <= max(1, min(t, d, 32)):
            p *= 2
        return 1, p, rpb, -(-d // p)
    vec = params.vec if d % params.vec == 0 else 1
    t = choose_threads(d, stage.rows, params, vec)
    if t > d // vec and t > 1:
        # never more threads than vectors in the row
        while t > 1 and t > max(1, d // vec):
            t //= 2
    rpb = choose_rows_per_block(t, stage.rows, params)
    nv = -(-d // (t * vec))
    return vec, t, rpb, nv


def _lead_view(view: View, domain: tuple[int, ...]) -> View:
    v = view.expand(domain)
    return View(v.buffer, v.shape[:-1], v.strides[:-1], v.offset)


def row_kernel(prog: Program, stage: FusedStage, params: RowParams, name: str, idx_t: str) -> KernelCode:
    return _RowKernel(prog, stage, params, name).build()


class _RowKernel:
    def __init__(self, prog: Program, stage: FusedStage, params: RowParams, name: str):
        self.prog, self.stage, self.params, self.name = prog, stage, params, name
        self.dom = stage.domain
        self.d, self.rows = stage.row_len, stage.rows
        self.vec, self.t, self.rpb, self.nv = row_config(stage, params)
        self.transposed = strided_rows(stage)
        self.exprs = [e for _, e in stage.outputs]
        self.passes = reduction_passes(self.exprs)
        self.cv_memo: dict[Expr, bool] = {}
        self.loads: dict[Load, None] = {}
        for e in self.exprs:
            for ld in loads(e):
                self.loads[ld] = None
        self.reads = list(dict.fromkeys(ld.view.buffer for ld in self.loads))
        self.writes = [n for n, _ in stage.outputs]
        self.exact = self.d % (self.t * self.vec) == 0
        self.full_rows = self.rows % self.rpb == 0
        # Inactive lanes (past the last row) read the last row, so every load stays in bounds.
        self.row_var = "r" if self.full_rows else "rr"
        self.bases: dict[View, str] = {}
        varying = [ld for ld in self.loads if self.varies(ld)]
        self.vec_loads = {ld for ld in varying if self.vec > 1 and vec_ok(ld.view, self.dom, self.vec)}
        fits = self.nv * self.vec * max(1, len(varying)) <= REG_BUDGET
        self.cached = {ld: f"c{k}" for k, ld in enumerate(varying)} if params.cache and self.passes and fits else {}
        self.fixed: dict[Expr, str] = {}
        self.lines: list[str] = []
        self.n_hoist = 0

    def varies(self, e: Expr) -> bool:
        return col_varying(e, self.dom, self.cv_memo)

    def base(self, ld: Load) -> str:
        lv = _lead_view(ld.view, self.dom)
        if lv not in self.bases:
            self.bases[lv] = f"rb{len(self.bases)}"
        return self.bases[lv]

    def addr(self, ld: Load, col: str) -> str:
        p = pointer(self.prog.buffer(ld.view.buffer).c_name)
        st = last_stride(ld.view, self.dom)
        b = self.base(ld)
        if st == 0:
            return f"{p}[{b}]"
        return f"{p}[{b} + {col}]" if st == 1 else f"{p}[{b} + ({col}) * {st}]"

    def guard(self, col: str) -> str:
        conds = [] if self.full_rows else ["active"]
        if not self.exact:
            conds.append(f"{col} < {self.d}")
        return " && ".join(conds)

    def hoist(self, e: Expr) -> None:
        """Emit, once per row, the parts of e that do not change along the row and are computable now."""
        em = Emitter(lambda ld: self.addr(ld, "0"), self.fixed, prefix=f"h{self.n_hoist}_")
        self.n_hoist += 1
        for n in walk(e):
            if not self.varies(n) and not isinstance(n, Const) and _ready(n, self.fixed):
                em.value(n)
        self.lines.extend(em.lines)
        self.fixed.update(em.memo)

    def leaf(self, lane_i: int, vec_names: dict[Load, str]) -> Callable[[Load], str]:
        col = "col" if lane_i == 0 else f"(col + {lane_i})"

        def leaf(ld: Load) -> str:
            if ld in self.cached:
                c = self.cached[ld]
                if ld in self.vec_loads:
                    return f"{c}[j].{LANES[lane_i]}"
                return f"{c}[j * {self.vec} + {lane_i}]" if self.vec > 1 else f"{c}[j]"
            if ld in vec_names:
                return f"{vec_names[ld]}.{LANES[lane_i]}"
            return self.addr(ld, col)

        return leaf

    def column_loop(self, body: list[Expr], consume: Callable[[list[list[str]], str], list[str]]) -> None:
        """The loop over this thread's vectors of the row, evaluating `body` per element."""
        out = self.lines
        start = len(out)
        out.append("#pragma unroll")
        out.append(f"    for (int j = 0; j < {self.nv}; ++j) {{")
        out.append(f"        const idx_t col = (idx_t)(lane + j * {self.t}) * {self.vec};")
        g = self.guard("col")
        ind = "        "
        if g:
            out.append(f"        if ({g}) {{")
            ind = "            "
        vec_names: dict[Load, str] = {}
        needed = {ld for e in body for ld in loads(e) if self.varies(ld) and ld not in self.cached}
        for ld in self.loads:
            if ld in needed and ld in self.vec_loads:
                vec_names[ld] = f"q{len(vec_names)}"
                out.append(f"{ind}const float4 {vec_names[ld]} = "
                           f"*reinterpret_cast<const float4*>(&{self.addr(ld, 'col')});")
        lane_vals: list[list[str]] = []
        for lane_i in range(self.vec):
            em = Emitter(self.leaf(lane_i, vec_names), self.fixed, prefix=f"e{lane_i}_", indent=ind)
            lane_vals.append([em.value(e) for e in body])
            out.extend(em.lines)
        out.extend(consume(lane_vals, ind))
        if g:
            out.append("        }")
        out.append("    }")
        if not any("col" in ln for ln in out[start + 3:]):
            del out[start + 2]  # every value came from registers: the column index is not needed

    def load_cache(self) -> None:
        out = self.lines
        for ld, c in self.cached.items():
            if ld in self.vec_loads:
                out.append(f"    float4 {c}[{self.nv}];")
            else:
                out.append(f"    float {c}[{self.nv * self.vec}];")
        out.append("#pragma unroll")
        out.append(f"    for (int j = 0; j < {self.nv}; ++j) {{")
        out.append(f"        const idx_t col = (idx_t)(lane + j * {self.t}) * {self.vec};")
        for ld, c in self.cached.items():
            if ld in self.vec_loads:
                g = self.guard("col")
                src = f"*reinterpret_cast<const float4*>(&{self.addr(ld, 'col')})"
                val = f"{g} ? {src} : make_float4(0.0f, 0.0f, 0.0f, 0.0f)" if g else src
                out.append(f"        {c}[j] = {val};")
                continue
            for lane_i in range(self.vec):
                col = "col" if lane_i == 0 else f"col + {lane_i}"
                g = self.guard(f"({col})")
                src = self.addr(ld, col)
                idx = f"j * {self.vec} + {lane_i}" if self.vec > 1 else "j"
                out.append(f"        {c}[{idx}] = {g + ' ? ' + src + ' : 0.0f' if g else src};")
        out.append("    }")

    def reduction_pass(self, k: int, reds: list[Reduce]) -> None:
        for red in reds:
            self.hoist(red.x)
        accs = [f"acc{k}_{q}" for q in range(len(reds))]
        for acc, red in zip(accs, reds):
            self.lines.append(f"    float {acc} = {reduce_identity(red.op)};")

        def consume(lane_vals: list[list[str]], ind: str) -> list[str]:
            return [f"{ind}{acc} = {reduce_combine(red.op, acc, v)};"
                    for vals in lane_vals for acc, red, v in zip(accs, reds, vals)]

        self.column_loop([red.x for red in reds], consume)
        for q, (acc, red) in enumerate(zip(accs, reds)):
            if self.transposed and self.t > 1:
                # lanes of a row are in different warps: meet in shared memory
                comb = reduce_combine(red.op, "v", "xsm[l][rib]")
                self.lines += [
                    f"    xsm[lane][rib] = {acc};",
                    "    __syncthreads();",
                    "    if (lane == 0) {",
                    "        float v = xsm[0][rib];",
                    f"        for (int l = 1; l < {self.t}; ++l) v = {comb};",
                    "        xsm[0][rib] = v;",
                    "    }",
                    "    __syncthreads();",
                    f"    const float red{k}_{q} = xsm[0][rib];  // {red.op} over the row",
                    "    __syncthreads();",
                ]
                self.fixed[red] = f"red{k}_{q}"
                continue
            if self.t == 1:
                combined = acc
            elif self.t <= 32:
                combined = f"hiera_warp_{red.op}<{self.t}>({acc})"
            else:
                combined = f"hiera_block_{red.op}<{self.t // 32}>({acc}, smem)"
            name = f"red{k}_{q}"
            self.lines.append(f"    const float {name} = {combined};  // {red.op} over the row")
            self.fixed[red] = name

    def outputs(self) -> None:
        full = prod(self.dom)
        elem = [(o, e) for o, e in self.stage.outputs if self.prog.buffer(o).numel == full]
        per_row = [(o, e) for o, e in self.stage.outputs if self.prog.buffer(o).numel != full]
        for _, e in elem:
            self.hoist(e)
        if elem:
            def store(lane_vals: list[list[str]], ind: str) -> list[str]:
                out = []
                for k, (o, _) in enumerate(elem):
                    p = pointer(self.prog.buffer(o).c_name)
                    vals = [lv[k] for lv in lane_vals]
                    if self.vec == 4:
                        out.append(f"{ind}*reinterpret_cast<float4*>(&{p}[r * {self.d} + col]) = "
                                   f"make_float4({', '.join(vals)});")
                    else:
                        out += [f"{ind}{p}[r * {self.d} + col{' + ' + str(i) if i else ''}] = {v};"
                                for i, v in enumerate(vals)]
                return out

            self.column_loop([e for _, e in elem], store)
        if per_row:
            for _, e in per_row:
                self.hoist(e)
            cond = ("active && " if not self.full_rows else "") + "lane == 0"
            self.lines.append(f"    if ({cond}) {{")
            for o, e in per_row:
                em = Emitter(lambda ld: self.addr(ld, "0"), self.fixed, prefix="o", indent="        ")
                v = em.value(e)
                self.lines.extend(em.lines)
                self.lines.append(f"        {pointer(self.prog.buffer(o).c_name)}[r] = {v};")
            self.lines.append("    }")

    def build(self) -> KernelCode:
        body_start = len(self.lines)
        if self.cached:
            self.load_cache()
        for k, reds in enumerate(self.passes):
            self.reduction_pass(k, reds)
        self.outputs()
        body = self.lines[body_start:]
        t, rpb, d, rows = self.t, self.rpb, self.d, self.rows
        what = "; ".join(f"{o} = {short(describe(e), 120)}" for o, e in self.stage.outputs)
        head = [
            f"// {what}",
            f"// {rows} rows of {d}: {t} thread(s) per row, {rpb} row(s) per block, {self.nv} vector(s) of "
            f"{self.vec} per thread; {len(self.passes)} reduction pass(es)"
            + ("; rows across threads (the row is strided in memory)" if self.transposed else "")
            + ("; the row stays in registers between passes" if self.cached else ""),
            f"__global__ void __launch_bounds__({t * rpb}) {self.name}("
            f"{kernel_params(self.prog, self.reads, self.writes)}) {{",
        ]
        if self.transposed:
            # Adjacent threads take adjacent rows (adjacent in memory); a row's lanes are rpb threads apart.
            head.append(f"    __shared__ float xsm[{t}][{rpb + 1}];")
            head.append(f"    const int lane = threadIdx.x / {rpb}, rib = threadIdx.x % {rpb};")
            head.append(f"    const idx_t r = (idx_t)blockIdx.x * {rpb} + rib;")
        else:
            if t > 32:
                head.append("    __shared__ float smem[32];")
            head.append(f"    const int lane = threadIdx.x{' % ' + str(t) if rpb > 1 else ''};")
            row = f"(idx_t)blockIdx.x * {rpb} + threadIdx.x / {t}" if rpb > 1 else "(idx_t)blockIdx.x"
            head.append(f"    const idx_t r = {row};")
        if not self.full_rows:
            # Lanes past the last row still take part in the shuffles, so they must not return early.
            head.append(f"    const bool active = r < {rows};")
            head.append(f"    const idx_t rr = active ? r : {rows - 1};")
        lead = self.dom[:-1]
        for lv, name in self.bases.items():
            code = offset_code(lv, lead, self.row_var) if lead else "0"
            head.append(f"    const idx_t {name} = {code};")
        src = "\n".join([*head, *body, "}"]) + "\n"
        grid = -(-rows // rpb)
        launch = f"    {self.name}<<<{grid}, {t * rpb}, 0, hiera_s>>>({call_args(self.prog, self.reads, self.writes)});"
        return KernelCode(src, launch, tuple(self.reads), tuple(self.writes))


def _ready(e: Expr, fixed: dict[Expr, str]) -> bool:
    """All reductions under e are computed already."""
    return all(n in fixed for n in walk(e) if isinstance(n, Reduce))


def vec_pointers(prog: Program, stage: FusedStage, params: RowParams) -> list[str]:
    """Pointers a row kernel reads or writes as float4 (they must be 16-byte aligned at run time)."""
    vec = row_config(stage, params)[0]
    if vec == 1:
        return []
    dom = stage.domain
    out: list[str] = []
    for _, e in stage.outputs:
        for ld in loads(e):
            if vec_ok(ld.view, dom, vec) and last_stride(ld.view, dom) != 0:
                p = pointer(prog.buffer(ld.view.buffer).c_name)
                if p not in out:
                    out.append(p)
    for o, _ in stage.outputs:
        if prog.buffer(o).numel == prod(dom):
            p = pointer(prog.buffer(o).c_name)
            if p not in out:
                out.append(p)
    return out
