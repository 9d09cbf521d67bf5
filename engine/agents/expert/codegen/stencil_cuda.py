"""Stencil kernels in pure CUDA: shared-memory tiles with halos, register blocking along the grid's first axis.

For a StencilSpec (stencil_recognize.py: one channel or depthwise, stride 1, 2-D or 3-D, fp32 or fp64) one kernel, one
block per output tile of one plane:

- **Tile with halo (M, R).** The block loads its output tile plus the kernel's halo (k - 1 rows/columns, zero
  outside the grid: the padding) from global memory into shared memory once, threads along the contiguous
  axis (coalesced rows), then every output of the tile reads its neighbourhood from there: each input is read
  from DRAM about once instead of `points` times.
- **Register blocking (R).** Each thread computes `rb` outputs along the grid's first axis (y in 2-D, z in 3-D).
  It walks the rb + k0 - 1 input rows (planes) of its window once, loading each neighbourhood value into a
  register one time and accumulating it into every output of its column that uses it (a sliding window in
  registers), so shared-memory loads per output drop from `points` to about points * (rb + k0 - 1) / (rb * k0).
- **Weights** live in constant memory (copied from the contract's weight buffer on the stream every call, so
  they are the caller's weights): uniform across a warp, they are the FMA's constant operand. Beyond 64 KB
  (many depthwise channels) they are read through the read-only cache instead.
- **Uniform weights.** When every weight of a plane is equal (a box filter; checked in the kernel, per block,
  against the weights actually passed), the block takes a box-sum path: row sums, then sums of row sums, times
  the weight: (rb + k0 - 1) * points / k0 + rb * k0 adds instead of rb * points FMAs. Any other weights take the
  general path, so the candidate is right for every weight tensor.
- **Occupancy (P)** is the block shape (bx x by threads) and __launch_bounds__.

The code is bounded: the window loops are unrolled only while rb * points <= MAX_UNROLLED FMAs (a large
radius keeps the outer loop rolled, so it still builds in seconds), and a variant whose tile does not fit in
48 KB of static shared memory is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from engine.agents.expert.codegen.common import arg_guards, pointer
from engine.agents.expert.device import DeviceLimits
from engine.agents.expert.stencil_recognize import SMEM_STATIC, StencilSpec, tile_bytes
from engine.task.contract import c_params
from engine.task.spec import TaskSpec

MAX_UNROLLED = 4096  # FMAs in one fully unrolled window
CONST_BYTES = 64 * 1024 - 1024  # constant memory for the weights (the rest left to the compiler)
MAX_THREADS = 1024


@dataclass(frozen=True)
class StencilParams:
    """One stencil variant: the block shape and the register blocking depth."""

    bx: int = 32  # threads (= outputs) along the contiguous axis
    by: int = 8  # threads along the next axis (2-D: they split the blocked axis; 3-D: the middle axis)
    rb: int = 8  # outputs per thread along the grid's first axis, accumulated in registers
    uniform: bool = True  # the box-sum path when every weight of a plane is equal (checked at run time)

    def label(self) -> str:
        return (f"stencil block {self.bx}x{self.by}, {self.rb} outputs/thread along axis 0"
                + (", box-sum path for uniform weights" if self.uniform else ""))


def tile(st: StencilSpec, p: StencilParams) -> tuple[int, ...]:
    """The output tile one block computes (axis 0 first)."""
    return (p.by * p.rb, p.bx) if st.dims == 2 else (p.rb, p.by, p.bx)


def smem_shape(st: StencilSpec, p: StencilParams) -> tuple[int, ...]:
    return tuple(t + k - 1 for t, k in zip(tile(st, p), st.kernel))


def check(st: StencilSpec, p: StencilParams) -> None:
    """Raises ValueError when the variant cannot apply to this stencil."""
    if p.bx * p.by > MAX_THREADS or p.bx % 32 or p.rb < 1:
        raise ValueError(f"{p.label()}: blocks of {p.bx}x{p.by} threads (bx a multiple of 32, at most 1024)")
    smem = tile_bytes(st, p.bx, p.by, p.rb)
    if smem > SMEM_STATIC:
        raise ValueError(f"{p.label()}: its tile with halo takes {smem} B of shared memory (> {SMEM_STATIC})")
    if any(t > 4 * o + 64 for t, o in zip(tile(st, p), st.out_grid)):
        raise ValueError(f"{p.label()}: the tile is far larger than the grid {st.out_grid}")


def _grid_dims(st: StencilSpec, p: StencilParams) -> tuple[int, ...]:
    return tuple(-(-o // t) for o, t in zip(st.out_grid, tile(st, p)))


def _kernel(st: StencilSpec, p: StencilParams, const_w: bool) -> str:
    T = st.ctype
    d = st.dims
    K = st.kernel
    P = st.padding
    G = st.grid
    OG = st.out_grid
    S = smem_shape(st, p)
    tiles = _grid_dims(st, p)
    nt = p.bx * p.by
    pts = st.points
    zero = "0.0" if T == "double" else "0.0f"
    window = p.rb + K[0] - 1
    unroll = "#pragma unroll" if p.rb * pts <= MAX_UNROLLED else "#pragma unroll 1"
    w_of = ("hiera_w[{c} * " if const_w else "__ldg(&wg[{c} * ") + str(pts) + (" + {i}]" if const_w else " + {i}])")
    sig = [f"const {T}* __restrict__ x"] + ([] if const_w else [f"const {T}* __restrict__ wg"])
    sig += [f"const {T}* __restrict__ bias"] if st.bias else []
    sig += [f"{T}* __restrict__ y"]
    lines = [f"__global__ void __launch_bounds__({nt}) hiera_stencil({', '.join(sig)}) {{"]
    lines.append(f"    __shared__ {T} s{''.join(f'[{n}]' for n in S)};")
    lines.append("    const int tx = threadIdx.x, ty = threadIdx.y;")
    lines.append("    unsigned int b = blockIdx.x;")
    # Tile indices from the flat block index, the contiguous axis fastest.
    for a in reversed(range(d)):
        lines.append(f"    const int o{a} = (int)(b % {tiles[a]}u) * {tile(st, p)[a]};  b /= {tiles[a]}u;")
    lines.append(f"    const int plane = (int)b;  // n * {st.channels} + c")
    lines.append(f"    const int c = plane % {st.channels};" if st.channels > 1 else "    const int c = 0;")
    lines.append(f"    const {T}* xp = x + (long long)plane * {prod(G)}ll;")
    # Cooperative load of the tile with its halo; zeros outside the grid are the padding.
    if d == 2:
        lines += [
            f"    for (int r = ty; r < {S[0]}; r += {p.by}) {{",
            f"        const int g0 = o0 - {P[0]} + r;",
            f"        const bool in0 = g0 >= 0 && g0 < {G[0]};",
            f"        for (int q = tx; q < {S[1]}; q += {p.bx}) {{",
            f"            const int g1 = o1 - {P[1]} + q;",
            f"            s[r][q] = (in0 && g1 >= 0 && g1 < {G[1]}) ? xp[(long long)g0 * {G[1]} + g1] : ({T}){zero};",
            "        }",
            "    }",
        ]
    else:
        lines += [
            f"    for (int z = 0; z < {S[0]}; ++z) {{",
            f"        const int g0 = o0 - {P[0]} + z;",
            f"        const bool in0 = g0 >= 0 && g0 < {G[0]};",
            f"        for (int r = ty; r < {S[1]}; r += {p.by}) {{",
            f"            const int g1 = o1 - {P[1]} + r;",
            f"            const bool in1 = in0 && g1 >= 0 && g1 < {G[1]};",
            f"            for (int q = tx; q < {S[2]}; q += {p.bx}) {{",
            f"                const int g2 = o2 - {P[2]} + q;",
            f"                s[z][r][q] = (in1 && g2 >= 0 && g2 < {G[2]}) ? "
            f"xp[((long long)g0 * {G[1]} + g1) * {G[2]} + g2] : ({T}){zero};",
            "            }",
            "        }",
            "    }",
        ]
    # Window row i of this thread: smem index along axis 0, and the neighbourhood offsets of the other axes.
    base0 = f"ty * {p.rb} + i" if d == 2 else "i"
    if d == 2:
        def nb(i0: str) -> str:
            return f"s[{i0}][tx + d1]"
        inner = [("d1", K[1])]
    else:
        def nb(i0: str) -> str:
            return f"s[{i0}][ty + d1][tx + d2]"
        inner = [("d1", K[1]), ("d2", K[2])]
    inner_index = "d1" if d == 2 else f"d1 * {K[2]} + d2"
    inner_pts = prod(K[1:])
    lines.append(f"    {T} acc[{p.rb}];")
    lines.append("#pragma unroll")
    lines.append(f"    for (int j = 0; j < {p.rb}; ++j) acc[j] = {zero};")
    if p.uniform:
        # Every thread checks a share of the weights; the barrier after the load also ANDs the answers.
        lines += [
            "    int same = 1;",
            f"    for (int i = tx + ty * {p.bx} + 1; i < {pts}; i += {nt}) "
            f"same &= {w_of.format(c='c', i='i')} == {w_of.format(c='c', i='0')};",
            "    const int uniform = __syncthreads_and(same);",
            "    if (uniform) {",
            f"        // Box sum: the neighbourhood sum of each window row, then the sums of {K[0]} consecutive ones.",
            f"        {T} h[{window}];",
            f"{unroll}",
            f"        for (int i = 0; i < {window}; ++i) {{",
            f"            {T} t = {zero};",
        ]
        for name, k in inner:
            lines += ["#pragma unroll", f"            for (int {name} = 0; {name} < {k}; ++{name})"]
        lines += [
            f"                t += {nb(base0)};",
            "            h[i] = t;",
            "        }",
            f"        const {T} w0 = {w_of.format(c='c', i='0')};",
            "#pragma unroll",
            f"        for (int j = 0; j < {p.rb}; ++j) {{",
            f"            {T} t = {zero};",
            "#pragma unroll",
            f"            for (int k0 = 0; k0 < {K[0]}; ++k0) t += h[j + k0];",
            "            acc[j] = t * w0;",
            "        }",
            "    } else {",
        ]
    else:
        lines += ["    __syncthreads();", "    {"]
    # General path: each neighbourhood value loaded once, accumulated into every output of the column using it.
    lines += [
        f"{unroll}",
        f"        for (int i = 0; i < {window}; ++i) {{",
    ]
    for name, k in inner:
        lines += ["#pragma unroll", f"            for (int {name} = 0; {name} < {k}; ++{name}) {{"]
    lines += [
        f"                const {T} v = {nb(base0)};",
        "#pragma unroll",
        f"                for (int j = 0; j < {p.rb}; ++j) {{",
        "                    const int k0 = i - j;",
        f"                    if (k0 >= 0 && k0 < {K[0]}) "
        f"acc[j] = fma({w_of.format(c='c', i=f'k0 * {inner_pts} + {inner_index}')}, v, acc[j]);",
        "                }",
    ]
    lines += ["            }"] * len(inner)
    lines += ["        }", "    }"]
    # Stores, coalesced along the contiguous axis; the tile's ragged edges are masked.
    bias = " + bias[c]" if st.bias else ""
    if d == 2:
        lines += [
            "    const int q1 = o1 + tx;",
            "#pragma unroll",
            f"    for (int j = 0; j < {p.rb}; ++j) {{",
            f"        const int q0 = o0 + ty * {p.rb} + j;",
            f"        if (q0 < {OG[0]} && q1 < {OG[1]}) "
            f"y[(long long)plane * {prod(OG)}ll + (long long)q0 * {OG[1]} + q1] = acc[j]{bias};",
            "    }",
        ]
    else:
        lines += [
            "    const int q1 = o1 + ty, q2 = o2 + tx;",
            "#pragma unroll",
            f"    for (int j = 0; j < {p.rb}; ++j) {{",
            "        const int q0 = o0 + j;",
            f"        if (q0 < {OG[0]} && q1 < {OG[1]} && q2 < {OG[2]}) "
            f"y[(long long)plane * {prod(OG)}ll + ((long long)q0 * {OG[1]} + q1) * {OG[2]} + q2] = acc[j]{bias};",
            "    }",
        ]
    lines.append("}")
    return "\n".join(lines)


def stencil_source(spec: TaskSpec, st: StencilSpec, p: StencilParams, *, strategy: str,
                   dev: DeviceLimits | None = None) -> str:
    """The candidate .cu for the stencil under variant p. Raises ValueError when the variant cannot apply."""
    check(st, p)
    blocks = st.planes * prod(_grid_dims(st, p))
    if blocks >= 2**31:
        raise ValueError(f"{p.label()}: {blocks} blocks exceed the grid limit")
    T = st.ctype
    wbytes = st.channels * st.points * st.itemsize
    const_w = wbytes <= CONST_BYTES
    dev = dev or DeviceLimits()
    resident = dev.resident_blocks(p.bx * p.by)
    head = [
        f"// hiera expert candidate for '{spec.name}'",
        f"// strategy: {strategy}",
        f"// variant: {p.label()}",
        f"// precision: {st.dtype} throughout (loads, FMAs, accumulators and stores)",
        f"//   {st.describe()}",
        f"//   output tile {'x'.join(map(str, tile(st, p)))} per block, shared tile with halo "
        f"{'x'.join(map(str, smem_shape(st, p)))}; {blocks} blocks, {resident} resident at once on "
        f"{dev.sm_count} SMs; weights in {'constant memory' if const_w else 'the read-only cache'}",
        "#include <cuda_runtime.h>",
        "#include <stdint.h>",
        '#include "hiera_contract.h"',
        "",
    ]
    if const_w:
        head.append(f"__constant__ {T} hiera_w[{st.channels * st.points}];")
    body = _kernel(st, p, const_w)
    fwd = [f"extern \"C\" int hiera_forward({', '.join(c_params(spec))}) {{",
           "    cudaStream_t hiera_s = (cudaStream_t)stream;"]
    used = {st.x, st.weight} | ({st.bias} if st.bias else set())
    fwd += arg_guards(spec, lambda a: a.c_name in used, "kernel")
    for c in sorted(used):
        fwd.append(f"    const {T}* {pointer(c)} = (const {T}*){c}->data;")
    fwd.append(f"    {T}* {pointer(st.out)} = ({T}*){st.out}->data;")
    if const_w:
        fwd.append(f"    if (cudaMemcpyToSymbolAsync(hiera_w, {pointer(st.weight)}, {wbytes}, 0, "
                   "cudaMemcpyDeviceToDevice, hiera_s) != cudaSuccess) return 4;")
    args = [pointer(st.x)] + ([] if const_w else [pointer(st.weight)]) + ([pointer(st.bias)] if st.bias else [])
    args.append(pointer(st.out))
    fwd.append(f"    hiera_stencil<<<dim3({blocks}u), dim3({p.bx}, {p.by}), 0, hiera_s>>>({', '.join(args)});")
    fwd.append("    return cudaPeekAtLastError() == cudaSuccess ? 0 : 4;")
    fwd.append("}")
    return "\n".join(head) + "\n" + body + "\n\n" + "\n".join(fwd) + "\n"


# --- the variants a strategy explores -----------------------------------------------------------------------

SP = StencilParams


# Last in every list: small tiles, for wide kernels whose larger tiles do not fit in shared memory.
SMALL = [SP(32, 4, 2), SP(32, 2, 2)]


def _defaults(st: StencilSpec) -> dict[str, list[StencilParams]]:
    """Per focus, the variants in the order tried (best guess first). 2-D: block 32x8 with 8 outputs per
    thread is a 64x32 tile, the usual sweet spot for shared-memory stencils; 3-D: a 32x8 plane, 8 (or 4 for
    wide kernels) planes deep."""
    if st.dims == 2:
        return {
            # M: the tile's shape (wider rows: longer coalesced segments and a smaller halo share)
            "tile": [SP(32, 8, 8), SP(64, 4, 8), SP(32, 4, 16), SP(64, 8, 4), SP(128, 2, 8), SP(32, 16, 4)],
            # R: register blocking depth along y
            "rblock": [SP(32, 8, 8), SP(32, 8, 16), SP(32, 8, 4), SP(32, 8, 2), SP(32, 4, 32), SP(32, 8, 1)],
            # P: threads per block and so blocks per SM
            "occupancy": [SP(32, 8, 8), SP(32, 4, 8), SP(32, 16, 4), SP(64, 8, 8), SP(32, 2, 16), SP(64, 16, 2)],
            "safe": [SP(32, 8, 4, uniform=False), SP(32, 4, 2, uniform=False)],
            "small": SMALL,
        }
    deep = 8 if st.kernel[0] <= 3 else 4
    return {
        "tile": [SP(32, 8, deep), SP(64, 4, deep), SP(32, 4, deep), SP(32, 16, deep), SP(64, 8, deep)],
        "rblock": [SP(32, 8, deep), SP(32, 8, 2 * deep), SP(32, 8, max(1, deep // 2)), SP(32, 4, 2 * deep),
                   SP(32, 8, 1)],
        "occupancy": [SP(32, 8, deep), SP(32, 4, deep), SP(32, 16, deep), SP(64, 8, deep), SP(32, 2, deep)],
        "safe": [SP(32, 8, 2, uniform=False), SP(32, 4, 2, uniform=False)],
        "small": SMALL,
    }


def _neighbours(p: StencilParams) -> list[StencilParams]:
    from dataclasses import replace

    out = [replace(p, rb=r) for r in (p.rb * 2, p.rb // 2) if r >= 1]
    out += [replace(p, by=b) for b in (p.by * 2, p.by // 2) if b >= 1]
    out += [replace(p, bx=64 if p.bx == 32 else 32), replace(p, uniform=not p.uniform)]
    return out


def stencil_variants(st: StencilSpec, focus: str, parent: object | None = None) -> list[StencilParams]:
    """The variants of a round: the parent's neighbours first, then the focus knob's list, then the others'."""
    lists = _defaults(st)
    out: list[StencilParams] = list(_neighbours(parent)) if isinstance(parent, StencilParams) else []
    out += lists.get(focus, lists["tile"])
    if focus != "safe":
        for key, lst in lists.items():
            if key != focus:
                out += lst
    seen: set[StencilParams] = set()
    fit = []
    for v in out:
        if v in seen:
            continue
        seen.add(v)
        try:
            check(st, v)
        except ValueError:
            continue
        fit.append(v)
    return fit
