"""Reductions: sum/mean/amax/amin/max/min over any dims, var/std, vector norms, softmax, logsumexp.

A reduction over the last dim stays lazy, a `Reduce` node in the expression that consumes it (one row
kernel computes both); one over other dims is permuted last, merged and reduced in a stage of its own.
Softmax and logsumexp are decomposed with the row maximum subtracted first, as ATen computes them.
"""

from __future__ import annotations

from math import prod
from typing import Any

from engine.agents.expert.ir import Binary, Const, Expr, Load, Reduce, Unary, View, reductions
from engine.agents.expert.lowering.builder import Lowering
from engine.agents.expert.lowering.table import Call, ModuleCall, lowers, lowers_module
from engine.agents.expert.lowering.values import (
    IndicesUnsupported,
    Squeezed,
    Unsupported,
    Value,
    rewrite_views,
    row_domain,
)

# Reductions over at most this many elements are unrolled into the consuming expression (maxout over a
# group of 4, say) instead of getting a kernel of their own.
INLINE_REDUCE_MAX = 8


def reduce(lw: Lowering, op: str, v: Value, dims: Any, keepdim: bool) -> Value:
    """op over `dims` (sum | max | min | mean); keepdim as torch."""
    if isinstance(v, Squeezed):
        v = lw.materialize(v)
    x = lw.expr(v)
    n = len(x.shape)
    if dims is None or dims == []:
        dims_t = tuple(range(n))
    else:
        dims_t = tuple(sorted({int(d) % n for d in (dims if isinstance(dims, (list, tuple)) else [dims])}))
    keep_shape = tuple(1 if d in dims_t else s for d, s in enumerate(x.shape))
    drop_shape = tuple(s for d, s in enumerate(x.shape) if d not in dims_t)
    count = prod(x.shape[d] for d in dims_t)
    base = "sum" if op == "mean" else op
    if dims_t == (n - 1,):
        d = x.shape[-1]
        if d <= INLINE_REDUCE_MAX and row_domain(x) is None:
            out: Expr = _inline_reduce(base, x)
        else:
            if row_domain(x) is not None and row_domain(x) != x.shape:
                x = lw.materialize(x)
            out = Reduce(keep_shape, base, x)
        if op == "mean":
            out = Binary(out.shape, "div", out, Const((), float(count)))
        if keepdim:
            return out
        return Squeezed(out, drop_shape) if isinstance(out, Expr) and reductions(out) else \
            lw.view_op(out, drop_shape, lambda w: w.reshape(drop_shape))
    if (n - 1) in dims_t and not lw.viewable(x, (prod(x.shape[d] for d in range(n) if d not in dims_t), count)):
        # The reduced dims do not merge into one row without a copy (a broadcast operand, say): reduce
        # the last dim first (one row kernel over the expression as it is), then the rest of the dims
        # of that much smaller result, instead of writing the whole expression to memory.
        inner = reduce(lw, base, x, [n - 1], True)
        out_v = reduce(lw, base, inner, [d for d in dims_t if d != n - 1], keepdim)
        return lw.binary("div", out_v, float(count)) if op == "mean" else out_v
    # Other dims: move them last, merge them, reduce in a stage of its own, view the result.
    kept = [d for d in range(n) if d not in dims_t]
    perm = kept + list(dims_t)
    moved = lw.permute(x, perm) if perm != list(range(n)) else x
    lead = tuple(x.shape[d] for d in kept)
    merged = lw.view_op(moved, lead + (count,), lambda w: w.reshape(lead + (count,)))
    merged_e = lw.expr(merged)
    if row_domain(merged_e) is not None:
        merged_e = lw.materialize(merged_e)
    red: Expr = Reduce(lead + (1,), base, merged_e)
    if op == "mean":
        red = Binary(red.shape, "div", red, Const((), float(count)))
    name = lw.temp(lead + (1,))
    lw.add_stage([(name, red)])
    final = keep_shape if keepdim else drop_shape
    return Load(final, View.contiguous(name, final))


def _inline_reduce(op: str, x: Expr) -> Expr:
    parts = []
    shape = x.shape[:-1] + (1,)
    for j in range(x.shape[-1]):
        parts.append(rewrite_views(x, x.shape, shape, lambda w, j=j: w.slice(len(w.shape) - 1, j, j + 1)))
    comb = {"sum": "add", "max": "maximum", "min": "minimum"}[op]
    acc = parts[0]
    for p in parts[1:]:
        acc = Binary(shape, comb, acc, p)
    return acc


def moments(x: Expr, correction: float = 0.0) -> tuple[Expr, Expr, Expr]:
    """(mean, centered x, variance) over the last dim, two-pass as ATen's layer norm is exact."""
    d = x.shape[-1]
    rs = x.shape[:-1] + (1,)
    mean = Binary(rs, "div", Reduce(rs, "sum", x), Const((), float(d)))
    xc = Binary(x.shape, "sub", x, mean)
    var = Binary(rs, "div", Reduce(rs, "sum", Binary(x.shape, "mul", xc, xc)), Const((), float(d - correction)))
    return mean, xc, var


def softmax(lw: Lowering, v: Value, dim: int, log: bool = False) -> Value:
    x = lw.expr(v)
    n = len(x.shape)
    dim = dim % n
    if dim != n - 1:
        perm = [d for d in range(n) if d != dim] + [dim]
        inv = [perm.index(d) for d in range(n)]
        return lw.permute(lw.materialize(softmax(lw, lw.permute(x, perm), -1, log)), inv)
    if row_domain(x) is not None:
        x = lw.materialize(x)
    m = Reduce(x.shape[:-1] + (1,), "max", x)
    shifted = Binary(x.shape, "sub", x, m)
    e = Unary(x.shape, "exp", shifted)
    s = Reduce(m.shape, "sum", e)
    if log:
        return Binary(x.shape, "sub", shifted, Unary(s.shape, "log", s))
    return Binary(x.shape, "div", e, s)


@lowers("softmax", "log_softmax")
def _softmax(lw: Lowering, c: Call) -> Value:
    dim = c.get(1, "dim", None)
    if dim is None:
        raise Unsupported(f"{c.name} without dim")
    return softmax(lw, c.x, int(dim), log=c.name == "log_softmax")


@lowers_module("Softmax", "LogSoftmax")
def _softmax_module(lw: Lowering, m: ModuleCall) -> Value:
    dim = m.config.get("dim")
    if dim is None:
        raise Unsupported("Softmax without dim")
    return softmax(lw, m.x, dim, log=m.type == "LogSoftmax")


@lowers("logsumexp")
def _logsumexp(lw: Lowering, c: Call) -> Value:
    x = lw.expr(c.x)
    dims, keepdim = c.get(1, "dim", None), bool(c.get(2, "keepdim", False))
    n = len(x.shape)
    dims_l = dims if isinstance(dims, (list, tuple)) else [dims]
    if [int(d) % n for d in dims_l] != [n - 1]:
        raise Unsupported("logsumexp over a dim other than the last")
    if row_domain(x) is not None:
        x = lw.materialize(x)
    m = Reduce(x.shape[:-1] + (1,), "max", x)
    s = Reduce(m.shape, "sum", Unary(x.shape, "exp", Binary(x.shape, "sub", x, m)))
    out = Binary(m.shape, "add", m, Unary(m.shape, "log", s))
    return out if keepdim else Squeezed(out, x.shape[:-1])


@lowers("sum", "mean", "amax", "amin")
def _sum(lw: Lowering, c: Call) -> Value:
    dims = c.get(1, "dim", None)
    keep = bool(c.get(2, "keepdim", False))
    op = {"sum": "sum", "mean": "mean", "amax": "max", "amin": "min"}[c.name]
    if c.kw.get("dtype") not in (None, "torch.float32"):
        raise Unsupported(f"{c.name} with a dtype")
    return reduce(lw, op, c.x, dims, keep)


@lowers("max", "min")
def _max(lw: Lowering, c: Call) -> Value:
    other = c.args[1] if len(c.args) > 1 else c.kw.get("other", c.kw.get("dim"))
    if isinstance(other, (Expr, Squeezed)):
        return lw.binary("maximum" if c.name == "max" else "minimum", c.x, other, c.shape)
    if other is None:
        return reduce(lw, c.name, c.x, None, False)
    keep = bool(c.get(2, "keepdim", False))
    # torch.max(x, dim) returns (values, indices); only the values are supported.
    vals = reduce(lw, c.name, c.x, int(other), keep)
    return (vals, IndicesUnsupported())


@lowers("var", "std")
def _var(lw: Lowering, c: Call) -> Value:
    dims = c.get(1, "dim", None)
    keep = bool(c.kw.get("keepdim", False))
    corr = c.kw.get("correction")
    if corr is None:
        unbiased = c.kw.get("unbiased", True)
        corr = 1 if unbiased else 0
    xe = lw.expr(c.x)
    n = len(xe.shape)
    dl = dims if isinstance(dims, (list, tuple)) else [dims]
    if dims is None or [int(d) % n for d in dl] != [n - 1]:
        raise Unsupported(f"{c.name} over a dim other than the last")
    if row_domain(xe) is not None:
        xe = lw.materialize(xe)
    _, _, var = moments(xe, float(corr))
    out = Unary(var.shape, "sqrt", var) if c.name == "std" else var
    return out if keep else Squeezed(out, xe.shape[:-1])


def _vector_norm(lw: Lowering, x: Value, p: Any, dims: Any, keepdim: bool) -> Value:
    """torch.norm / linalg.vector_norm: the 2-norm (and 'fro'), the 1-norm and the max-norm over dims."""
    if p in (None, "fro", 2, 2.0):
        return lw.unary("sqrt", reduce(lw, "sum", lw.binary("mul", x, x), dims, keepdim))
    if p in (1, 1.0):
        return reduce(lw, "sum", lw.unary("abs", x), dims, keepdim)
    if p in ("inf", float("inf")):
        return reduce(lw, "max", lw.unary("abs", x), dims, keepdim)
    raise Unsupported(f"a norm with p={p!r}")


@lowers("norm", "linalg_vector_norm", "frobenius_norm")
def _norm(lw: Lowering, c: Call) -> Value:
    default_p = 2 if c.name != "norm" else "fro"
    p = c.args[1] if len(c.args) > 1 else c.kw.get("p", c.kw.get("ord", default_p))
    dims = c.get(2, "dim", None)
    if c.kw.get("dtype") not in (None, "torch.float32"):
        raise Unsupported(f"{c.name} with a dtype")
    return _vector_norm(lw, c.x, p, dims, bool(c.get(3, "keepdim", False)))


@lowers_module("AdaptiveAvgPool2d", "AdaptiveAvgPool1d")
def _adaptive_avg_pool(lw: Lowering, m: ModuleCall) -> Value:
    size = m.config.get("output_size")
    sizes = size if isinstance(size, list) else [size]
    if any(s != 1 for s in sizes):
        raise Unsupported(f"{m.type} to output size {size}")
    nd = 2 if m.type.endswith("2d") else 1
    xs = lw.shape_of(m.x)
    return reduce(lw, "mean", m.x, list(range(len(xs) - nd, len(xs))), True)
