"""A whole C++ (CPU) candidate from a Program: OpenMP over elements or rows, SIMD inner loops.

Same ABI and the same Program as the CUDA generators: a fused pointwise stage is one parallel loop over
the elements, a row stage one parallel loop over rows whose reduction passes are SIMD loops over the row
(still in L1 from the previous pass), and a matrix product a cache-blocked loop nest (packed panels of
B, four rows of A at a time, the inner loop over contiguous columns for the vector unit) with the
following pointwise stage applied to each finished block while it is still in cache.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from math import prod

from engine.agents.expert.codegen import storage
from engine.agents.expert.codegen.common import (
    Emitter,
    buffer_pointers,
    col_varying,
    describe,
    entry_preamble,
    last_stride,
    offset_code,
    pointer,
    reduce_combine,
    reduce_identity,
    reduction_passes,
    short,
)
from engine.agents.expert.codegen.cuda_program import stage_summary
from engine.agents.expert.codegen.gemm import epilogue_for, operand
from engine.agents.expert.codegen.runtime_batch import RuntimeBatch, guard_lines, runtime_batch
from engine.agents.expert.codegen.variants import Variant
from engine.agents.expert.ir import Buffer, Const, Expr, FusedStage, GemmStage, Load, Program, Reduce, View, walk
from engine.task.contract import c_params
from engine.task.spec import TaskSpec


@dataclass(frozen=True)
class CpuParams:
    gemm_kc: int = 256  # K block of the packed B panel
    gemm_nc: int = 1024  # N block (panel of KC x NC floats stays in L2)
    schedule: str = "static"  # OpenMP schedule of the outer loops
    vector_math: bool = True  # inline exp/log/tanh/erf that the compiler can vectorize (libm's cannot)

    def label(self) -> str:
        math = "inline vector math" if self.vector_math else "libm math"
        return f"OpenMP schedule({self.schedule}), {math}, GEMM blocks KC={self.gemm_kc} NC={self.gemm_nc}"


PRELUDE = """#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "hiera_contract.h"

static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
// libm's fmaxf/fminf are calls on x86 (NaN rules) and stop loops from vectorizing; these are one
// instruction each. (NaN inputs never pass verification, so NaN propagation does not matter here.)
static inline float hiera_fmaxf(float a, float b) { return a > b ? a : b; }
static inline float hiera_fminf(float a, float b) { return a < b ? a : b; }
"""

# Cephes-style single-precision approximations (1-2 ulp on the ranges that matter, far inside the 1e-4
# tolerance), written branch-free so `#pragma omp simd` loops around them vectorize.
VECTOR_MATH = """
// exp(x) = 2^n * exp(r), r = x - n ln2 (Cody-Waite split), degree-6 polynomial for exp(r).
static inline float hiera_expf(float x) {
    x = hiera_fminf(hiera_fmaxf(x, -87.33654475f), 88.72283905f);
    const float n = floorf(x * 1.44269504088896341f + 0.5f);
    const float r = x - n * 0.693359375f + n * 2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    const float y = p * r * r + r + 1.0f;
    const float scale = __builtin_bit_cast(float, (uint32_t)((int32_t)n + 127) << 23);
    return x >= 88.72283905f ? INFINITY : y * scale;
}
// log(x) = e ln2 + log(m), m in [sqrt(1/2), sqrt(2)), degree-8 polynomial; x <= 0 as libm.
static inline float hiera_logf(float x) {
    const uint32_t bits = __builtin_bit_cast(uint32_t, x);
    float e = (float)((int32_t)((bits >> 23) & 0xff) - 126);
    float m = __builtin_bit_cast(float, (bits & 0x807fffffu) | 0x3f000000u);
    const bool small = m < 0.707106781186547524f;
    e = small ? e - 1.0f : e;
    m = small ? m + m - 1.0f : m - 1.0f;
    const float z = m * m;
    float y = 7.0376836292e-2f;
    y = y * m - 1.1514610310e-1f;
    y = y * m + 1.1676998740e-1f;
    y = y * m - 1.2420140846e-1f;
    y = y * m + 1.4249322787e-1f;
    y = y * m - 1.6668057665e-1f;
    y = y * m + 2.0000714765e-1f;
    y = y * m - 2.4999993993e-1f;
    y = y * m + 3.3333331174e-1f;
    y = y * m * z;
    y += -2.12194440e-4f * e;
    y += -0.5f * z;
    const float r = m + y + 0.693359375f * e;
    return x > 0.0f ? (x < INFINITY ? r : INFINITY) : (x == 0.0f ? -INFINITY : NAN);
}
static inline float hiera_tanhf(float x) {
    const float a = fabsf(x);
    const float t = 1.0f - 2.0f / (hiera_expf(2.0f * a) + 1.0f);
    return copysignf(a < 1e-4f ? a : t, x);
}
// Abramowitz & Stegun 7.1.26 (absolute error < 1.5e-7).
static inline float hiera_erff(float x) {
    const float a = fabsf(x);
    const float t = 1.0f / (1.0f + 0.3275911f * a);
    const float p = t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f
                    + t * 1.061405429f))));
    return copysignf(1.0f - p * hiera_expf(-a * a), x);
}
"""

WORKSPACE = """
// Temporaries live in one buffer kept for the life of the library (grown if ever needed).
static float* hiera_workspace(size_t floats) {
    static float* ws = nullptr;
    static size_t have = 0;
    if (have < floats) {
        free(ws);
        ws = (float*)aligned_alloc(64, ((floats * sizeof(float) + 63) / 64) * 64);
        have = ws ? floats : 0;
    }
    return ws;
}
"""


_VECTORIZABLE = re.compile(r"(?<![\w.])(expf|logf|tanhf|erff)\(")
_MINMAX = re.compile(r"(?<![\w.])(fmaxf|fminf)\(")


def _vector_math(text: str) -> str:
    return _VECTORIZABLE.sub(lambda m: f"hiera_{m.group(1)}(", text)


def _inline_minmax(text: str) -> str:
    return _MINMAX.sub(lambda m: f"hiera_{m.group(1)}(", text)


def _ptr(prog: Program, name: str) -> str:
    return pointer(prog.buffer(name).c_name)


def _flat(prog: Program, stage: FusedStage, idx: int, params: CpuParams, extent: str | None = None) -> str:
    """One parallel SIMD loop over the stage's elements: `extent` of them (a C expression: the batch taken at run
    time, codegen/runtime_batch.py), or the given shapes' count."""
    dom = stage.domain
    n = extent or f"{prod(dom)}LL"
    what = "; ".join(f"{o} = {short(describe(e), 110)}" for o, e in stage.outputs)

    def leaf(ld: Load) -> str:
        return storage.ld(prog, ld.view.buffer, f"{_ptr(prog, ld.view.buffer)}[{offset_code(ld.view, dom, 'i')}]")

    em = Emitter(leaf, prefix="t", indent="        ")
    vals = [em.value(e) for _, e in stage.outputs]
    lines = [f"    // stage {idx}: {what}",
             f"#pragma omp parallel for simd schedule({params.schedule})",
             f"    for (long long i = 0; i < {n}; ++i) {{", *em.lines]
    lines += [f"        {storage.st(prog, o, f'{_ptr(prog, o)}[i]', v)};" for (o, _), v in zip(stage.outputs, vals)]
    lines.append("    }")
    return "\n".join(lines)


def _row(prog: Program, stage: FusedStage, idx: int, params: CpuParams, extent: str | None = None) -> str:
    """One parallel loop over the stage's rows (`extent` of them, a C expression, or the given shapes' count),
    SIMD passes over each row."""
    dom = stage.domain
    d = stage.row_len
    rows = extent or f"{stage.rows}LL"
    lead = dom[:-1]
    exprs = [e for _, e in stage.outputs]
    passes = reduction_passes(exprs)
    memo: dict[Expr, bool] = {}

    def varies(e: Expr) -> bool:
        return col_varying(e, dom, memo)

    bases: dict[View, str] = {}

    def base(ld: Load) -> str:
        v = ld.view.expand(dom)
        lv = View(v.buffer, v.shape[:-1], v.strides[:-1], v.offset)
        if lv not in bases:
            bases[lv] = f"rb{len(bases)}"
        return bases[lv]

    def addr(ld: Load, col: str) -> str:
        st = last_stride(ld.view, dom)
        p = _ptr(prog, ld.view.buffer)
        if st == 0:
            ref = f"{p}[{base(ld)}]"
        else:
            ref = f"{p}[{base(ld)} + {col}]" if st == 1 else f"{p}[{base(ld)} + {col} * {st}]"
        return storage.ld(prog, ld.view.buffer, ref)

    fixed: dict[Expr, str] = {}
    body: list[str] = []
    n_h = [0]

    def hoist(e: Expr) -> None:
        em = Emitter(lambda ld: addr(ld, "0"), fixed, prefix=f"h{n_h[0]}_", indent="        ")
        n_h[0] += 1
        for node in walk(e):
            if not varies(node) and not isinstance(node, Const) and \
                    all(r in fixed for r in walk(node) if isinstance(r, Reduce)):
                em.value(node)
        body.extend(em.lines)
        fixed.update(em.memo)

    for k, reds in enumerate(passes):
        for red in reds:
            hoist(red.x)
        accs = [f"acc{k}_{q}" for q in range(len(reds))]
        for acc, red in zip(accs, reds):
            body.append(f"        float {acc} = {reduce_identity(red.op)};")
        clauses = " ".join(f"reduction({'+' if red.op == 'sum' else red.op}:{acc})" for acc, red in zip(accs, reds))
        body.append(f"#pragma omp simd {clauses}")
        body.append(f"        for (long long c = 0; c < {d}; ++c) {{")
        em = Emitter(lambda ld: addr(ld, "c"), fixed, prefix=f"e{k}_", indent="            ")
        vals = [em.value(red.x) for red in reds]
        body.extend(em.lines)
        for acc, red, v in zip(accs, reds, vals):
            body.append(f"            {acc} = {reduce_combine(red.op, acc, v)};")
        body.append("        }")
        for acc, red in zip(accs, reds):
            fixed[red] = acc
    full = prod(dom)
    elem = [(o, e) for o, e in stage.outputs if prog.buffer(o).numel == full]
    per_row = [(o, e) for o, e in stage.outputs if prog.buffer(o).numel != full]
    for _, e in stage.outputs:
        hoist(e)
    if elem:
        body.append("#pragma omp simd")
        body.append(f"        for (long long c = 0; c < {d}; ++c) {{")
        em = Emitter(lambda ld: addr(ld, "c"), fixed, prefix="o", indent="            ")
        vals = [em.value(e) for _, e in elem]
        body.extend(em.lines)
        body += [f"            {storage.st(prog, o, f'{_ptr(prog, o)}[r * {d} + c]', v)};"
                 for (o, _), v in zip(elem, vals)]
        body.append("        }")
    for o, e in per_row:
        body.append(f"        {storage.st(prog, o, f'{_ptr(prog, o)}[r]', fixed[e] if e in fixed else _const(e))};")
    head = [f"    // stage {idx}: " + "; ".join(f"{o} = {short(describe(e), 110)}" for o, e in stage.outputs),
            f"    // {rows} rows of {d}, {len(passes)} reduction pass(es) per row",
            f"#pragma omp parallel for schedule({params.schedule})",
            f"    for (long long r = 0; r < {rows}; ++r) {{"]
    for lv, name in bases.items():
        head.append(f"        const long long {name} = {offset_code(lv, lead, 'r') if lead else '0'};")
    return "\n".join([*head, *body, "    }"])


def _const(e: Expr) -> str:
    from engine.agents.expert.ops import c_float

    assert isinstance(e, Const)
    return c_float(e.value)


def _gemm(prog: Program, st: GemmStage, idx: int, params: CpuParams, epilogue: FusedStage | None,
          extent: str | None = None) -> str:
    """The blocked product (and its epilogue). `extent`: the product's rows M, or its batch count when it has a
    batch dim, as a C expression (the batch taken at run time, codegen/runtime_batch.py); otherwise the given."""
    a = operand(st.a, st.m, st.k)
    b = operand(st.b, st.k, st.n)
    n, k = st.n, st.k
    m: int | str = extent if extent is not None and not st.batch else st.m
    kc, nc = min(params.gemm_kc, k), min(params.gemm_nc, n)
    pa, pb, pc = _ptr(prog, st.a.buffer), _ptr(prog, st.b.buffer), _ptr(prog, st.out)
    batch: int | str = prod(st.batch) if st.batch else 1
    if extent is not None and st.batch:
        batch = extent
    if len(st.batch) > 1:
        raise ValueError("the CPU product takes one batch dim")

    def a_at(mi: str, ki: str) -> str:
        return storage.ld(prog, st.a.buffer, a.at("A", mi, ki))

    def b_at(ki: str, ni: str) -> str:
        return storage.ld(prog, st.b.buffer, b.at("B", ki, ni))

    epi_lines: list[str] = []
    if epilogue is not None:
        dom = epilogue.domain

        def leaf(ld: Load) -> str:
            if ld.view.buffer == st.out:
                return "Cm[j]"
            return storage.ld(prog, ld.view.buffer, f"{_ptr(prog, ld.view.buffer)}[{offset_code(ld.view, dom, 'i')}]")

        em = Emitter(leaf, prefix="t", indent="                    ")
        vals = [em.value(e) for _, e in epilogue.outputs]
        epi_lines = [
            "            // the fused epilogue, on the finished block while it is in cache",
            f"#pragma omp parallel for schedule({params.schedule})",
            f"            for (long long mi = 0; mi < {m}; ++mi) {{",
            f"                const float* Cm = C + mi * {n} + n0;",
            "#pragma omp simd",
            "                for (long long j = 0; j < nb; ++j) {",
            f"                    const long long i = (bz * {m} + mi) * {n}LL + n0 + j;",
            *em.lines,
            *[f"                    {storage.st(prog, o, f'{_ptr(prog, o)}[i]', v)};"
              for (o, _), v in zip(epilogue.outputs, vals)],
            "                }",
            "            }",
        ]
    sa = a.batch_strides[-1] if st.batch else 0
    sb = b.batch_strides[-1] if st.batch else 0
    lines = [
        f"    // stage {idx}: {st.out} = {st.a.buffer} @ {st.b.buffer} (M={m} N={n} K={k}"
        + (f", batch {batch}" if batch != 1 else "") + f"), blocks KC={kc} NC={nc}",
        "    {",
        f"        float* Bp = hiera_panel({kc} * {nc});",
        "        if (Bp == nullptr) return 3;",
        f"        for (long long bz = 0; bz < {batch}; ++bz) {{",
        f"        const {storage.c_type(prog, st.a.buffer, 'cpu')}* A = {pa} + {a.offset} + bz * {sa};",
        f"        const {storage.c_type(prog, st.b.buffer, 'cpu')}* B = {pb} + {b.offset} + bz * {sb};",
        f"        float* C = {pc} + bz * ({m} * {n}LL);",
        f"        for (long long n0 = 0; n0 < {n}; n0 += {nc}) {{",
        f"            const long long nb = {n} - n0 < {nc} ? {n} - n0 : {nc};",
        f"            for (long long k0 = 0; k0 < {k}; k0 += {kc}) {{",
        f"                const long long kb = {k} - k0 < {kc} ? {k} - k0 : {kc};",
        "                // pack B[k0:k0+kb, n0:n0+nb] contiguously: the inner loop then streams it",
        f"#pragma omp parallel for schedule({params.schedule})",
        "                for (long long kk = 0; kk < kb; ++kk)",
        "                    for (long long j = 0; j < nb; ++j) Bp[kk * nb + j] = " + b_at("k0 + kk", "n0 + j") + ";",
        f"#pragma omp parallel for schedule({params.schedule})",
        f"                for (long long m0 = 0; m0 < {m}; m0 += 4) {{",
        f"                    const int mr = {m} - m0 < 4 ? (int)({m} - m0) : 4;",
        "                    float* c0 = C + m0 * " + str(n) + " + n0;",
        "                    if (k0 == 0)",
        "                        for (int r = 0; r < mr; ++r) memset(c0 + r * " + str(n) + ", 0, nb * sizeof(float));",
        "                    if (mr == 4) {",
        f"                        float* c1 = c0 + {n}; float* c2 = c1 + {n}; float* c3 = c2 + {n};",
        "                        for (long long kk = 0; kk < kb; ++kk) {",
        "                            const float a0 = " + a_at("m0", "k0 + kk") + ", a1 = " + a_at("m0 + 1", "k0 + kk")
        + ", a2 = " + a_at("m0 + 2", "k0 + kk") + ", a3 = " + a_at("m0 + 3", "k0 + kk") + ";",
        "                            const float* bp = Bp + kk * nb;",
        "#pragma omp simd",
        "                            for (long long j = 0; j < nb; ++j) {",
        "                                const float bv = bp[j];",
        "                                c0[j] += a0 * bv; c1[j] += a1 * bv; c2[j] += a2 * bv; c3[j] += a3 * bv;",
        "                            }",
        "                        }",
        "                    } else {",
        "                        for (int r = 0; r < mr; ++r) {",
        f"                            float* cr = c0 + r * {n};",
        "                            for (long long kk = 0; kk < kb; ++kk) {",
        "                                const float av = " + a_at("m0 + r", "k0 + kk") + ";",
        "                                const float* bp = Bp + kk * nb;",
        "#pragma omp simd",
        "                                for (long long j = 0; j < nb; ++j) cr[j] += av * bp[j];",
        "                            }",
        "                        }",
        "                    }",
        "                }",
        "            }",
    ]
    if st.alpha != 1.0:
        lines += [f"#pragma omp parallel for schedule({params.schedule})",
                  f"            for (long long mi = 0; mi < {m}; ++mi)",
                  f"                for (long long j = 0; j < nb; ++j) C[mi * {n} + n0 + j] *= {st.alpha!r}f;"]
    lines += epi_lines
    lines += ["        }", "        }", "    }"]
    return "\n".join(lines)


PANEL = """
// The packed panel of B used by the products (kept between calls).
static float* hiera_panel(size_t floats) {
    static float* panel = nullptr;
    static size_t have = 0;
    if (have < floats) {
        free(panel);
        panel = (float*)aligned_alloc(64, ((floats * sizeof(float) + 63) / 64) * 64);
        have = panel ? floats : 0;
    }
    return panel;
}
"""


def fp32_products(prog: Program) -> Program:
    """Every product that writes a bf16 or fp16 buffer writes an fp32 temporary instead, and a stage after it
    rounds that into the buffer (it becomes the product's fused epilogue): the blocked product accumulates
    in its output, which must be fp32."""
    buffers = list(prog.buffers)
    stages: list = []
    for st in prog.stages:
        if isinstance(st, GemmStage) and prog.buffer(st.out).dtype != "float32":
            out = prog.buffer(st.out)
            tmp = Buffer(f"{out.name}_acc", out.shape, "float32", "temp", f"{out.c_name}_acc")
            buffers.append(tmp)
            stages += [replace(st, out=tmp.name),
                       FusedStage(out.shape, ((out.name, Load(out.shape, View.contiguous(tmp.name, out.shape))),))]
        else:
            stages.append(st)
    return Program(tuple(buffers), tuple(stages))


def cpu_stage_code(prog: Program, i: int, extent: str) -> str:
    """Stage i of a program without products as C++, its extent written as `extent` (what runtime_batch compares
    across batch sizes)."""
    st = prog.stages[i]
    if isinstance(st, GemmStage):
        nxt = prog.stages[i + 1] if i + 1 < len(prog.stages) else None
        return _gemm(prog, st, i, CpuParams(), epilogue_for(prog, st, nxt), extent)
    assert isinstance(st, FusedStage)
    return (_row if st.has_reduction else _flat)(prog, st, i, CpuParams(), extent)


def cpu_runtime_batch(spec: TaskSpec, prog: Program, others: dict[int, Program]) -> RuntimeBatch | str:
    """Whether the C++ code of `prog` can take the batch at run time (codegen/runtime_batch.py), or why not; its
    stages are those cpu_source generates (products into fp32, fp32_products), each product with its epilogue."""
    return runtime_batch(spec, fp32_products(prog), {size: fp32_products(o) for size, o in others.items()},
                         cpu_stage_code, index_limit=2**62, products=True)


def cpu_source(spec: TaskSpec, prog: Program, params: CpuParams, *, strategy: str, title: str = "",
               rb: RuntimeBatch | None = None) -> str:
    """The candidate .cpp for `prog`. Raises ValueError when the program cannot be expressed here. With `rb`
    (cpu_runtime_batch's) the loops take the batch from the tensors when called, any size in 1..rb.max_batch;
    without, the code serves the given shapes only (and returns 2 for any other)."""
    if prog.convs:
        raise ValueError("a convolution: the C++ generators have none (cuDNN is a GPU library)")
    prog = fp32_products(prog)
    parts = ["// " + (title or f"hiera expert CPU candidate for '{spec.name}'"),
             f"// strategy: {strategy}",
             f"// variant: {params.label()}",
             "// sizes: " + (f"the batch (dim 0) at run time, 1 to {rb.max_batch}; every other size as given"
                             if rb else "the shapes of get_inputs() only"),
             *[f"//   {s}" for s in stage_summary(prog, Variant())],
             PRELUDE]
    if storage.has_half(prog):
        parts.append(storage.CPU_HALF)
    if params.vector_math:
        parts.append(VECTOR_MATH)
    if prog.temps:
        parts.append(WORKSPACE)
    if prog.gemms:
        parts.append(PANEL)
    body: list[str] = []
    skip: set[int] = set()
    for i, st in enumerate(prog.stages):
        if i in skip:
            continue
        if isinstance(st, GemmStage):
            nxt = prog.stages[i + 1] if i + 1 < len(prog.stages) else None
            epi = epilogue_for(prog, st, nxt)
            if epi is not None:
                skip.add(i + 1)
            body.append(_gemm(prog, st, i, params, epi, rb.extent(i) if rb else None))
        elif st.has_reduction:
            body.append(_row(prog, st, i, params, rb.extent(i) if rb else None))
        else:
            body.append(_flat(prog, st, i, params, rb.extent(i) if rb else None))
    body = [_inline_minmax(b) for b in body]
    if params.vector_math:
        body = [_vector_math(b) for b in body]
    parts.append(_forward(spec, prog, body, rb))
    return "\n".join(parts)


def _forward(spec: TaskSpec, prog: Program, body: list[str], rb: RuntimeBatch | None) -> str:
    lines = [f"extern \"C\" int hiera_forward({', '.join(c_params(spec))}) {{", "    (void)stream;"]
    if rb is None:
        lines += entry_preamble(spec, prog, "loops", target="cpu")
    else:
        used = {b.name for b in prog.buffers}
        lines += guard_lines(spec, rb, lambda name: name in used, "loops") + buffer_pointers(prog, "cpu")
    if prog.temps:
        # Each temporary rounded up to 16 floats (64 bytes); one that follows the batch sized for this call's.
        sizes = [f"{-(-b.numel // 16) * 16}ull" if rb is None or not rb.temp_per_sample.get(b.name)
                 else f"(((size_t)hiera_nb * {rb.temp_per_sample[b.name]}ull + 15) / 16 * 16)" for b in prog.temps]
        offs = [" + ".join(sizes[:k]) or "0" for k in range(len(sizes))]
        total = " + ".join(sizes)
        if rb is None:  # the given shapes: plain numbers
            total = f"{sum(-(-t.numel // 16) * 16 for t in prog.temps)}ull"
            offs = [str(sum(-(-t.numel // 16) * 16 for t in prog.temps[:k])) for k in range(len(prog.temps))]
        lines.append(f"    float* hiera_ws = hiera_workspace({total});")
        lines.append("    if (hiera_ws == nullptr) return 3;")
        lines += [f"    float* {pointer(b.c_name)} = hiera_ws + {off};" for b, off in zip(prog.temps, offs)]
    lines += body
    lines.append("    return 0;")
    lines.append("}")
    return "\n".join(lines) + "\n"

