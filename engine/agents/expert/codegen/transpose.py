"""Tiled transposes (CUDA): a pointwise stage whose reads are strided along the output's last dim.

`x.transpose(1, 2).contiguous()` lowers to a flat stage whose load walks the source with a large stride
along the domain's last dim: the flat kernel writes coalesced but reads one 32-byte sector per element
(26% of the copy roofline on the H200). Here the domain's last dim and the dim along which those loads
have unit stride (the "plane") are cut into tile x tile squares; a block reads its square into shared
memory with consecutive threads on consecutive source addresses, synchronizes, and writes it with
consecutive threads on consecutive output addresses. Pointwise work fused around the transpose is
computed in the second phase; loads that are already coalesced along the last dim (or broadcast) are read
there directly. The other domain dims (batch, or dims between the two) are one batch index per block.

Bank conflicts in the column-wise read of the tile are avoided by a +1 padding column or an XOR swizzle
of the column index (the variant decides). Sizes that are not multiples of the tile get bounds checks,
emitted only along a dim that needs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from engine.agents.expert.codegen import storage
from engine.agents.expert.codegen.common import Emitter, KernelCode, describe, offset_code, pointer, short
from engine.agents.expert.codegen.pointwise import call_args, kernel_params
from engine.agents.expert.codegen.variants import TransposeParams
from engine.agents.expert.ir import FusedStage, Load, Program, View, loads

# Below this many elements along either side of the plane a tile is mostly idle threads: such stages keep
# the flat kernel.
MIN_EDGE = 16
SMEM_BYTES = 48 * 1024  # the static shared-memory limit per block
MAX_BLOCKS = 2**31 - 1


@dataclass(frozen=True)
class Plane:
    """The two domain dims a tiled transpose swaps: `dim` (unit stride in the staged loads) and the last."""

    dim: int
    staged: tuple[View, ...]  # the distinct loads (views broadcast to the domain) read through shared memory


def plane_of(stage: FusedStage) -> Plane | None:
    """The plane of a stage worth a tiled transpose, or None (reductions, 1-D, nothing read transposed)."""
    dom = stage.domain
    if stage.has_reduction or len(dom) < 2 or dom[-1] < MIN_EDGE:
        return None
    views: dict[View, None] = {}
    for _, e in stage.outputs:
        for ld in loads(e):
            views[ld.view.expand(dom)] = None
    best: Plane | None = None
    # Nearest the last dim first, so a plain last-two-dims transpose takes the usual plane on ties.
    for d in range(len(dom) - 2, -1, -1):
        if dom[d] < MIN_EDGE:
            continue
        hits = tuple(v for v in views if v.strides[d] == 1 and v.strides[-1] not in (0, 1))
        if hits and (best is None or len(hits) > len(best.staged)):
            best = Plane(d, hits)
    return best


def transposed_stages(prog: Program) -> tuple[FusedStage, ...]:
    return tuple(st for st in prog.fused if plane_of(st) is not None)


def _split(view: View, dom: tuple[int, ...], dim: int) -> tuple[View, int, int]:
    """The view over the batch dims (all but `dim` and the last), and its strides along `dim` and the last."""
    v = view.expand(dom)
    keep = [k for k in range(len(dom)) if k not in (dim, len(dom) - 1)]
    rest = View(v.buffer, tuple(v.shape[k] for k in keep), tuple(v.strides[k] for k in keep), v.offset)
    return rest, v.strides[dim], v.strides[-1]


def _term(var: str, stride: int) -> str:
    if stride == 0:
        return ""
    return f" + {var}" if stride == 1 else f" + {var} * {stride}"


def transpose_kernel(prog: Program, stage: FusedStage, plane: Plane, params: TransposeParams, name: str,
                     idx_t: str, runtime: bool = False) -> KernelCode:
    """The kernel and its launch. Raises ValueError when the variant cannot apply (tile, grid size).

    `runtime`: the batch is taken at run time (codegen/runtime_batch.py): the stage's element count is the kernel's
    argument `n` (`hiera_n` at the launch), the batch dims' count n / (plane's elements), and each block walks the
    tiles grid-stride (a grid capped at MAX_BLOCKS serves any count). The plane must leave dim 0 (the batch) out."""
    tile, rows = params.tile, params.rows
    if tile % 32 or tile % rows or not 1 <= rows <= tile:
        raise ValueError(f"transpose tile {tile} with 32x{rows} threads: the tile must be a multiple of 32 "
                         "and of the block's rows")
    dom = stage.domain
    c_dim = plane.dim
    if runtime and c_dim == 0:
        raise ValueError("the transposed plane holds dim 0 (the batch): its tiles are laid out for the given sizes")
    n_c, n_l = dom[c_dim], dom[-1]
    batch = tuple(n for k, n in enumerate(dom) if k not in (c_dim, len(dom) - 1))
    tiles_c, tiles_l = -(-n_c // tile), -(-n_l // tile)
    n_batch = prod(batch)
    blocks = n_batch * tiles_c * tiles_l
    if blocks > MAX_BLOCKS and not runtime:
        raise ValueError(f"{blocks} tiles exceed the grid limit")
    pad = 0 if params.swizzle else 1
    fits = max(1, SMEM_BYTES // (tile * (tile + pad) * 4))
    staged = plane.staged[:fits]  # past the shared-memory budget, further transposed loads are read directly

    reads: dict[str, None] = {}
    for _, e in stage.outputs:
        for ld in loads(e):
            reads[ld.view.buffer] = None
    writes = [n for n, _ in stage.outputs]

    # Per-block base offsets over the batch dims, one per distinct view (loads and outputs).
    bases: dict[View, str] = {}
    base_lines: list[str] = []

    def at(view: View, c: str, l_: str) -> str:
        v = view.expand(dom)
        rest, sc, sl = _split(v, dom, c_dim)
        if v not in bases:
            bases[v] = f"base{len(bases)}"
            base_lines.append(f"    const idx_t {bases[v]} = {offset_code(rest, batch, 'b')};  // {v.buffer}")
        return f"{bases[v]}{_term(c, sc)}{_term(l_, sl)}"

    def swz(col: str, row: str) -> str:
        return f"{col} ^ ({row} & 31)" if params.swizzle else col

    guard = [cond for cond, ragged in ((f"c < {n_c}", n_c % tile), (f"l < {n_l}", n_l % tile)) if ragged]
    per_y, per_x = tile // rows, tile // 32

    # Phase 1: threadIdx.x runs along the plane dim, where the staged loads have unit stride.
    p1 = [f"const int j = (int)threadIdx.y + y * {rows};  // along the last dim",
          f"const int i = (int)threadIdx.x + x * 32;  // along dim {c_dim}: unit stride in the source",
          "const idx_t c = c0 + (idx_t)i, l = l0 + (idx_t)j;"]

    def src(v: View) -> str:
        """The source element of view v at (c, l), as a float (halves widened: codegen/storage.py)."""
        return storage.ld(prog, v.buffer, f"{pointer(prog.buffer(v.buffer).c_name)}[{at(v, 'c', 'l')}]")

    body1 = [f"s{k}[j][{swz('i', 'j')}] = {src(v)};" for k, v in enumerate(staged)]
    # Phase 2: threadIdx.x runs along the last dim, where the output (contiguous) has unit stride.
    p2 = [f"const int j = (int)threadIdx.y + y * {rows};  // along dim {c_dim}",
          "const int i = (int)threadIdx.x + x * 32;  // along the last dim: unit stride in the output",
          "const idx_t c = c0 + (idx_t)j, l = l0 + (idx_t)i;"]
    slot = {v: k for k, v in enumerate(staged)}

    def leaf(ld: Load) -> str:
        v = ld.view.expand(dom)
        if v in slot:
            return f"s{slot[v]}[i][{swz('j', 'i')}]"
        return src(v)

    em = Emitter(leaf, prefix="t", indent="")
    vals = [em.value(e) for _, e in stage.outputs]
    body2 = list(em.lines)
    for (oname, _), val in zip(stage.outputs, vals):
        out = View.contiguous(oname, dom)
        ref = f"{pointer(prog.buffer(oname).c_name)}[{at(out, 'c', 'l')}]"
        body2.append(f"{storage.st(prog, oname, ref, val)};")

    what = "; ".join(f"{o} = {short(describe(e), 110)}" for o, e in stage.outputs)
    threads = 32 * rows
    per_plane = n_c * n_l  # elements of one batch index's plane
    batched = runtime or n_batch > 1
    lines = [
        f"// {what}",
        f"// tiled transpose of the plane (dim {c_dim}: {n_c}) x (last dim: {n_l}), "
        + (f"batch n / {per_plane} (at run time)" if runtime else f"batch {n_batch}") + ": "
        f"{tile}x{tile} tiles, 32x{rows} threads, {'xor-swizzled' if params.swizzle else '+1 padded'} "
        "shared memory; reads and writes both coalesced.",
        f"__global__ void __launch_bounds__({threads}) "
        f"{name}({kernel_params(prog, list(reads), writes, ('const idx_t n',) if runtime else ())}) {{",
    ]
    lines += [f"    __shared__ float s{k}[{tile}][{tile + pad}];" for k in range(len(staged))]
    ind = "    " if runtime else ""  # the tile loop's body (runtime) one level in
    if runtime:
        lines += [f"    const idx_t tiles = n / {per_plane} * {tiles_c * tiles_l};",
                  "    for (idx_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {"]
    else:
        lines.append("    const idx_t tile = blockIdx.x;")
    lines += [
        f"{ind}    const idx_t l0 = (tile % {tiles_l}) * {tile};",
        f"{ind}    const idx_t c0 = ((tile / {tiles_l}) % {tiles_c}) * {tile};" if batched else
        f"{ind}    const idx_t c0 = (tile / {tiles_l}) * {tile};",
        f"{ind}    const idx_t b = tile / {tiles_l * tiles_c};" if batched else f"{ind}    const idx_t b = 0;",
        f"{ind}    (void)b;",
    ]
    head_at = len(lines)
    body: list[str] = []
    if staged:
        body += _loop(per_y, per_x, p1, guard, body1)
        body.append("    __syncthreads();")
    body += _loop(per_y, per_x, p2, guard, body2)
    if runtime and staged:
        body.append("    __syncthreads();  // the next tile's first phase overwrites what this one read")
    lines += [ind + ln for ln in body]
    if runtime:
        lines.append("    }")
    lines.append("}")
    lines[head_at:head_at] = [ind + ln for ln in base_lines]
    if runtime:
        launch = (f"    {{\n        unsigned long long g = (unsigned long long)hiera_n / {per_plane} * "
                  f"{tiles_c * tiles_l};\n        g = g < 1 ? 1 : g > {MAX_BLOCKS}ull ? {MAX_BLOCKS}ull : g;\n"
                  f"        {name}<<<(unsigned)g, dim3(32, {rows}), 0, hiera_s>>>"
                  f"({call_args(prog, list(reads), writes)}, hiera_n);\n    }}")
    else:
        launch = (f"    {name}<<<{blocks}, dim3(32, {rows}), 0, hiera_s>>>"
                  f"({call_args(prog, list(reads), writes)});")
    return KernelCode("\n".join(lines) + "\n", launch, tuple(reads), tuple(writes))


def _loop(per_y: int, per_x: int, head: list[str], guard: list[str], body: list[str]) -> list[str]:
    """Both tile loops with compile-time trip counts (fully unrolled: every load of a thread in flight)."""
    out = ["#pragma unroll", f"    for (int y = 0; y < {per_y}; ++y) {{",
           "#pragma unroll", f"        for (int x = 0; x < {per_x}; ++x) {{", *("            " + ln for ln in head)]
    if guard:
        out += [f"            if ({' && '.join(guard)}) {{", *("                " + ln for ln in body), "            }"]
    else:
        out += ["            " + ln for ln in body]
    out += ["        }", "    }"]
    return out
