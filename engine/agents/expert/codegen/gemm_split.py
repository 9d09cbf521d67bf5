"""fp32-accurate matrix products on the TF32 tensor cores: the 3xTF32 split, through cuBLASLt.

Each fp32 operand x is split into two TF32 numbers: hi = x rounded to nearest at TF32's 10 explicit mantissa
bits, lo = (x - hi) rounded the same way (x - hi is exact in fp32). Then, per product of two elements,

    a b = a_hi b_hi + a_hi b_lo + a_lo b_hi + (a_lo b_lo + the rounding of the two lo parts)

and the dropped part is below about 3 * 2^-22 |a b|: the three kept products carry about 22 significant
bits, and each product of two TF32 numbers is exact in the tensor cores' fp32 accumulator. The products run
through cuBLASLt with CUBLAS_COMPUTE_32F_FAST_TF32; hi and lo are TF32 numbers already, so whatever the
library does to convert fp32 to TF32 (round or truncate) leaves them as they are.

One generated kernel writes each operand's split copy, concatenated along K, in the operand's own
orientation (so reads and writes are coalesced): A as [A_lo | A_hi], B as [B_hi ; B_lo]. Then, by default
("2+1", two products),

    out  = alpha * [A_lo | A_hi] @ [B_hi ; B_lo]     one product over 2K: the two small terms
    out  = alpha * A_hi @ B_hi + out (+ bias, ReLU)   over K, the large term; cuBLASLt's epilogue

so the small terms are summed apart from the large one and join it once (the order CUTLASS's 3xTF32 uses).
The "3k" form is one product over 3K, [A_lo | A_hi | A_hi] @ [B_hi ; B_lo ; B_hi]: one launch and no second
pass over the output, for 1.5x the split copies' bytes. What follows the product (activations, scales,
residuals, row reductions) runs in the generated kernel after it, as for the other library products.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from engine.agents.expert.codegen.common import pointer
from engine.agents.expert.codegen.gemm import LtProduct, Operand, lt_code, operand
from engine.agents.expert.codegen.variants import GemmParams
from engine.agents.expert.ir import Buffer, GemmStage, Program

# Which part each K segment of the split copies holds, per form: A's segments times B's, pairwise.
FORMS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "2+1": (("lo", "hi"), ("hi", "lo")),
    "3k": (("lo", "hi", "hi"), ("hi", "lo", "hi")),
}
THREADS = 256
MAX_BLOCKS = 132 * 16  # a grid-stride loop past this: 16 blocks of 256 threads per multiprocessor of an H200

TF32_ROUND = r"""
// Round to the nearest TF32 number (10 explicit mantissa bits; ties away from zero) by integer arithmetic on
// the bits: add half of the 13 dropped bits' weight, then clear them. Inf and NaN pass unchanged, and a
// finite value that would round up to Inf (within 2^-11 of FLT_MAX) is truncated instead.
__device__ __forceinline__ float hiera_tf32_rn(float x) {
    const unsigned u = __float_as_uint(x);
    if ((u & 0x7f800000u) == 0x7f800000u) return x;
    unsigned r = (u + 0x1000u) & 0xffffe000u;
    if ((r & 0x7f800000u) == 0x7f800000u) r = u & 0xffffe000u;
    return __uint_as_float(r);
}
"""


@dataclass(frozen=True)
class SplitCopy:
    """One operand's split copy: `segments` blocks of K along the K axis, in the source's orientation."""

    buffer: str  # the temp buffer holding it
    segments: tuple[str, ...]  # "hi" | "lo", in order along K
    k_inner: bool  # K is the contiguous dim (A row-major, B stored transposed)
    inner: int  # contiguous extent of the source matrix (per segment)
    outer: int  # the other extent
    copies: int  # matrices held: the batch count, or 1 when the source is the same for every batch

    @property
    def seg_offset(self) -> int:
        """Elements from one segment to the next inside one matrix."""
        return self.inner if self.k_inner else self.outer * self.inner

    @property
    def pitch(self) -> int:
        """The copy's leading dimension (elements between consecutive outer indices)."""
        return self.inner * len(self.segments) if self.k_inner else self.inner

    @property
    def matrix(self) -> int:
        return self.inner * self.outer * len(self.segments)

    @property
    def numel(self) -> int:
        return self.matrix * self.copies


def _split_name(st: GemmStage, which: str) -> str:
    return f"{st.out}_{which}split"  # buffer names are C identifiers (temps, the contract's outputs)


def with_split_buffers(prog: Program, form: str) -> Program:
    """The program with a temp buffer for each product's two split copies (they live in the workspace)."""
    extra: list[Buffer] = []
    for st in prog.gemms:
        for which, cp in zip("ab", copies(st, form)):
            extra.append(Buffer(_split_name(st, which), (cp.numel,), "float32", "temp", _split_name(st, which)))
    return Program(prog.buffers + tuple(extra), prog.stages)


def copies(st: GemmStage, form: str) -> tuple[SplitCopy, SplitCopy]:
    if form not in FORMS:
        raise ValueError(f"unknown 3xTF32 form {form!r}: one of {', '.join(FORMS)}")
    segs_a, segs_b = FORMS[form]
    a, b = operand(st.a, st.m, st.k), operand(st.b, st.k, st.n)
    batch = prod(st.batch) if st.batch else 1

    def one(which: str, op: Operand, rows: int, cols: int, segs: tuple[str, ...], k_is_rows: bool) -> SplitCopy:
        inner, outer = (rows, cols) if op.trans else (cols, rows)
        k_inner = (not op.trans) != k_is_rows  # K is the cols of A (k_is_rows False), the rows of B
        n = batch if any(op.batch_strides) else 1
        return SplitCopy(_split_name(st, which), segs, k_inner, inner, outer, n)

    return one("a", a, st.m, st.k, segs_a, False), one("b", b, st.k, st.n, segs_b, True)


def _source_offset(st: GemmStage, op: Operand, b: str) -> str:
    """C expression: the source matrix of flattened batch index `b` (offset included)."""
    terms = [str(op.offset)] if op.offset else []
    inner = 1
    for size, stride in reversed(list(zip(st.batch, op.batch_strides))):
        if stride:
            idx = f"({b} / {inner})" if inner > 1 else b
            terms.append(f"(({idx}) % {size}) * {stride}" if inner * size < prod(st.batch) else f"{idx} * {stride}")
        inner *= size
    return " + ".join(terms) or "0"


def _copy_lines(st: GemmStage, op: Operand, cp: SplitCopy, src: str, dst: str, e: str, vec: int) -> list[str]:
    """Statements splitting element (vector) `e` of one operand into its copy's segments."""
    ind = "            "
    v_inner = cp.inner // vec
    lines = [f"{ind}const idx_t i = ({e} % {v_inner}) * {vec}, o = ({e} / {v_inner}) % {cp.outer};"]
    if cp.copies > 1:
        lines.append(f"{ind}const idx_t b = {e} / {v_inner * cp.outer};")
        base, dbase = _source_offset(st, op, "b"), f"b * {cp.matrix}"
    else:
        base, dbase = str(op.offset), "0"
    lines.append(f"{ind}const idx_t s = {base} + o * {op.ld} + i, d = {dbase} + o * {cp.pitch} + i;")
    if vec == 4:
        lines += [f"{ind}const float4 x = *reinterpret_cast<const float4*>({src} + s);",
                  f"{ind}const float4 hi = make_float4(hiera_tf32_rn(x.x), hiera_tf32_rn(x.y), hiera_tf32_rn(x.z), "
                  "hiera_tf32_rn(x.w));",
                  f"{ind}const float4 lo = make_float4(hiera_tf32_rn(x.x - hi.x), hiera_tf32_rn(x.y - hi.y), "
                  "hiera_tf32_rn(x.z - hi.z), hiera_tf32_rn(x.w - hi.w));"]
        for k, part in enumerate(cp.segments):
            lines.append(f"{ind}*reinterpret_cast<float4*>({dst} + d + {k * cp.seg_offset}) = {part};")
    else:
        lines += [f"{ind}const float x = {src}[s];",
                  f"{ind}const float hi = hiera_tf32_rn(x), lo = hiera_tf32_rn(x - hi);"]
        lines += [f"{ind}{dst}[d + {k * cp.seg_offset}] = {part};" for k, part in enumerate(cp.segments)]
    return lines


def _vec_ok(op: Operand, cp: SplitCopy) -> bool:
    """float4 along the contiguous dim: every row start of the source and of each segment 16-byte aligned."""
    return all(v % 4 == 0 for v in (cp.inner, op.ld, op.offset, cp.pitch, cp.seg_offset, *op.batch_strides))


def split_kernel(prog: Program, st: GemmStage, form: str, name: str, vec: int) -> tuple[str, str]:
    """(the __global__ function, its launch) writing both operands' split copies of one product."""
    a, b = operand(st.a, st.m, st.k), operand(st.b, st.k, st.n)
    ca, cb = copies(st, form)
    na, nb = ca.numel // len(ca.segments) // vec, cb.numel // len(cb.segments) // vec
    pa, pb = pointer(prog.buffer(st.a.buffer).c_name), pointer(prog.buffer(st.b.buffer).c_name)
    da, db = pointer(ca.buffer), pointer(cb.buffer)
    same = st.a.buffer == st.b.buffer
    params = f"const float* __restrict__ {pa}" + ("" if same else f", const float* __restrict__ {pb}") + \
        f", float* __restrict__ {da}, float* __restrict__ {db}"
    args = pa + ("" if same else f", {pb}") + f", {da}, {db}"
    src = "\n".join([
        f"// Split copies for {st.out} = {st.a.buffer} @ {st.b.buffer}: {st.a.buffer} as "
        f"[{' | '.join(ca.segments)}] along K, {st.b.buffer} as [{' ; '.join(cb.segments)}]"
        + (", 4 elements per thread (float4)" if vec == 4 else ""),
        f"__global__ void __launch_bounds__({THREADS}) {name}({params}) {{",
        f"    for (idx_t e = (idx_t)blockIdx.x * {THREADS} + threadIdx.x; e < {na + nb}; "
        f"e += (idx_t)gridDim.x * {THREADS}) {{",
        f"        if (e < {na}) {{",
        *_copy_lines(st, a, ca, pa, da, "e", vec),
        "        } else {",
        f"            const idx_t f = e - {na};",
        *_copy_lines(st, b, cb, pb, db, "f", vec),
        "        }",
        "    }",
        "}",
    ])
    blocks = min(-(-(na + nb) // THREADS), MAX_BLOCKS)
    launch = f"    {name}<<<{blocks}, {THREADS}, 0, hiera_s>>>({args});"
    return src + "\n", launch


def split_products(prog: Program, st: GemmStage, idx: int, form: str, algo: int) -> tuple[list[str], list[str]]:
    """(setups, launches) for the cuBLASLt products over the split copies, in launch order."""
    ca, cb = copies(st, form)
    batch = prod(st.batch) if st.batch else 1
    da, db, out = pointer(ca.buffer), pointer(cb.buffer), pointer(prog.buffer(st.out).c_name)
    bias_ptr = f"{pointer(prog.buffer(st.bias.buffer).c_name)} + {st.bias.offset}" if st.bias is not None else None
    epi = (f" + {st.bias.buffer}" if st.bias is not None else "") + (" then ReLU" if st.activation == "relu" else "")

    def product(tag: str, a_seg: int, b_seg: int, nseg: int, beta: float, last: bool, what: str) -> tuple[str, str]:
        a = Operand(not ca.k_inner, ca.pitch, a_seg * ca.seg_offset, ())
        b = Operand(cb.k_inner, cb.pitch, b_seg * cb.seg_offset, ())
        return lt_code(LtProduct(
            f"{idx}{tag}", a, b, st.m, st.n, nseg * st.k, da, db, out, alpha=st.alpha, beta=beta, batch=batch,
            a_stride=ca.matrix if ca.copies > 1 else 0, b_stride=cb.matrix if cb.copies > 1 else 0,
            bias_ptr=bias_ptr if last else None, relu=last and st.activation == "relu",
            compute="CUBLAS_COMPUTE_32F_FAST_TF32", algo=algo, what=what))

    segs_a, segs_b = FORMS[form]
    names = " + ".join(f"{st.a.buffer}_{x} {st.b.buffer}_{y}" for x, y in zip(segs_a, segs_b))
    if form == "3k":
        parts = [product("t", 0, 0, 3, 0.0, True, f"{st.out} = {names}{epi} (one product over 3K)")]
    else:
        parts = [product("s", 0, 0, 2, 0.0, False, f"{st.out} = {st.a.buffer}_lo {st.b.buffer}_hi + "
                                                   f"{st.a.buffer}_hi {st.b.buffer}_lo (the small terms, over 2K)"),
                 product("b", 1, 0, 1, 1.0, True, f"{st.out} += {st.a.buffer}_hi {st.b.buffer}_hi{epi} "
                                                  "(the large term, over K)")]
    return [s for s, _ in parts], [ln for _, ln in parts]


def split_gemm(prog: Program, st: GemmStage, idx: int, params: GemmParams) -> tuple[list[str], list[str], list[str]]:
    """(kernels, library setups, launches) for one product as 3xTF32: the split kernel, then cuBLASLt.

    `prog` must hold the split buffers (with_split_buffers). The kernels need TF32_ROUND before them."""
    a, b = operand(st.a, st.m, st.k), operand(st.b, st.k, st.n)
    ca, cb = copies(st, params.form)
    name = f"hiera_stage{idx}_split"
    v = 4 if params.split_vec and _vec_ok(a, ca) and _vec_ok(b, cb) else 1
    src, launch = split_kernel(prog, st, params.form, name, v)
    kernels = [src]
    if v == 4:
        # float4 needs 16-byte aligned sources; a misaligned pointer takes the scalar twin.
        twin, twin_launch = split_kernel(prog, st, params.form, name + "_scalar", 1)
        kernels.append(twin)
        srcs = {pointer(prog.buffer(st.a.buffer).c_name), pointer(prog.buffer(st.b.buffer).c_name)}
        cond = " && ".join(f"hiera_aligned16({p})" for p in sorted(srcs))
        launch = f"    if ({cond}) {{\n    {launch.strip()}\n    }} else {{\n    {twin_launch.strip()}\n    }}"
    setups, launches = split_products(prog, st, idx, params.form, params.algo)
    return kernels, setups, [launch, *launches]


# Where the split pays on an H200 (docs/bench/gemm-split-h200, 2026-12-01): 2.1-2.6x over SGEMM on products of
# 1024 x 8192 x 8192, 4096^3 and the like, 1.7x on a chain of 1024^3 products; slower than SGEMM on 512^3 (0.66x),
# on 256 batched 256^3 (0.78x) and with 128 rows (128 x 32768 x 32768: 0.81x). One matrix of the product must
# then hold enough arithmetic for three TF32 products plus the split kernel's pass over the operands, and both
# output dims must be wide enough for the tensor cores' tiles.
MIN_GFLOP = 1.0  # per matrix of a batched product
MIN_DIM = 512


def worthwhile(st: GemmStage) -> bool:
    """Whether the split is expected to beat cuBLAS SGEMM on this product (the planner tries it first then)."""
    return 2 * st.m * st.n * st.k >= MIN_GFLOP * 1e9 and min(st.m, st.n) >= MIN_DIM and st.k >= MIN_DIM // 2
