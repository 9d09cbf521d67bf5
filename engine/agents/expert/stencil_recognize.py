"""Stencils: convolutions that are a fixed neighbourhood sum over one grid per plane, found in the operator graph.

A convolution is a stencil when no sum runs across channels: one channel in and out, or depthwise (groups =
in = out channels), stride 1, dilation 1, zero padding ('same', 'valid' or explicit), a small kernel, 2-D or
3-D, float32 or float64. Then every output is sum_k w[c][k] * x[c][p + k - pad] over the kernel's points: a
memory-bound or (for wide kernels in fp64) FMA-bound sweep with heavy reuse of each input, which the stencil
generator (codegen/stencil_cuda.py) writes as shared-memory tiles with halos and register blocking along one axis.
A multi-channel convolution sums over channels for every output: that is a GEMM, left to cuDNN.

Recognised from the graph, the shapes and the dtypes only (the task's name plays no part). The whole graph
must be that one convolution (a bias add after it is allowed), reading an input and a weight the contract
hands over; anything else is not a stencil task and `recognize` says why.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Any

from engine.agents.expert.ops import int_tuple
from engine.task.spec import Arg, GraphNode, TaskSpec

SMEM_STATIC = 48 * 1024  # bytes of static shared memory a block may declare (one tile with its halo)
MAX_KERNEL = 15  # per dim: beyond it a kernel is a filter for FFTs or a GEMM, and the tile's halo dwarfs it
MAX_POINTS = 1331  # 11^3: the largest neighbourhood the generator unrolls over
DTYPES = ("float32", "float64")


@dataclass(frozen=True)
class StencilSpec:
    """out[n][c][o...] = bias[c] + sum over k of w[c][k...] * x[n][c][o... + k... - pad...] (zero outside)."""

    x: str  # contract c_name of the input
    weight: str  # contract c_name of the weight (C, 1, *kernel)
    bias: str | None  # contract c_name of the bias (C,), or None
    out: str  # the output's name
    dtype: str  # float32 | float64
    batch: int
    channels: int  # 1, or the depthwise channel count
    grid: tuple[int, ...]  # the input's spatial shape, 2 or 3 dims, last contiguous
    kernel: tuple[int, ...]
    padding: tuple[int, ...]

    @property
    def dims(self) -> int:
        return len(self.grid)

    @property
    def points(self) -> int:
        return prod(self.kernel)

    @property
    def out_grid(self) -> tuple[int, ...]:
        return tuple(n + 2 * p - k + 1 for n, p, k in zip(self.grid, self.padding, self.kernel))

    @property
    def planes(self) -> int:
        return self.batch * self.channels

    @property
    def itemsize(self) -> int:
        return 8 if self.dtype == "float64" else 4

    @property
    def ctype(self) -> str:
        return "double" if self.dtype == "float64" else "float"

    @property
    def flops(self) -> int:
        return 2 * self.points * self.planes * prod(self.out_grid)

    @property
    def min_bytes(self) -> int:
        return (prod(self.grid) + prod(self.out_grid)) * self.planes * self.itemsize

    def describe(self) -> str:
        k = "x".join(map(str, self.kernel))
        g = "x".join(map(str, self.grid))
        ch = "1 channel" if self.channels == 1 else f"{self.channels} channels (depthwise)"
        return (f"{self.dims}-D {k} stencil ({self.points} points, {self.dtype}) on {self.planes} plane(s) of {g}, "
                f"{ch}, padding {'x'.join(map(str, self.padding))}")


def tile_bytes(st: StencilSpec, bx: int, by: int, rb: int) -> int:
    """Shared memory for one block's output tile with its halo: bx x by threads, rb outputs each along axis 0
    (2-D: the by rows of threads split axis 0; 3-D: they span axis 1)."""
    t = (by * rb, bx) if st.dims == 2 else (rb, by, bx)
    return prod(n + k - 1 for n, k in zip(t, st.kernel)) * st.itemsize


def _arg(spec: TaskSpec, graph: dict[str, GraphNode], a: Any) -> Arg | None:
    """The contract argument an fx argument reads (a placeholder or get_attr), or None."""
    if not (isinstance(a, dict) and "node" in a):
        return None
    n = graph.get(a["node"])
    if n is None:
        return None
    if n.op == "placeholder":
        inputs = [x for x in spec.args if x.role in ("input", "scalar")]
        idx = [g.name for g in graph.values() if g.op == "placeholder"].index(n.name)
        return inputs[idx] if idx < len(inputs) and inputs[idx].tensor is not None else None
    if n.op == "get_attr":
        return next((x for x in spec.args if x.name == n.target and x.tensor is not None), None)
    return None


def recognize(spec: TaskSpec) -> StencilSpec | str:
    """The task as a stencil, or the reason it is not one."""
    if spec.graph is None:
        return "the graph did not trace"
    graph = {n.name: n for n in spec.graph}
    compute = [n for n in spec.graph if n.op not in ("placeholder", "get_attr", "output")]
    convs = [n for n in compute if (n.op == "call_function" and n.target in ("conv2d", "conv3d"))
             or (n.op == "call_module" and n.target.split(":", 1)[0] in ("Conv2d", "Conv3d"))]
    if len(convs) != 1 or len(compute) != 1:
        return "not a single 2-D or 3-D convolution"
    (c,) = convs
    outs = [n for n in spec.graph if n.op == "output"]
    if len(spec.outputs) != 1 or not outs or outs[0].args[:1] != ({"node": c.name},):
        return "the convolution is not the task's one output"
    if c.op == "call_module":
        mtype, mname = c.target.split(":", 1)
        d = 2 if mtype == "Conv2d" else 3
        cfg = c.config
        if cfg.get("padding_mode", "zeros") != "zeros" or cfg.get("transposed"):
            return f"a {mtype} with padding_mode {cfg.get('padding_mode')!r} or transposed"
        x = _arg(spec, graph, c.args[0] if c.args else None)
        w = next((a for a in spec.args if a.name == f"{mname}.weight" and a.tensor is not None), None)
        b = next((a for a in spec.args if a.name == f"{mname}.bias" and a.tensor is not None), None)
        has_bias = b is not None
        stride, padding, dilation, groups = cfg.get("stride", 1), cfg.get("padding", 0), cfg.get("dilation", 1), \
            cfg.get("groups", 1)
    else:
        d = 2 if c.target == "conv2d" else 3

        def get(i: int, name: str, default: Any) -> Any:
            return c.args[i] if len(c.args) > i else c.kwargs.get(name, default)

        x, w = _arg(spec, graph, get(0, "input", None)), _arg(spec, graph, get(1, "weight", None))
        braw = get(2, "bias", None)
        b = _arg(spec, graph, braw) if braw is not None else None
        has_bias = braw is not None
        if has_bias and b is None:
            return "the bias is computed, not an argument"
        stride, padding, dilation, groups = get(3, "stride", 1), get(4, "padding", 0), get(5, "dilation", 1), \
            get(6, "groups", 1)
    if x is None or w is None or x.tensor is None or w.tensor is None:
        return "the convolution's input or weight is not an argument of the contract"
    xs, ws = x.tensor.shape, w.tensor.shape
    if len(xs) != d + 2 or len(ws) != d + 2:
        return f"a conv{d}d over a {len(xs)}-D input"
    dtypes = {x.tensor.dtype, w.tensor.dtype, spec.outputs[0][1].dtype}
    dtypes |= {b.tensor.dtype} if b is not None and b.tensor is not None else set()
    if len(dtypes) != 1 or next(iter(dtypes)) not in DTYPES:
        return f"dtypes {sorted(dtypes)}: a stencil here is float32 or float64 throughout"
    if int_tuple(stride, d) != (1,) * d or int_tuple(dilation, d) != (1,) * d:
        return f"stride {stride} or dilation {dilation} is not 1"
    n, ch = xs[0], xs[1]
    if not isinstance(groups, int) or ws[0] != ch or ws[1] != 1 or groups != ch:
        return (f"{ch} -> {ws[0]} channels with groups {groups}: a sum across channels (a GEMM, not a stencil); "
                "a stencil has one channel or is depthwise")
    kernel = tuple(ws[2:])
    if padding == "valid":
        pad: tuple[int, ...] | None = (0,) * d
    elif padding == "same":
        if any(k % 2 == 0 for k in kernel):
            return "padding 'same' with an even kernel (asymmetric padding)"
        pad = tuple(k // 2 for k in kernel)
    else:
        pad = int_tuple(padding, d)
    if pad is None or any(p < 0 or p >= k for p, k in zip(pad, kernel)):
        return f"padding {padding!r}"
    if max(kernel) > MAX_KERNEL or prod(kernel) > MAX_POINTS:
        return f"a {'x'.join(map(str, kernel))} kernel is too large for a stencil kernel"
    st = StencilSpec(x.c_name, w.c_name, b.c_name if b is not None else None, spec.outputs[0][0],
                     next(iter(dtypes)), n, ch, tuple(xs[2:]), kernel, pad)
    if tuple(spec.outputs[0][1].shape) != (n, ch, *st.out_grid) or min(st.out_grid) < 1:
        return "the output's shape is not the convolution's"
    if tile_bytes(st, 32, 2, 2) > SMEM_STATIC:
        return (f"a {'x'.join(map(str, kernel))} {st.dtype} kernel: even a 32x2x2 tile with its halo exceeds "
                f"{SMEM_STATIC} B of shared memory")
    return st
