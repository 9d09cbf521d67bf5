"""Matrix products (CUDA): cuBLAS, cuBLASLt with a fused bias epilogue, or a generated tiled SGEMM.

Row-major to column-major: cuBLAS computes column-major products, and a row-major C = A @ B is the
column-major C^T = B^T @ A^T, so the library is called with the operands swapped and (N, M, K) as its
(m, n, k). An operand stored transposed (nn.Linear's weight as x @ W^T) is passed with op T, never
copied.

Precision: under the fp32 policy the handle stays in CUBLAS_DEFAULT_MATH with CUBLAS_COMPUTE_32F, which
never uses TF32; TF32 tensor-op math is requested only under the tf32 policy. bf16 and fp16 operands (a module
in that precision: codegen/storage.py) go through cublasGemmEx / cuBLASLt with their own types and
CUBLAS_COMPUTE_32F: tensor cores multiply the halves and accumulate in fp32, and the handle disallows cuBLAS's
reduced-precision reductions (split-K partial sums in the output's type), so no partial sum is kept in bf16.
fp32 operands under the bf16 or fp16 policy (an fp32 module under torch.autocast) use
CUBLAS_COMPUTE_32F_FAST_16BF / _16F: the library rounds them to halves for the tensor cores, as autocast does,
and accumulates in fp32.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from engine.agents.expert.codegen import storage
from engine.agents.expert.codegen.common import Emitter, KernelCode, describe, offset_code, pointer, short
from engine.agents.expert.codegen.pointwise import call_args, kernel_params
from engine.agents.expert.codegen.variants import GemmParams
from engine.agents.expert.ir import Expr, FusedStage, GemmStage, Load, Program, View, loads, stage_reads


@dataclass(frozen=True)
class Operand:
    """One operand's last two dims as BLAS sees them, plus its batch strides."""

    trans: bool  # stored transposed relative to the logical (rows, cols)
    ld: int
    offset: int
    batch_strides: tuple[int, ...]

    def at(self, name: str, row: str, col: str) -> str:
        """C text reading logical element (row, col) through pointer `name`."""
        return f"{name}[({row}) * {self.ld} + ({col})]" if not self.trans else f"{name}[({col}) * {self.ld} + ({row})]"


def operand(view: View, rows: int, cols: int) -> Operand:
    sr, sc = view.strides[-2], view.strides[-1]
    batch = tuple(view.strides[:-2])
    if sc == 1 and (rows == 1 or sr >= cols):
        return Operand(False, max(sr, cols, 1) if rows > 1 else max(cols, 1), view.offset, batch)
    if sr == 1 and (cols == 1 or sc >= rows):
        return Operand(True, max(sc, rows, 1) if cols > 1 else max(rows, 1), view.offset, batch)
    raise ValueError(f"operand strides {view.strides} are not BLAS-compatible")


def _ptr(prog: Program, name: str) -> str:
    return pointer(prog.buffer(name).c_name)


CUDA_TYPE = {"float32": "CUDA_R_32F", "bfloat16": "CUDA_R_16BF", "float16": "CUDA_R_16F"}
ITEMSIZE = {"float32": 4, "bfloat16": 2, "float16": 2}


def product_types(prog: Program, st: GemmStage, policy: str = "fp32") -> tuple[str, str, str]:
    """(operand type, output type, compute type) of one product as the libraries name them."""
    ta, tb, tc = (prog.buffer(x).dtype for x in (st.a.buffer, st.b.buffer, st.out))
    if ta != tb:
        raise ValueError(f"a product of {ta} by {tb}: the libraries take both operands in one type")
    if st.bias is not None and prog.buffer(st.bias.buffer).dtype != tc:
        raise ValueError("cuBLASLt's bias epilogue takes the bias in the output's type")
    compute = "CUBLAS_COMPUTE_32F"
    if ta == "float32" and policy in ("bf16", "fp16"):
        compute = "CUBLAS_COMPUTE_32F_FAST_16BF" if policy == "bf16" else "CUBLAS_COMPUTE_32F_FAST_16F"
    return CUDA_TYPE[ta], CUDA_TYPE[tc], compute


def _batch_loops(st: GemmStage, a: Operand, b: Operand) -> tuple[list[str], str, str, str, int, int, int, int]:
    """Host loops over all batch dims but the last; (loop lines, a/b/c offset exprs, last dim, strides)."""
    batch = st.batch
    lines: list[str] = []
    a_off, b_off, c_off = [str(a.offset)], [str(b.offset)], ["0"]
    c_strides = [prod(batch[d + 1:]) * st.m * st.n for d in range(len(batch))]
    for d in range(len(batch) - 1):
        lines.append(f"{'    ' * (d + 1)}for (long long b{d} = 0; b{d} < {batch[d]}; ++b{d}) {{")
        a_off.append(f"b{d} * {a.batch_strides[d]}")
        b_off.append(f"b{d} * {b.batch_strides[d]}")
        c_off.append(f"b{d} * {c_strides[d]}")
    last = batch[-1] if batch else 1
    sa = a.batch_strides[-1] if batch else 0
    sb = b.batch_strides[-1] if batch else 0
    sc = st.m * st.n
    return (lines, " + ".join(a_off), " + ".join(b_off), " + ".join(c_off), last, sa, sb, sc)


def _runtime_sizes(st: GemmStage, extent: str | None, count: int) -> tuple[str, str]:
    """(M, the strided batch's count) as C text: the given sizes, or with `extent` (the product's extent at this
    call's batch, codegen/runtime_batch.py) in place of what follows the batch: M for a product without batch dims,
    the count for one with one batch dim. A product with more batch dims keeps fixed loops: ValueError."""
    if extent is None:
        return str(st.m), str(count)
    if not st.batch:
        return f"(int){extent}", str(count)
    if len(st.batch) == 1:
        return str(st.m), f"(int){extent}"
    raise ValueError("a product with more than one batch dim: its host loops take fixed sizes")


def cublas_launch(prog: Program, st: GemmStage, policy: str = "fp32", extent: str | None = None) -> str:
    """Statements for one product through cublasSgemm(StridedBatched); the handle's math mode sets TF32. bf16 and
    fp16 operands, or fp32 ones under those policies, through cublasGemmEx(StridedBatchedEx) (module docstring).
    `extent`: the product takes the batch at run time (_runtime_sizes), any M or count the library is given."""
    tab, tc, compute = product_types(prog, st, policy)
    ex = (tab, tc, compute) != ("CUDA_R_32F", "CUDA_R_32F", "CUBLAS_COMPUTE_32F")  # the typed (Ex) calls
    a = operand(st.a, st.m, st.k)
    b = operand(st.b, st.k, st.n)
    loops, a_off, b_off, c_off, last, sa, sb, sc = _batch_loops(st, a, b)
    m, count = _runtime_sizes(st, extent, last)
    depth = len(loops)
    ind = "    " * (depth + 1)
    opa = "CUBLAS_OP_T" if a.trans else "CUBLAS_OP_N"
    opb = "CUBLAS_OP_T" if b.trans else "CUBLAS_OP_N"
    pa, pb, pc = _ptr(prog, st.a.buffer), _ptr(prog, st.b.buffer), _ptr(prog, st.out)
    types = f"{tab} operands, {tc} out, {compute}; " if ex else ""
    out = [f"    // {st.out} = {st.a.buffer} @ {st.b.buffer}: M={m} N={st.n} K={st.k}"
           + (f", batch {_batch_text(st, extent)}" if st.batch else "")
           + f" ({types}column-major: C^T = B^T A^T)",
           "    {", f"        const float alpha = {st.alpha!r}f, beta = 0.0f;"]
    out += ["    " + ln for ln in loops]
    common = f"{opb}, {opa}, {st.n}, {m}, {st.k}, &alpha"
    # Each operand as (pointer, [type,] leading dim[, batch stride]): the Ex calls name the types, the strided
    # batched ones the strides.
    ta, tcc = (f", {tab}", f", {tc}") if ex else ("", "")
    sb_, sa_, sc_ = (f", {sb}", f", {sa}", f", {sc}") if st.batch else ("", "", "")
    tail = f", {count}" if st.batch else ""
    tail += f", {compute}, CUBLAS_GEMM_DEFAULT" if ex else ""
    name = {(False, False): "cublasSgemm", (False, True): "cublasSgemmStridedBatched",
            (True, False): "cublasGemmEx", (True, True): "cublasGemmStridedBatchedEx"}[(ex, bool(st.batch))]
    out.append(f"{ind}    if ({name}(hiera_h, {common}, {pb} + {b_off}{ta}, {b.ld}{sb_}, {pa} + {a_off}{ta}, "
               f"{a.ld}{sa_}, &beta, {pc} + {c_off}{tcc}, {st.n}{sc_}{tail}) != CUBLAS_STATUS_SUCCESS) return 5;")
    out += ["    " + "    " * (depth - d) + "}" for d in range(depth)]
    out.append("    }")
    return "\n".join(out)


def _batch_text(st: GemmStage, extent: str | None) -> str:
    return "x".join(map(str, st.batch)) if extent is None else f"{extent} (this call's)"


CUBLAS_HANDLE = r"""
// One cuBLAS handle for the life of the library; set to the caller's stream on every call.
static cublasHandle_t hiera_cublas(cudaStream_t s) {
    static cublasHandle_t h = nullptr;
    if (h == nullptr) {
        if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasSetMathMode(h, %MATH%);
    }
    cublasSetStream(h, s);
    return h;
}
"""


def cublas_handle(tf32: bool, halves: bool = False) -> str:
    # fp32 policy: CUBLAS_DEFAULT_MATH never lowers fp32 to TF32; tf32 policy: allow TF32 tensor ops. A program
    # with half products: no reduced-precision reductions (module docstring).
    math = "CUBLAS_TF32_TENSOR_OP_MATH" if tf32 else "CUBLAS_DEFAULT_MATH"
    if halves:
        math = f"(cublasMath_t)({math} | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION)"
    return CUBLAS_HANDLE.replace("%MATH%", math)


# --- cuBLASLt -----------------------------------------------------------------------------------------------

LT_COMMON = r"""
// cuBLASLt: one handle and one workspace for the life of the library.
static cublasLtHandle_t hiera_lt() {
    static cublasLtHandle_t h = nullptr;
    if (h == nullptr && cublasLtCreate(&h) != CUBLAS_STATUS_SUCCESS) return nullptr;
    return h;
}
static const size_t HIERA_LT_WS = 32u << 20;
static void* hiera_lt_workspace() {
    static void* ws = nullptr;
    if (ws == nullptr && cudaMalloc(&ws, HIERA_LT_WS) != cudaSuccess) ws = nullptr;
    return ws;
}
"""


@dataclass(frozen=True)
class LtProduct:
    """One cublasLtMatmul in row-major terms: out = act(alpha * a @ b + beta * out + bias).

    The operands' offsets and ld are in elements from the base pointers; `batch` is one flattened batch
    count, with each operand's stride between batches (0: the same matrix for every batch)."""

    idx: str  # names the plan: HieraLtPlan<idx>
    a: Operand  # logical m x k
    b: Operand  # logical k x n
    m: int
    n: int
    k: int
    a_ptr: str
    b_ptr: str
    out_ptr: str
    alpha: float = 1.0
    beta: float = 0.0
    batch: int = 1
    a_stride: int = 0
    b_stride: int = 0
    bias_ptr: str | None = None  # a length-n vector added to every row
    relu: bool = False
    compute: str = "CUBLAS_COMPUTE_32F"
    algo: int = 0  # index into the heuristic's ranked algorithms (the first when fewer are offered)
    what: str = ""
    ab_type: str = "CUDA_R_32F"  # the operands' type (bf16 and fp16: CUDA_R_16BF, CUDA_R_16F)
    c_type: str = "CUDA_R_32F"  # the output's
    itemsize: int = 4  # bytes per operand element

    @property
    def halves(self) -> bool:
        return "CUDA_R_32F" not in (self.ab_type, self.c_type)


def _alignment(offset: int, itemsize: int = 4) -> int:
    """Bytes a matrix `offset` elements into a 256-byte aligned buffer is aligned to (256 at most)."""
    b = itemsize * offset
    return 256 if b % 256 == 0 else b & -b


def lt_code(p: LtProduct) -> tuple[str, str]:
    """(setup function source, launch statements) for one cublasLtMatmul."""
    a, b = p.a, p.b
    # Column-major: the library's A is our B (N x K after op), its B is our A (K x M after op).
    la_rows, la_cols = (p.k, p.n) if b.trans else (p.n, p.k)
    lb_rows, lb_cols = (p.m, p.k) if a.trans else (p.k, p.m)
    epi = "CUBLASLT_EPILOGUE_DEFAULT"
    if p.bias_ptr is not None:
        epi = "CUBLASLT_EPILOGUE_RELU_BIAS" if p.relu else "CUBLASLT_EPILOGUE_BIAS"
    elif p.relu:
        epi = "CUBLASLT_EPILOGUE_RELU"
    batch_attrs = ""
    if p.batch > 1:
        set_attr = "        cublasLtMatrixLayoutSetAttribute"
        batch_attrs = "\n".join(
            [f"        int bc = {p.batch}; long long sa = {p.b_stride}, sb = {p.a_stride}, sc = {p.m * p.n};"]
            + [f"{set_attr}(p.{m}, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &bc, sizeof(bc));" for m in "abc"]
            + [f"{set_attr}(p.{m}, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &s{m}, sizeof(s{m}));"
               for m in "abc"])
    batch_txt = f", batch {p.batch}" if p.batch > 1 else ""
    # cuBLASLt assumes 256-byte aligned matrices unless told otherwise: an operand starting `offset` elements
    # into a buffer (itself 256-byte aligned) is aligned to fewer bytes, and an algorithm needing more would fail.
    align_prefs = "".join(
        f"\n        uint32_t al{lib} = {al};\n        cublasLtMatmulPreferenceSetAttribute(pref, "
        f"CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_{lib}_BYTES, &al{lib}, sizeof(al{lib}));"
        for lib, al in (("A", _alignment(b.offset, p.itemsize)), ("B", _alignment(a.offset, p.itemsize)))
        if al < 256)
    op_a, op_b = ("CUBLAS_OP_T" if b.trans else "CUBLAS_OP_N"), ("CUBLAS_OP_T" if a.trans else "CUBLAS_OP_N")
    # Half outputs: split-K partial sums reduced in the compute type (fp32), never in the output's.
    reduction = ("\n        uint32_t scheme = CUBLASLT_REDUCTION_SCHEME_COMPUTE_TYPE;"
                 "\n        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, "
                 "&scheme, sizeof(scheme));") if p.halves else ""
    i = p.idx
    setup = f"""
// Product {i}: {p.what} (M={p.m} N={p.n} K={p.k}{batch_txt}),
// {p.compute}, epilogue {epi}. Descriptors and the algorithm are chosen once (shapes are fixed).
struct HieraLtPlan{i} {{
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo;
    bool ok = false;
}};
static HieraLtPlan{i}* hiera_lt_plan{i}(const void* bias) {{
    static HieraLtPlan{i} p;
    static bool tried = false;
    if (!tried) {{
        tried = true;
        if (cublasLtMatmulDescCreate(&p.op, {p.compute}, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return nullptr;
        cublasOperation_t ta = {op_a}, tb = {op_b};
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
        cublasLtEpilogue_t epi = {epi};
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof(epi));
        cublasLtMatrixLayoutCreate(&p.a, {p.ab_type}, {la_rows}, {la_cols}, {b.ld});
        cublasLtMatrixLayoutCreate(&p.b, {p.ab_type}, {lb_rows}, {lb_cols}, {a.ld});
        cublasLtMatrixLayoutCreate(&p.c, {p.c_type}, {p.n}, {p.m}, {p.n});
{batch_attrs}
        cublasLtMatmulPreference_t pref;
        cublasLtMatmulPreferenceCreate(&pref);
        size_t ws = HIERA_LT_WS;
        cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof(ws));\
{align_prefs}{reduction}
        cublasLtMatmulHeuristicResult_t res[8];
        int found = 0;
        cublasLtMatmulAlgoGetHeuristic(hiera_lt(), p.op, p.a, p.b, p.c, p.c, pref, 8, res, &found);
        cublasLtMatmulPreferenceDestroy(pref);
        if (found == 0) return nullptr;
        p.algo = res[{p.algo} < found ? {p.algo} : 0].algo;
        p.ok = true;
    }}
    if (p.ok && bias != nullptr)
        cublasLtMatmulDescSetAttribute(p.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof(bias));
    return p.ok ? &p : nullptr;
}}
"""
    launch = f"""    // {p.what} (cuBLASLt, column-major C^T = B^T A^T)
    {{
        HieraLtPlan{i}* p = hiera_lt_plan{i}({p.bias_ptr or "nullptr"});
        if (p == nullptr || hiera_lt_workspace() == nullptr) return 5;
        const float alpha = {p.alpha!r}f, beta = {p.beta!r}f;
        if (cublasLtMatmul(hiera_lt(), p->op, &alpha, {p.b_ptr} + {b.offset}, p->a, {p.a_ptr} + {a.offset}, p->b,
                           &beta, {p.out_ptr}, p->c, {p.out_ptr}, p->c, &p->algo, hiera_lt_workspace(), HIERA_LT_WS,
                           hiera_s) != CUBLAS_STATUS_SUCCESS) return 5;
    }}"""
    return setup, launch


def lt_plan(prog: Program, st: GemmStage, idx: int, params: GemmParams, tf32: bool,
            policy: str = "fp32") -> tuple[str, str]:
    """(setup function source, launch statements) for one product through cublasLtMatmul."""
    tab, tc, compute = product_types(prog, st, policy)
    if tf32:
        compute = "CUBLAS_COMPUTE_32F_FAST_TF32"
    bias_ptr = f"{_ptr(prog, st.bias.buffer)} + {st.bias.offset}" if st.bias is not None else None
    what = f"{st.out} = {st.a.buffer} @ {st.b.buffer}" + (f" + {st.bias.buffer}" if st.bias is not None else "") \
        + (" then ReLU" if st.activation == "relu" else "")
    a, b = operand(st.a, st.m, st.k), operand(st.b, st.k, st.n)
    return lt_code(LtProduct(
        str(idx), a, b, st.m, st.n, st.k, _ptr(prog, st.a.buffer), _ptr(prog, st.b.buffer), _ptr(prog, st.out),
        alpha=st.alpha, batch=prod(st.batch) if st.batch else 1,
        a_stride=a.batch_strides[-1] if st.batch else 0, b_stride=b.batch_strides[-1] if st.batch else 0,
        bias_ptr=bias_ptr, relu=st.activation == "relu", compute=compute, algo=params.algo, what=what,
        ab_type=tab, c_type=tc, itemsize=ITEMSIZE[prog.buffer(st.a.buffer).dtype]))


# --- the generated tiled SGEMM ---------------------------------------------------------------------------------

def epilogue_for(prog: Program, st: GemmStage, nxt: object) -> FusedStage | None:
    """The stage right after a product, when it can be applied in the product's store.

    It must be a flat (reduction-free) stage over exactly the product's elements that reads the
    product, only at the element being stored, and the product must have no other reader.
    """
    if not isinstance(nxt, FusedStage) or nxt.has_reduction:
        return None
    total = st.m * st.n * (prod(st.batch) if st.batch else 1)
    if prod(nxt.domain) != total:
        return None
    # The next stage in program order may belong to another product (q, k, v projections lowered one
    # after another): it is this product's epilogue only if it reads this product.
    if not any(ld.view.buffer == st.out for _, e in nxt.outputs for ld in loads(e)):
        return None
    for _, e in nxt.outputs:
        for ld in loads(e):
            if ld.view.buffer == st.out:
                v = ld.view.expand(nxt.domain)
                if v.offset != 0 or not v.is_contiguous() or v.shape != nxt.domain:
                    return None
    readers = sum(st.out in stage_reads(other) for other in prog.stages)
    return nxt if readers == 1 and prog.buffer(st.out).kind == "temp" else None


# The tiled kernel's grid: blockIdx.y walks M's tiles, blockIdx.z the batch; CUDA caps both at this.
GRID_YZ = 65535


def tiled_kernel(prog: Program, st: GemmStage, params: GemmParams, name: str, epilogue: FusedStage | None,
                 idx_t: str, runtime: bool = False) -> KernelCode:
    """The product (and `epilogue`, fused into its store) as one shared-memory tiled kernel. `runtime`: the extent
    that follows the batch (M of a product without a batch dim, else its batch count; codegen/runtime_batch.py) is
    the kernel's argument `extent_n`, read at the launch from `hiera_n`, with the rows guarded and the grid sized
    from it: the pure CUDA space's product at any batch (GRID_YZ bounds the extent: cuda_runtime_batch caps the
    batch)."""
    bm, bn, bk, tm, tn = params.tile
    threads = (bm // tm) * (bn // tn)
    a = operand(st.a, st.m, st.k)
    b = operand(st.b, st.k, st.n)
    rows_vary = runtime and not st.batch  # M follows the batch; with a batch dim, the count does
    m_rows = "extent_n" if rows_vary else str(st.m)  # (n names a column in the body)
    m_full, n_full, k_full = st.m % bm == 0 and not rows_vary, st.n % bn == 0, st.k % bk == 0
    reads = [st.a.buffer, st.b.buffer]
    if st.bias is not None:
        reads.append(st.bias.buffer)
    writes = [st.out]
    epi_exprs: list[tuple[str, Expr]] = []
    if epilogue is not None:
        for _, e in epilogue.outputs:
            for ld in loads(e):
                if ld.view.buffer not in reads and ld.view.buffer != st.out:
                    reads.append(ld.view.buffer)
        writes = [o for o, _ in epilogue.outputs]
        epi_exprs = list(epilogue.outputs)
    batch = prod(st.batch) if st.batch else 1
    if len(st.batch) > 1:
        raise ValueError("the tiled kernel takes one batch dim")
    batched = bool(st.batch) if runtime else batch > 1  # at run time a batch dim of any size, 1 included

    def a_at(m: str, k: str) -> str:
        return storage.ld(prog, st.a.buffer, a.at("A", m, k))

    def b_at(k: str, n: str) -> str:
        return storage.ld(prog, st.b.buffer, b.at("B", k, n))

    # Tile loads: consecutive threads take consecutive addresses of the stored layout (coalesced).
    def load_a() -> list[str]:
        if a.trans:  # m is contiguous
            r, c = "e % " + str(bm), "e / " + str(bm)
        else:
            r, c = "e / " + str(bk), "e % " + str(bk)
        cond = []
        if not m_full:
            cond.append(f"row0 + m < {m_rows}")
        if not k_full:
            cond.append(f"k0 + k < {st.k}")
        # (rows taken at run time: the row's offset in idx_t, which the batch's cap keeps every index within)
        val = a_at("(idx_t)(row0 + m)" if rows_vary else "row0 + m", "k0 + k")
        val = f"({' && '.join(cond)}) ? {val} : 0.0f" if cond else val
        return [f"        for (int e = threadIdx.x; e < {bm * bk}; e += {threads}) {{",
                f"            const int m = {r}, k = {c};",
                f"            As[k][m] = {val};",
                "        }"]

    def load_b() -> list[str]:
        if b.trans:  # k is contiguous
            r, c = "e % " + str(bk), "e / " + str(bk)
        else:
            r, c = "e / " + str(bn), "e % " + str(bn)
        cond = []
        if not n_full:
            cond.append(f"col0 + n < {st.n}")
        if not k_full:
            cond.append(f"k0 + k < {st.k}")
        val = b_at("k0 + k", "col0 + n")
        val = f"({' && '.join(cond)}) ? {val} : 0.0f" if cond else val
        return [f"        for (int e = threadIdx.x; e < {bk * bn}; e += {threads}) {{",
                f"            const int k = {r}, n = {c};",
                f"            Bs[k][n] = {val};",
                "        }"]

    size = (f"M=extent_n (the batch's rows, at run time) N={st.n} K={st.k}" if rows_vary else
            f"M={st.m} N={st.n} K={st.k}" + (", batch extent_n (at run time)" if runtime else
                                             f", batch {batch}" if batch > 1 else ""))
    lines = [
        f"// {st.out} = {st.a.buffer} @ {st.b.buffer}: {size}"
        + f"; {bm}x{bn} tiles over K steps of {bk}, {tm}x{tn} outputs per thread in registers",
    ]
    if epi_exprs:
        lines.append("// epilogue fused into the store: "
                     + "; ".join(f"{o} = {short(describe(e), 100)}" for o, e in epi_exprs))
    lines += [
        f"__global__ void __launch_bounds__({threads}) "
        f"{name}({kernel_params(prog, reads, writes, ('const idx_t extent_n',) if runtime else ())}) {{",
        *(["    (void)extent_n;  // the batch count is the grid's z"] if runtime and not rows_vary else []),
        f"    __shared__ float As[{bk}][{bm} + 4];  // +4: rows start on different banks",
        f"    __shared__ float Bs[{bk}][{bn} + 4];",
        f"    const {storage.c_type(prog, st.a.buffer, 'cuda')}* A = {_ptr(prog, st.a.buffer)} + {a.offset}"
        + (f" + (long long)blockIdx.z * {a.batch_strides[-1]}" if batched else "") + ";",
        f"    const {storage.c_type(prog, st.b.buffer, 'cuda')}* B = {_ptr(prog, st.b.buffer)} + {b.offset}"
        + (f" + (long long)blockIdx.z * {b.batch_strides[-1]}" if batched else "") + ";",
        f"    const int row0 = blockIdx.y * {bm}, col0 = blockIdx.x * {bn};",
        f"    const int tr = threadIdx.x / {bn // tn}, tc = threadIdx.x % {bn // tn};",
        f"    float acc[{tm}][{tn}];",
        "#pragma unroll",
        f"    for (int i = 0; i < {tm}; ++i)",
        "#pragma unroll",
        f"        for (int j = 0; j < {tn}; ++j) acc[i][j] = 0.0f;",
        f"    for (int k0 = 0; k0 < {st.k}; k0 += {bk}) {{",
        *load_a(),
        *load_b(),
        "        __syncthreads();",
        "#pragma unroll",
        f"        for (int kk = 0; kk < {bk}; ++kk) {{",
        f"            float ra[{tm}], rb[{tn}];",
        "#pragma unroll",
        f"            for (int i = 0; i < {tm}; ++i) ra[i] = As[kk][tr * {tm} + i];",
        "#pragma unroll",
        f"            for (int j = 0; j < {tn}; ++j) rb[j] = Bs[kk][tc * {tn} + j];",
        "#pragma unroll",
        f"            for (int i = 0; i < {tm}; ++i)",
        "#pragma unroll",
        f"                for (int j = 0; j < {tn}; ++j) acc[i][j] = fmaf(ra[i], rb[j], acc[i][j]);",
        "        }",
        "        __syncthreads();",
        "    }",
        "#pragma unroll",
        f"    for (int i = 0; i < {tm}; ++i) {{",
        f"        const int m = row0 + tr * {tm} + i;",
    ]
    if not m_full:
        lines.append(f"        if (m >= {m_rows}) break;")
    lines += ["#pragma unroll", f"        for (int j = 0; j < {tn}; ++j) {{",
              f"            const int n = col0 + tc * {tn} + j;"]
    if not n_full:
        lines.append(f"            if (n >= {st.n}) break;")
    base = f"((idx_t)blockIdx.z * {st.m} + m) * {st.n} + n" if batched else f"(idx_t)m * {st.n} + n"
    lines.append(f"            const idx_t i_out = {base};")
    acc = "acc[i][j]" if st.alpha == 1.0 else f"{st.alpha!r}f * acc[i][j]"
    if st.bias is not None:
        bias_p = _ptr(prog, st.bias.buffer)
        bias = storage.ld(prog, st.bias.buffer, f"{bias_p}[{st.bias.offset} + n * {st.bias.strides[-1]}]")
        acc = f"({acc} + {bias})"
    if epi_exprs:
        assert epilogue is not None
        dom = epilogue.domain

        def leaf(ld: Load) -> str:
            if ld.view.buffer == st.out:
                return "prod_value"
            ref = f"{_ptr(prog, ld.view.buffer)}[{offset_code(ld.view, dom, 'i_out')}]"
            return storage.ld(prog, ld.view.buffer, ref)

        lines.append(f"            const float prod_value = {acc};")
        em = Emitter(leaf, prefix="t", indent="            ")
        vals = [em.value(e) for _, e in epi_exprs]
        lines += em.lines
        for (o, _), v in zip(epi_exprs, vals):
            lines.append(f"            {storage.st(prog, o, f'{_ptr(prog, o)}[i_out]', v)};")
    else:
        lines.append(f"            {storage.st(prog, st.out, f'{_ptr(prog, st.out)}[i_out]', acc)};")
    lines += ["        }", "    }", "}"]
    grid = f"dim3({-(-st.n // bn)}, {-(-st.m // bm)}, {batch})"
    args = call_args(prog, reads, writes)
    if runtime:
        grid = (f"dim3({-(-st.n // bn)}, (unsigned)((hiera_n + {bm - 1}) / {bm}), 1)" if rows_vary else
                f"dim3({-(-st.n // bn)}, {-(-st.m // bm)}, (unsigned)hiera_n)")
        args += ", hiera_n"
    launch = f"    {name}<<<{grid}, {threads}, 0, hiera_s>>>({args});"
    return KernelCode("\n".join(lines) + "\n", launch, tuple(reads), tuple(writes))
