"""Row kernels (CUDA): reductions over the last dim with everything around them fused, for rows of any length.

`threads` threads own one row (one thread, part of a warp, a warp, or a whole block). Each pass computes
the reductions whose inputs are ready (softmax: max, then the sum of exp(x - max); layer norm: the mean,
then the centered sum of squares), combining within the row by warp shuffles and, past 32 threads, one
shared-memory exchange. Values that do not change along the row (row statistics, per-row inputs) are
computed once per row, outside the column loops. How the row is walked depends on its length (RowPlan):

- registers: the row's inputs fit in a few dozen registers per thread: they are loaded once (float4 where
  the row allows) and every pass reads them there; the column loops are unrolled (their trip count is
  small by construction).
- loop: a longer row is streamed from memory by a loop with a compile-time trip count unrolled only
  UNROLL times, so the code size does not grow with the row; two-pass statistics that have an online
  form (softmax's max and sum, the norms' mean and variance) are taken in one pass (accumulators.py).
- split: when the rows are too few to fill the device (a full reduction is one row), each row is cut
  into chunks, one block per (row, chunk): a kernel per pass writes each chunk's partial result to the
  workspace, and the next kernel combines a row's partials before it goes on. Grid sizes come from the
  device's SM count and threads per SM.

Indices are of the program's index type (64-bit when an element count needs it), and loop counters that
multiply with a stride are widened before they do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import prod

from engine.agents.expert.codegen import accumulators as accs
from engine.agents.expert.codegen import storage
from engine.agents.expert.codegen.accumulators import Acc
from engine.agents.expert.codegen.common import (
    Emitter,
    KernelCode,
    col_varying,
    describe,
    last_stride,
    offset_code,
    pointer,
    reduction_passes,
    short,
    vec_ok,
)
from engine.agents.expert.codegen.pointwise import call_args, kernel_params
from engine.agents.expert.codegen.variants import RowParams
from engine.agents.expert.device import DeviceLimits
from engine.agents.expert.ir import Buffer, Const, Expr, FusedStage, Load, Program, Reduce, View, loads, walk

LANES = "xyzw"
REG_BUDGET = 64  # cached floats per thread before caching would cost occupancy (or spill)
REG_HEADROOM = 32  # registers a row kernel's thread needs beside its cached row (indices, the math, the sums)
UNROLL = 4  # unrolled trips of a streamed column loop: loads in flight without code growing with the row
SPLIT_MIN_VECTORS = 8  # a split row gives each thread at least this many vectors per chunk
MAX_SPLIT = 1024  # chunks per row at most (the partials of a row are combined by one block)

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


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _pow2_floor(t: int) -> int:
    p = 1
    while p * 2 <= t:
        p *= 2
    return p


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
    return _pow2_floor(max(1, min(1024, int(t * params.scale))))  # powers of two only (shuffle widths)


def cache_budget(block_threads: int) -> int:
    """Cached floats per thread for a block of this many threads: REG_BUDGET, less where the registers a thread may
    have (the SM's 65536 over the block's threads, at most 255) would not hold them beside REG_HEADROOM. A
    1024-thread block gets 64 registers a thread: a row cached in 64 of them spilled (level2/56's sum over rows
    of 32768: 140-232 bytes of spills a thread in the pre-flight), so it streams instead."""
    return max(0, min(REG_BUDGET, min(255, 65536 // max(1, block_threads)) - REG_HEADROOM))


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


@dataclass(frozen=True)
class RowPlan:
    """How one row stage is walked: see the module's docstring for the three modes."""

    mode: str  # registers | loop | split
    vec: int
    t: int  # threads per row
    rpb: int  # rows per block
    nv: int  # vectors per thread: over the row, or over one chunk when split
    split: int = 1  # chunks (blocks) per row
    chunk: int = 0  # elements per chunk (the row length unless split)
    transposed: bool = False
    online: bool = False  # online statistics (one pass where the exact form takes two)

    @property
    def unroll(self) -> str:
        return "#pragma unroll" if self.mode == "registers" else f"#pragma unroll {min(self.nv, UNROLL)}"


def _varying_loads(stage: FusedStage) -> list[Load]:
    seen: dict[Load, None] = {}
    memo: dict[Expr, bool] = {}
    for _, e in stage.outputs:
        for ld in loads(e):
            if col_varying(ld, stage.domain, memo):
                seen[ld] = None
    return list(seen)


def row_plan(stage: FusedStage, params: RowParams, dev: DeviceLimits) -> RowPlan:
    d, rows = stage.row_len, stage.rows
    n_varying = max(1, len(_varying_loads(stage)))
    if strided_rows(stage):
        t = params.threads if params.threads and params.threads <= 32 else int(8 * params.scale)
        t = _pow2_floor(max(1, min(t, d, 32)))
        nv = -(-d // t)
        fits = params.cache and nv * n_varying <= cache_budget(t * 32)
        return RowPlan("registers" if fits else "loop", 1, t, 32, nv, 1, d, True, not fits and params.online)
    vec = params.vec if d % params.vec == 0 else 1
    t = choose_threads(d, rows, params, vec)
    while t > 1 and t > max(1, d // vec):
        t //= 2  # never more threads than vectors in the row
    rpb = choose_rows_per_block(t, rows, params)
    nv = -(-d // (t * vec))
    blocks = -(-rows // rpb)
    want = dev.resident_blocks(t * rpb)
    split = params.split
    if split == 0:
        # Too few rows to fill the device, each long enough to share: cut the rows into chunks.
        split = -(-want // blocks) if rpb == 1 and 2 * blocks <= want else 1
        split = max(1, min(split, nv // SPLIT_MIN_VECTORS, MAX_SPLIT))
    split = max(1, min(split, nv, MAX_SPLIT))
    if split > 1:
        per = t * vec
        chunk = _ceil(_ceil(d, split), per) * per  # a whole number of block-wide vectors
        split = -(-d // chunk)
        if split > 1:
            return RowPlan("split", vec, t, 1, chunk // per, split, chunk, False, params.online)
    fits = params.cache and nv * vec * n_varying <= cache_budget(t * rpb)
    return RowPlan("registers" if fits else "loop", vec, t, rpb, nv, 1, d, False, not fits and params.online)


def _lead_view(view: View, domain: tuple[int, ...]) -> View:
    v = view.expand(domain)
    return View(v.buffer, v.shape[:-1], v.strides[:-1], v.offset)


RUNTIME_ROWS = "hiera_n"  # the launch's row count when the batch is taken at run time (set by hiera_forward)


def row_kernel(prog: Program, stage: FusedStage, params: RowParams, name: str, idx_t: str,
               dev: DeviceLimits | None = None, runtime: bool = False, plan: RowPlan | None = None) -> KernelCode:
    """The stage's kernel(s) and launch(es); a split row adds its partial-result buffers as temps. `runtime`: the
    row count is a kernel argument (the batch's, read when called: codegen/runtime_batch.py) and the launches read
    it from `hiera_n`; `plan` walks the rows as planned for another size (the given batch's) instead of this
    stage's own."""
    return _RowKernels(prog, stage, params, name, dev or DeviceLimits(), runtime, plan).build()


class _RowKernels:
    def __init__(self, prog: Program, stage: FusedStage, params: RowParams, name: str, dev: DeviceLimits,
                 runtime: bool = False, plan: RowPlan | None = None):
        self.stage, self.name, self.runtime = stage, name, runtime
        self.plan = p = plan or row_plan(stage, params, dev)
        self.dom = stage.domain
        self.d, self.rows = stage.row_len, stage.rows
        self.rows_c = "n_rows" if runtime else str(self.rows)  # the row count in the kernels' code
        self.exprs = [e for _, e in stage.outputs]
        self.passes = accs.plan_accumulators(reduction_passes(self.exprs), p.online)
        self.cv_memo: dict[Expr, bool] = {}
        self.loads: dict[Load, None] = {}
        for e in self.exprs:
            for ld in loads(e):
                self.loads[ld] = None
        self.reads = list(dict.fromkeys(ld.view.buffer for ld in self.loads))
        self.writes = [n for n, _ in stage.outputs]
        self.full_rows = not runtime and self.rows % p.rpb == 0
        self.exact = p.chunk * p.split == self.d and p.chunk % (p.t * p.vec) == 0
        varying = [ld for ld in self.loads if self.varies(ld)]
        self.vec_loads = {ld for ld in varying if p.vec > 1 and vec_ok(ld.view, self.dom, p.vec)}
        self.cached = {ld: f"c{k}" for k, ld in enumerate(varying)} \
            if p.mode == "registers" and params.cache and self.passes else {}
        # Split rows: a buffer per (pass, accumulator, component) holding each (row, chunk)'s partial.
        self.parts: list[list[list[str]]] = []
        temps: list[Buffer] = []
        if p.mode == "split":
            for k, pas in enumerate(self.passes):
                self.parts.append([])
                for q, acc in enumerate(pas):
                    names = [f"{name}_part{k}_{q}_{c}" for c in range(acc.comps)]
                    temps += [Buffer(n, (self.rows * p.split,), "float32", "temp", n) for n in names]
                    self.parts[-1].append(names)
        self.temps = tuple(temps)
        self.prog = Program(prog.buffers + self.temps, prog.stages)
        self.max_comps = max((a.comps for pas in self.passes for a in pas), default=1)
        self._reset()

    def _reset(self) -> None:
        self.fixed: dict[Expr, str] = {}
        self.lines: list[str] = []
        self.bases: dict[View, str] = {}
        self.n_hoist = 0

    # --- addressing and hoisting --------------------------------------------------------------------

    def varies(self, e: Expr) -> bool:
        return col_varying(e, self.dom, self.cv_memo)

    @property
    def row_var(self) -> str:
        # Inactive lanes (past the last row) read the last row, so every load stays in bounds.
        return "r" if self.full_rows else "rr"

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

    def value(self, ld: Load, col: str) -> str:
        """The element of `ld` at column `col` as a float (bf16 and fp16 widened: codegen/storage.py)."""
        return storage.ld(self.prog, ld.view.buffer, self.addr(ld, col))

    def vector(self, ld: Load, col: str) -> str:
        """The float4 of `ld`'s four elements from column `col` on."""
        return storage.vload(self.prog, ld.view.buffer, f"&{self.addr(ld, col)}", 4)

    def guard(self, col: str) -> str:
        conds = [] if self.full_rows else ["active"]
        if not self.exact:
            conds.append(f"{col} < {self.d}")
        return " && ".join(conds)

    def hoist(self, e: Expr) -> None:
        """Emit, once per row, the parts of e that do not change along the row and are computable now."""
        em = Emitter(lambda ld: self.value(ld, "0"), self.fixed, prefix=f"h{self.n_hoist}_")
        self.n_hoist += 1
        for n in walk(e):
            if not self.varies(n) and not isinstance(n, Const) and _ready(n, self.fixed):
                em.value(n)
        self.lines.extend(em.lines)
        self.fixed.update(em.memo)

    # --- the column loops ---------------------------------------------------------------------------

    def leaf(self, lane_i: int, vec_names: dict[Load, str]) -> Callable[[Load], str]:
        col = "col" if lane_i == 0 else f"(col + {lane_i})"
        vec = self.plan.vec

        def leaf(ld: Load) -> str:
            if ld in self.cached:
                c = self.cached[ld]
                if ld in self.vec_loads:
                    return f"{c}[j].{LANES[lane_i]}"
                return f"{c}[j * {vec} + {lane_i}]" if vec > 1 else f"{c}[j]"
            if ld in vec_names:
                return f"{vec_names[ld]}.{LANES[lane_i]}"
            return self.value(ld, col)

        return leaf

    def col_head(self) -> list[str]:
        p = self.plan
        start = "c0 + " if p.mode == "split" else ""
        return [p.unroll, f"    for (int j = 0; j < {p.nv}; ++j) {{",
                f"        const idx_t col = {start}((idx_t)j * {p.t} + lane) * {p.vec};"]

    def column_loop(self, body: list[Expr], consume: Callable[[list[list[str]], str], list[str]]) -> None:
        """The loop over this thread's vectors of the row (or chunk), evaluating `body` per element."""
        out = self.lines
        start = len(out)
        out.extend(self.col_head())
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
                out.append(f"{ind}const float4 {vec_names[ld]} = {self.vector(ld, 'col')};")
        lane_vals: list[list[str]] = []
        for lane_i in range(self.plan.vec):
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
        vec, nv = self.plan.vec, self.plan.nv
        for ld, c in self.cached.items():
            if ld in self.vec_loads:
                out.append(f"    float4 {c}[{nv}];")
            else:
                out.append(f"    float {c}[{nv * vec}];")
        out.extend(self.col_head())
        for ld, c in self.cached.items():
            if ld in self.vec_loads:
                g = self.guard("col")
                src = self.vector(ld, "col")
                val = f"{g} ? {src} : make_float4(0.0f, 0.0f, 0.0f, 0.0f)" if g else src
                out.append(f"        {c}[j] = {val};")
                continue
            for lane_i in range(vec):
                col = "col" if lane_i == 0 else f"col + {lane_i}"
                g = self.guard(f"({col})")
                src = self.value(ld, col)
                idx = f"j * {vec} + {lane_i}" if vec > 1 else "j"
                out.append(f"        {c}[{idx}] = {g + ' ? ' + src + ' : 0.0f' if g else src};")
        out.append("    }")

    # --- combining partial results ------------------------------------------------------------------

    def _shuffle(self, acc: Acc, a: list[str], width: int, ind: str = "    ") -> list[str]:
        """The accumulator combined across `width` consecutive lanes of a warp (every lane gets it)."""
        if acc.kind in accs.PLAIN:
            return [f"{ind}{a[0]} = hiera_warp_{acc.kind}<{width}>({a[0]});"]
        b = [f"{x}_o" for x in a]
        return [f"{ind}#pragma unroll", f"{ind}for (int o = {width // 2}; o > 0; o >>= 1) {{",
                *(f"{ind}    const float {bx} = __shfl_xor_sync(0xffffffffu, {ax}, o);" for ax, bx in zip(a, b)),
                *accs.combine(acc, a, b, ind + "    "), f"{ind}}}"]

    def row_combine(self, acc: Acc, a: list[str]) -> None:
        """Combine the accumulator over the threads of a row; afterwards every thread of the row holds it."""
        p, out = self.plan, self.lines
        if p.t == 1:
            return
        if p.transposed:
            # The lanes of a row are in different warps: they meet in shared memory, lane 0 combines.
            b = [f"xsm{c}[l][rib]" for c in range(acc.comps)]
            out += [f"    xsm{c}[lane][rib] = {x};" for c, x in enumerate(a)]
            out += ["    __syncthreads();", "    if (lane == 0) {",
                    f"        for (int l = 1; l < {p.t}; ++l) {{", *accs.combine(acc, a, b, "            "),
                    "        }", *(f"        xsm{c}[0][rib] = {x};" for c, x in enumerate(a)), "    }",
                    "    __syncthreads();", *(f"    {x} = xsm{c}[0][rib];" for c, x in enumerate(a)),
                    "    __syncthreads();"]
            return
        if p.t <= 32:
            out += self._shuffle(acc, a, p.t)
            return
        nw = p.t // 32
        if acc.kind in accs.PLAIN:
            out.append(f"    {a[0]} = hiera_block_{acc.kind}<{nw}>({a[0]}, smem);")
            return
        ident = accs.identity(acc)
        out += self._shuffle(acc, a, 32)
        out += ["    if ((threadIdx.x & 31) == 0) {",
                *(f"        smem[{c * 32} + (threadIdx.x >> 5)] = {x};" for c, x in enumerate(a)), "    }",
                "    __syncthreads();",
                *(f"    {x} = (threadIdx.x & 31) < {nw} ? smem[{c * 32} + (threadIdx.x & 31)] : {ident[c]};"
                  for c, x in enumerate(a))]
        out += self._shuffle(acc, a, 32)
        out.append("    __syncthreads();")

    def _declare(self, k: int, pas: list[Acc]) -> list[list[str]]:
        names = [[f"acc{k}_{q}_{c}" for c in range(acc.comps)] for q, acc in enumerate(pas)]
        for acc, a in zip(pas, names):
            self.lines += [f"    float {x} = {v};" for x, v in zip(a, accs.identity(acc))]
        return names

    def _publish(self, k: int, pas: list[Acc], names: list[list[str]]) -> None:
        """The pass's results become row values (`fixed`) the later passes and the outputs read."""
        for q, (acc, a) in enumerate(zip(pas, names)):
            for i, (red, code) in enumerate(accs.results(acc, a)):
                v = f"red{k}_{q}_{i}"
                self.lines.append(f"    const float {v} = {code};  // {red.op} over the row")
                self.fixed[red] = v

    def reduction_pass(self, k: int, pas: list[Acc]) -> list[list[str]]:
        for acc in pas:
            self.hoist(acc.x)
        names = self._declare(k, pas)

        def consume(lane_vals: list[list[str]], ind: str) -> list[str]:
            out = []
            for q, (acc, a) in enumerate(zip(pas, names)):
                out += accs.update(acc, a, [lv[q] for lv in lane_vals], ind)
            return out

        self.column_loop([acc.x for acc in pas], consume)
        for acc, a in zip(pas, names):
            self.row_combine(acc, a)
        return names

    def gather_partials(self, k: int, pas: list[Acc]) -> None:
        """Split rows: a row's chunk partials of pass k, combined by the block, published as row values."""
        names = self._declare(k, pas)
        s = self.plan.split
        self.lines.append(f"    for (int i = lane; i < {s}; i += {self.plan.t}) {{")
        for q, (acc, a) in enumerate(zip(pas, names)):
            b = [f"{pointer(n)}[r * {s} + i]" for n in self.parts[k][q]]
            self.lines += accs.combine(acc, a, b, "        ")
        self.lines.append("    }")
        for acc, a in zip(pas, names):
            self.row_combine(acc, a)
        self._publish(k, pas, names)

    # --- outputs ----------------------------------------------------------------------------------------

    def outputs(self) -> None:
        full = prod(self.dom)
        elem = [(o, e) for o, e in self.stage.outputs if self.prog.buffer(o).numel == full]
        per_row = [(o, e) for o, e in self.stage.outputs if self.prog.buffer(o).numel != full]
        vec = self.plan.vec
        for _, e in elem:
            self.hoist(e)
        if elem:
            def store(lane_vals: list[list[str]], ind: str) -> list[str]:
                out = []
                for k, (o, _) in enumerate(elem):
                    p = pointer(self.prog.buffer(o).c_name)
                    vals = [lv[k] for lv in lane_vals]
                    if vec == 4:
                        out.append(f"{ind}{storage.vstore(self.prog, o, f'&{p}[r * {self.d} + col]', 4, vals)}")
                    else:
                        for i, v in enumerate(vals):
                            ref = f"{p}[r * {self.d} + col{' + ' + str(i) if i else ''}]"
                            out.append(f"{ind}{storage.st(self.prog, o, ref, v)};")
                return out

            self.column_loop([e for _, e in elem], store)
        if per_row:
            for _, e in per_row:
                self.hoist(e)
            cond = ("active && " if not self.full_rows else "") + "lane == 0" + \
                (" && chunk == 0" if self.plan.mode == "split" and elem else "")
            self.lines.append(f"    if ({cond}) {{")
            for o, e in per_row:
                em = Emitter(lambda ld: self.value(ld, "0"), self.fixed, prefix="o", indent="        ")
                v = em.value(e)
                self.lines.extend(em.lines)
                ref = f"{pointer(self.prog.buffer(o).c_name)}[r]"
                self.lines.append(f"        {storage.st(self.prog, o, ref, v)};")
            self.lines.append("    }")

    # --- kernels --------------------------------------------------------------------------------------

    def _head(self, name: str, reads: list[str], writes: list[str], what: str) -> list[str]:
        p = self.plan
        extra = ("const idx_t n_rows",) if self.runtime else ()
        head = [f"// {what}",
                f"__global__ void __launch_bounds__({p.t * p.rpb}) {name}("
                f"{kernel_params(self.prog, reads, writes, extra)}) {{"]
        if p.transposed:
            # Adjacent threads take adjacent rows (adjacent in memory); a row's lanes are rpb threads apart.
            head += [f"    __shared__ float xsm{c}[{p.t}][{p.rpb + 1}];" for c in range(self.max_comps)]
            head.append(f"    const int lane = threadIdx.x / {p.rpb}, rib = threadIdx.x % {p.rpb};")
            head.append(f"    const idx_t r = (idx_t)blockIdx.x * {p.rpb} + rib;")
        else:
            if p.t > 32:
                head.append(f"    __shared__ float smem[{32 * self.max_comps}];")
            head.append(f"    const int lane = threadIdx.x{' % ' + str(p.t) if p.rpb > 1 else ''};")
            row = f"(idx_t)blockIdx.x * {p.rpb} + threadIdx.x / {p.t}" if p.rpb > 1 else "(idx_t)blockIdx.x"
            head.append(f"    const idx_t r = {row};")
            if p.mode == "split":
                head.append("    const idx_t chunk = blockIdx.y;")
                head.append(f"    const idx_t c0 = chunk * {p.chunk};")
                head.append("    (void)c0;")
        if not self.full_rows:
            # Lanes past the last row still take part in the shuffles, so they must not return early.
            head.append(f"    const bool active = r < {self.rows_c};")
            head.append(f"    const idx_t rr = active ? r : {self.rows_c} - 1;")
            if not self.bases:
                head.append("    (void)rr;  // no row-indexed base to clamp")
        lead = self.dom[:-1]
        for lv, bname in self.bases.items():
            code = offset_code(lv, lead, self.row_var) if lead else "0"
            head.append(f"    const idx_t {bname} = {code};")
        return head

    def _kernel(self, name: str, reads: list[str], writes: list[str], what: str, grid: str) -> tuple[str, str]:
        body = self.lines
        src = "\n".join([*self._head(name, reads, writes, what), *body, "}"]) + "\n"
        p = self.plan
        args = call_args(self.prog, reads, writes) + (f", {RUNTIME_ROWS}" if self.runtime else "")
        launch = f"    {name}<<<{grid}, {p.t * p.rpb}, 0, hiera_s>>>({args});"
        self._reset()
        return src, launch

    def _summary(self) -> str:
        p = self.plan
        what = "; ".join(f"{o} = {short(describe(e), 120)}" for o, e in self.stage.outputs)
        how = {"registers": "the row stays in registers between passes",
               "loop": f"the row is streamed (loop unrolled {min(p.nv, UNROLL)}x)",
               "split": f"each row split over {p.split} blocks of {p.chunk} elements"}[p.mode]
        online = "; online statistics" if p.online and any(a.kind not in accs.PLAIN for pas in self.passes
                                                           for a in pas) else ""
        rows = "n_rows (the batch's, at run time)" if self.runtime else str(self.rows)
        return (f"{what}\n// {rows} rows of {self.d}: {p.t} thread(s) per row, {p.rpb} row(s) per block, "
                f"{p.nv} vector(s) of {p.vec} per thread; {len(self.passes)} reduction pass(es); {how}{online}"
                + ("; rows across threads (the row is strided in memory)" if p.transposed else ""))

    def _grid_rows(self) -> str:
        return f"(unsigned){RUNTIME_ROWS}" if self.runtime else str(self.rows)

    def build(self) -> KernelCode:
        p = self.plan
        if p.mode != "split":
            if self.cached:
                self.load_cache()
            for k, pas in enumerate(self.passes):
                self._publish(k, pas, self.reduction_pass(k, pas))
            self.outputs()
            grid = f"(unsigned)(({RUNTIME_ROWS} + {p.rpb - 1}) / {p.rpb})" if self.runtime else \
                str(-(-self.rows // p.rpb))
            src, launch = self._kernel(self.name, self.reads, self.writes, self._summary(), grid)
            return KernelCode(src, launch, tuple(self.reads), tuple(self.writes))
        sources, launches = [], []
        for k, pas in enumerate(self.passes):
            for j in range(k):
                self.gather_partials(j, self.passes[j])
            names = self.reduction_pass(k, pas)
            self.lines.append("    if (lane == 0) {")
            for q, a in enumerate(names):
                self.lines += [f"        {pointer(n)}[r * {p.split} + chunk] = {x};"
                               for n, x in zip(self.parts[k][q], a)]
            self.lines.append("    }")
            prev = [n for j in range(k) for q in self.parts[j] for n in q]
            mine = [n for q in self.parts[k] for n in q]
            what = f"pass {k + 1} of {len(self.passes)}: each chunk's partial result\n// " + self._summary()
            src, launch = self._kernel(f"{self.name}_pass{k}", self.reads + prev, mine, what,
                                       f"dim3({self._grid_rows()}, {p.split})")
            sources.append(src)
            launches.append(launch)
        for j, pas in enumerate(self.passes):
            self.gather_partials(j, pas)
        self.outputs()
        # Per-row outputs only (a full reduction): one block per row combines the partials and writes.
        elementwise = any(self.prog.buffer(o).numel == prod(self.dom) for o in self.writes)
        parts = [n for pas in self.parts for q in pas for n in q]
        src, launch = self._kernel(self.name, self.reads + parts, self.writes, "the outputs\n// " + self._summary(),
                                   f"dim3({self._grid_rows()}, {p.split if elementwise else 1})")
        return KernelCode("\n".join([*sources, src]), "\n".join([*launches, launch]), tuple(self.reads),
                          tuple(self.writes), self.temps)


def _ready(e: Expr, fixed: dict[Expr, str]) -> bool:
    """All reductions under e are computed already."""
    return all(n in fixed for n in walk(e) if isinstance(n, Reduce))


def vec_pointers(prog: Program, stage: FusedStage, params: RowParams, dev: DeviceLimits | None = None) -> list[str]:
    """Pointers a row kernel reads or writes as float4 (they must be 16-byte aligned at run time)."""
    vec = row_plan(stage, params, dev or DeviceLimits()).vec
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
