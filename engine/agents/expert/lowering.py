"""Lower a task's fx graph (TaskSpec.graph) into the kernel IR (ir.Program).

Values flow lazily: a pointwise op does not produce a kernel, it builds an expression over loads of
buffers, so a chain of any length ends up in one fused stage. A value is materialized (written to a
temporary buffer by a stage of its own) only where it must be: as an operand of a matrix product, when a
view of it cannot be expressed by rewriting its loads, or when a reduction needs it over another domain.
Composite operators are decomposed into that vocabulary (softmax = exp(x - max) / sum, layer norm = two
row reductions and an affine map, batch norm in eval = a per-channel affine map ...).

Scalar constants of the module are baked into the expressions as literals: fx records them as literals,
and the contract fixes them for the task (the kernel still receives them, by the ABI, and ignores them).

Anything outside this vocabulary raises `Unsupported` with a sentence a person can read; the rules then
fall back to the PyTorch-level candidates and say why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from math import prod
from typing import Any

from contracts.task import GraphNode, TaskSpec
from engine.agents.expert import ops
from engine.agents.expert.ir import (
    Binary,
    Buffer,
    Const,
    ConvStage,
    Expr,
    FusedStage,
    GemmStage,
    Load,
    Program,
    Reduce,
    Select,
    Stage,
    Unary,
    View,
    children,
    contiguous_strides,
    reductions,
    stage_read_names,
    stage_writes,
    with_children,
)

# Reductions over at most this many elements are unrolled into the consuming expression (maxout over a
# group of 4, say) instead of getting a kernel of their own.
INLINE_REDUCE_MAX = 8


class Unsupported(Exception):
    """The graph uses something the generators cannot express; the message says what."""


class _CannotRewrite(Exception):
    pass


@dataclass(frozen=True)
class Squeezed:
    """A per-row reduction result whose reduced dim was dropped (keepdim=False).

    `expr` keeps the dim (shape [..., 1]) so it stays in its row domain; `shape` is the logical shape.
    """

    expr: Expr
    shape: tuple[int, ...]


Value = Any  # Expr | Squeezed | int | float | tuple | list | None


def _broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    n = max(len(a), len(b))
    a2 = (1,) * (n - len(a)) + tuple(a)
    b2 = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a2, b2):
        if x != y and x != 1 and y != 1:
            raise Unsupported(f"shapes {a} and {b} do not broadcast")
        out.append(max(x, y))
    return tuple(out)


def _broadcastable(small: tuple[int, ...], big: tuple[int, ...]) -> bool:
    if len(small) > len(big):
        return False
    return all(s in (1, b) for s, b in zip(reversed(small), reversed(big)))


def row_domain(e: Expr) -> tuple[int, ...] | None:
    """The (unique) domain [..., D] its reductions run over, or None without reductions."""
    doms = {r.x.shape for r in reductions(e)}
    if not doms:
        return None
    if len(doms) > 1:
        raise Unsupported(f"reductions over different domains {sorted(doms)} in one expression")
    return next(iter(doms))


def rewrite_views(e: Expr, full: tuple[int, ...], new_full: tuple[int, ...], f: Any) -> Expr:
    """Apply a view transform to every load of an elementwise expression (raises _CannotRewrite).

    Every load is first broadcast to `full` (the expression's shape), so the transform sees views of the
    same rank; elementwise ops commute with view ops, which is what makes this exact.
    """
    memo: dict[Expr, Expr] = {}

    def go(n: Expr) -> Expr:
        if n in memo:
            return memo[n]
        if isinstance(n, Const):
            out: Expr = n
        elif isinstance(n, Load):
            try:
                v = f(n.view.expand(full))
            except ValueError as err:
                raise _CannotRewrite(str(err)) from err
            if v is None:
                raise _CannotRewrite("view")
            out = Load(v.shape, v)
        elif isinstance(n, Reduce):
            raise _CannotRewrite("reduction")
        else:
            out = with_children(n, tuple(go(c) for c in children(n)), tuple(new_full))
        memo[n] = out
        return out

    return go(e)


@dataclass
class _Lowering:
    spec: TaskSpec
    buffers: dict[str, Buffer] = field(default_factory=dict)
    stages: list[Stage] = field(default_factory=list)
    values: dict[str, Value] = field(default_factory=dict)
    n_temp: int = 0
    n_inputs: int = 0
    # Convolutions become ConvStages (cuDNN calls) only where a library may be called (GPU programs);
    # elsewhere a convolution is outside what the generators express.
    convs: bool = False

    # --- buffers ------------------------------------------------------------------------------------------

    def arg_buffer(self, name: str, kind: str) -> Load:
        arg = next((a for a in self.spec.args if a.name == name), None)
        if arg is None or arg.tensor is None:
            raise Unsupported(f"the graph reads '{name}', which is not a tensor argument of the contract")
        if name not in self.buffers:
            self.buffers[name] = Buffer(name, tuple(arg.tensor.shape), arg.tensor.dtype, kind, arg.c_name)
        if arg.tensor.dtype != "float32":
            raise Unsupported(f"'{name}' is {arg.tensor.dtype}; the generators handle float32 tensors")
        shape = tuple(arg.tensor.shape)
        return Load(shape, View.contiguous(name, shape))

    def temp(self, shape: tuple[int, ...]) -> str:
        name = f"tmp{self.n_temp}"
        self.n_temp += 1
        self.buffers[name] = Buffer(name, tuple(shape), "float32", "temp", name)
        return name

    # --- expressions ----------------------------------------------------------------------------------------

    def expr(self, v: Value) -> Expr:
        if isinstance(v, Expr):
            return v
        if isinstance(v, Squeezed):
            return self.materialize(v)
        if isinstance(v, bool):
            return Const((), float(v))
        if isinstance(v, (int, float)):
            return Const((), float(v))
        raise Unsupported(f"expected a tensor, got {type(v).__name__} {v!r}")

    def materialize(self, v: Value) -> Load:
        """Write a value to a fresh temporary buffer (a stage of its own); a load of it."""
        if isinstance(v, Squeezed):
            name = self.temp(v.shape)
            self.add_stage([(name, v.expr)])
            return Load(v.shape, View.contiguous(name, v.shape))
        e = self.expr(v)
        name = self.temp(e.shape)
        self.add_stage([(name, e)])
        return Load(e.shape, View.contiguous(name, e.shape))

    def add_stage(self, outputs: list[tuple[str, Expr]]) -> None:
        dom = None
        for _, e in outputs:
            d = row_domain(e)
            if d is not None:
                dom = d
        if dom is None:
            domain = outputs[0][1].shape
            for _, e in outputs:
                if e.shape != domain:
                    raise Unsupported("outputs of different shapes in one flat stage")
        else:
            domain = dom
            row_scalar = dom[:-1] + (1,)
            for _, e in outputs:
                if e.shape not in (dom, row_scalar) and not _broadcastable(e.shape, row_scalar):
                    raise Unsupported(f"a row-reduction output of shape {e.shape} over domain {dom}")
        for name, e in outputs:
            want = prod(e.shape) if row_domain(e) is None or e.shape == domain else prod(domain[:-1])
            if self.buffers[name].numel != want:
                raise Unsupported(f"output {name} has {self.buffers[name].numel} elements, expression {want}")
        self.stages.append(FusedStage(tuple(domain), tuple(outputs)))

    def combine(self, a: Expr, b: Expr, shape: tuple[int, ...]) -> tuple[Expr, Expr]:
        """Make two operands fusable into one expression of `shape` (materializing one if needed)."""
        da, db = row_domain(a), row_domain(b)
        if da is not None and db is not None and da != db:
            b = self.materialize(b)
            db = None
        dom = da or db
        if dom is not None and not _broadcastable(shape, dom):
            if da is not None:
                a = self.materialize(a)
            if db is not None:
                b = self.materialize(b)
        return a, b

    def binary(self, op: str, x: Value, y: Value, shape: tuple[int, ...] | None = None) -> Value:
        if isinstance(x, Squeezed) or isinstance(y, Squeezed):
            return self.squeezed_binary(op, x, y)
        a, b = self.expr(x), self.expr(y)
        shape = tuple(shape) if shape is not None else _broadcast(a.shape, b.shape)
        a, b = self.combine(a, b, shape)
        if op == "rsub":
            op, a, b = "sub", b, a
        if op == "pow" and isinstance(b, Const):
            return self.pow_const(a, b.value, shape)
        return _fold(Binary(shape, op, a, b))

    def pow_const(self, a: Expr, p: float, shape: tuple[int, ...]) -> Expr:
        # ATen special-cases these exponents (x*x for 2, x*x*x for 3, sqrt for 0.5, ...): do the same.
        if p == 1:
            return a
        if p == 2:
            return Binary(shape, "mul", a, a)
        if p == 3:
            return Binary(shape, "mul", Binary(shape, "mul", a, a), a)
        if p == 0.5:
            return Unary(shape, "sqrt", a)
        if p == -0.5:
            return Unary(shape, "rsqrt", a)
        if p == -1:
            return Unary(shape, "reciprocal", a)
        if p == -2:
            return Unary(shape, "reciprocal", Binary(shape, "mul", a, a))
        if p == 0:
            return Binary(shape, "add", Binary(shape, "mul", a, Const((), 0.0)), Const((), 1.0))
        return Unary(shape, "powc", a, (float(p),))

    def squeezed_binary(self, op: str, x: Value, y: Value) -> Value:
        sq = x if isinstance(x, Squeezed) else y
        assert isinstance(sq, Squeezed)
        lifted = []
        for v in (x, y):
            if isinstance(v, Squeezed):
                if v.shape != sq.shape:
                    return self.binary(op, self.materialize(v) if v is sq else v,
                                       self.materialize(y) if v is y else y)
                lifted.append(v.expr)
                continue
            e = self.expr(v)
            if row_domain(e) is not None or not _broadcastable(e.shape, sq.shape):
                lifted = []
                break
            full = sq.shape
            try:
                lifted.append(rewrite_views(e, full, full + (1,), lambda w, full=full: w.reshape(full + (1,)))
                              if not isinstance(e, Const) else e)
            except _CannotRewrite:
                lifted = []
                break
        if len(lifted) != 2:
            xs = self.materialize(x) if isinstance(x, Squeezed) else x
            ys = self.materialize(y) if isinstance(y, Squeezed) else y
            return self.binary(op, xs, ys)
        a, b = lifted
        if op == "rsub":
            op, a, b = "sub", b, a
        return Squeezed(Binary(sq.expr.shape, op, a, b), sq.shape)

    def unary(self, op: str, x: Value, params: tuple[float, ...] = ()) -> Value:
        if isinstance(x, Squeezed):
            return Squeezed(Unary(x.expr.shape, op, x.expr, params), x.shape)
        e = self.expr(x)
        if op == "identity":
            return e
        return Unary(e.shape, op, e, params)

    # --- views ------------------------------------------------------------------------------------------------

    def view_op(self, v: Value, new_shape: tuple[int, ...], f: Any) -> Value:
        """Apply a view transform (View -> View | None) to a value; copy it first if it cannot be a view."""
        if isinstance(v, Squeezed):
            v = self.materialize(v)
        e = self.expr(v)
        if isinstance(e, Const):
            return e
        try:
            return rewrite_views(e, e.shape, tuple(new_shape), f)
        except _CannotRewrite:
            pass
        m = self.materialize(e)
        try:
            return rewrite_views(m, m.shape, tuple(new_shape), f)
        except _CannotRewrite:
            # A contiguous copy is always viewable by reshape/permute/slice; a transposed copy of a copy
            # is the only thing left, and it is materialized by the caller.
            raise Unsupported(f"a view to shape {new_shape} that cannot be expressed") from None

    def reshape(self, v: Value, shape: list[int]) -> Value:
        shape_t = self.infer_shape(v, shape)
        return self.view_op(v, shape_t, lambda w: w.reshape(shape_t))

    def shape_of(self, v: Value) -> tuple[int, ...]:
        if isinstance(v, (Expr, Squeezed)):
            return v.shape
        return ()

    def infer_shape(self, v: Value, shape: list[Any]) -> tuple[int, ...]:
        dims = [int(s) for s in shape]
        total = prod(self.shape_of(v))
        if -1 in dims:
            known = prod(d for d in dims if d != -1)
            dims[dims.index(-1)] = total // known if known else 0
        return tuple(dims)

    def permute(self, v: Value, perm: list[int]) -> Value:
        shape = self.shape_of(v)
        perm_t = tuple(p % len(shape) for p in perm)
        new = tuple(shape[p] for p in perm_t)
        return self.view_op(v, new, lambda w: w.permute(perm_t))

    def transpose(self, v: Value, d0: int, d1: int) -> Value:
        n = len(self.shape_of(v))
        if n < 2:
            return v
        perm = list(range(n))
        d0, d1 = d0 % n, d1 % n
        perm[d0], perm[d1] = perm[d1], perm[d0]
        return self.permute(v, perm)

    def getitem(self, v: Value, idx: Any) -> Value:
        if isinstance(v, (tuple, list)):
            return v[int(idx)]
        shape = self.shape_of(v)
        items = idx if isinstance(idx, (list, tuple)) else [idx]
        # Expand an Ellipsis into full slices.
        n_real = sum(1 for it in items if it is not None and it != "Ellipsis")
        expanded: list[Any] = []
        for it in items:
            if it == "Ellipsis":
                expanded += [slice(None)] * (len(shape) - n_real)
            else:
                expanded.append(it)
        ops_: list[tuple[str, Any]] = []
        dim = 0
        for it in expanded:
            if it is None:
                ops_.append(("unsqueeze", dim))
                dim += 1
            elif isinstance(it, slice):
                ops_.append(("slice", (dim, it)))
                dim += 1
            elif isinstance(it, int):
                ops_.append(("select", (dim, it)))
            else:
                raise Unsupported(f"indexing with {it!r}")
        out = v
        for kind, arg in ops_:
            cur = self.shape_of(out)
            if kind == "slice":
                d, s = arg
                start, stop, step = s.indices(cur[d])
                new = list(cur)
                new[d] = len(range(start, stop, step))
                out = self.view_op(out, tuple(new), lambda w, d=d, a=start, b=stop, c=step: w.slice(d, a, b, c))
            elif kind == "select":
                d, i = arg
                new = cur[:d] + cur[d + 1:]
                out = self.view_op(out, new, lambda w, d=d, i=i: w.select(d, i))
            else:
                d = arg
                new = cur[:d] + (1,) + cur[d:]
                out = self.view_op(out, new, lambda w, new=new: w.reshape(new))
        return out

    # --- reductions ---------------------------------------------------------------------------------------------

    def reduce(self, op: str, v: Value, dims: Any, keepdim: bool, out_shape: tuple[int, ...] | None = None
               ) -> Value:
        """op over `dims` (sum | max | min | mean); keepdim as torch."""
        if isinstance(v, Squeezed):
            v = self.materialize(v)
        x = self.expr(v)
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
                out: Expr = self.inline_reduce(base, x)
            else:
                if row_domain(x) is not None and row_domain(x) != x.shape:
                    x = self.materialize(x)
                out = Reduce(keep_shape, base, x)
            if op == "mean":
                out = Binary(out.shape, "div", out, Const((), float(count)))
            if keepdim:
                return out
            return Squeezed(out, drop_shape) if isinstance(out, Expr) and reductions(out) else \
                self.view_op(out, drop_shape, lambda w: w.reshape(drop_shape))
        if (n - 1) in dims_t and not self.viewable(x, (prod(x.shape[d] for d in range(n) if d not in dims_t), count)):
            # The reduced dims do not merge into one row without a copy (a broadcast operand, say): reduce
            # the last dim first (one row kernel over the expression as it is), then the rest of the dims
            # of that much smaller result, instead of writing the whole expression to memory.
            inner = self.reduce(base, x, [n - 1], True)
            out_v = self.reduce(base, inner, [d for d in dims_t if d != n - 1], keepdim)
            return self.binary("div", out_v, float(count)) if op == "mean" else out_v
        # Other dims: move them last, merge them, reduce in a stage of its own, view the result.
        kept = [d for d in range(n) if d not in dims_t]
        perm = kept + list(dims_t)
        moved = self.permute(x, perm) if perm != list(range(n)) else x
        lead = tuple(x.shape[d] for d in kept)
        merged = self.view_op(moved, lead + (count,), lambda w: w.reshape(lead + (count,)))
        merged_e = self.expr(merged)
        if row_domain(merged_e) is not None:
            merged_e = self.materialize(merged_e)
        red: Expr = Reduce(lead + (1,), base, merged_e)
        if op == "mean":
            red = Binary(red.shape, "div", red, Const((), float(count)))
        name = self.temp(lead + (1,))
        self.add_stage([(name, red)])
        final = keep_shape if keepdim else drop_shape
        return Load(final, View.contiguous(name, final))

    def viewable(self, v: Value, shape: tuple[int, ...]) -> bool:
        """Whether v reshaped to `shape` is a rewrite of its loads (no copy)."""
        e = self.expr(v)
        if prod(e.shape) != prod(shape):
            return False
        try:
            rewrite_views(e, e.shape, shape, lambda w: w.reshape(shape))
        except _CannotRewrite:
            return False
        return True

    def norm(self, x: Value, p: Any, dims: Any, keepdim: bool) -> Value:
        """torch.norm / linalg.vector_norm: the 2-norm (and 'fro'), the 1-norm and the max-norm over dims."""
        if p in (None, "fro", 2, 2.0):
            return self.unary("sqrt", self.reduce("sum", self.binary("mul", x, x), dims, keepdim))
        if p in (1, 1.0):
            return self.reduce("sum", self.unary("abs", x), dims, keepdim)
        if p in ("inf", float("inf")):
            return self.reduce("max", self.unary("abs", x), dims, keepdim)
        raise Unsupported(f"a norm with p={p!r}")

    def inline_reduce(self, op: str, x: Expr) -> Expr:
        parts = []
        shape = x.shape[:-1] + (1,)
        for j in range(x.shape[-1]):
            parts.append(rewrite_views(x, x.shape, shape, lambda w, j=j: w.slice(len(w.shape) - 1, j, j + 1)))
        comb = {"sum": "add", "max": "maximum", "min": "minimum"}[op]
        acc = parts[0]
        for p in parts[1:]:
            acc = Binary(shape, comb, acc, p)
        return acc

    def softmax(self, v: Value, dim: int, log: bool = False) -> Value:
        x = self.expr(v)
        n = len(x.shape)
        dim = dim % n
        if dim != n - 1:
            perm = [d for d in range(n) if d != dim] + [dim]
            inv = [perm.index(d) for d in range(n)]
            return self.permute(self.materialize(self.softmax(self.permute(x, perm), -1, log)), inv)
        if row_domain(x) is not None:
            x = self.materialize(x)
        m = Reduce(x.shape[:-1] + (1,), "max", x)
        shifted = Binary(x.shape, "sub", x, m)
        e = Unary(x.shape, "exp", shifted)
        s = Reduce(m.shape, "sum", e)
        if log:
            return Binary(x.shape, "sub", shifted, Unary(s.shape, "log", s))
        return Binary(x.shape, "div", e, s)

    def logsumexp(self, v: Value, dims: Any, keepdim: bool) -> Value:
        x = self.expr(v)
        n = len(x.shape)
        dims_l = dims if isinstance(dims, (list, tuple)) else [dims]
        if [int(d) % n for d in dims_l] != [n - 1]:
            raise Unsupported("logsumexp over a dim other than the last")
        if row_domain(x) is not None:
            x = self.materialize(x)
        m = Reduce(x.shape[:-1] + (1,), "max", x)
        s = Reduce(m.shape, "sum", Unary(x.shape, "exp", Binary(x.shape, "sub", x, m)))
        out = Binary(m.shape, "add", m, Unary(m.shape, "log", s))
        return out if keepdim else Squeezed(out, x.shape[:-1])

    def moments(self, x: Expr, correction: float = 0.0) -> tuple[Expr, Expr, Expr]:
        """(mean, centered x, variance) over the last dim, two-pass as ATen's layer norm is exact."""
        d = x.shape[-1]
        rs = x.shape[:-1] + (1,)
        mean = Binary(rs, "div", Reduce(rs, "sum", x), Const((), float(d)))
        xc = Binary(x.shape, "sub", x, mean)
        var = Binary(rs, "div", Reduce(rs, "sum", Binary(x.shape, "mul", xc, xc)), Const((), float(d - correction)))
        return mean, xc, var

    def layer_norm(self, v: Value, normalized: tuple[int, ...], weight: Value, bias: Value, eps: float) -> Value:
        x = self.expr(v)
        k = len(normalized)
        if tuple(x.shape[-k:]) != tuple(normalized):
            raise Unsupported(f"layer_norm over {normalized} of a {x.shape} tensor")
        d = prod(normalized)
        lead = x.shape[:-k]
        if k > 1:
            x = self.expr(self.view_op(x, lead + (d,), lambda w: w.reshape(lead + (d,))))
        if row_domain(x) is not None:
            x = self.materialize(x)
        _, xc, var = self.moments(x)
        rstd = Unary(var.shape, "rsqrt", Binary(var.shape, "add", var, Const((), float(eps))))
        y: Expr = Binary(x.shape, "mul", xc, rstd)
        if weight is not None:
            w = self.expr(self.view_op(weight, (d,), lambda wv: wv.reshape((d,))))
            y = Binary(x.shape, "mul", y, w)
        if bias is not None:
            b = self.expr(self.view_op(bias, (d,), lambda wv: wv.reshape((d,))))
            y = Binary(x.shape, "add", y, b)
        if k > 1:
            return self.view_op(y, lead + tuple(normalized), lambda w: w.reshape(lead + tuple(normalized)))
        return y

    def group_norm(self, v: Value, groups: int, weight: Value, bias: Value, eps: float) -> Value:
        """GroupNorm (InstanceNorm is the case of one channel per group) over (N, C, *spatial).

        Two stages, two reads of x: a row kernel over (N, G, C/G * spatial) writes each group's mean and
        1/std (online statistics when the row is streamed), then one pointwise pass over the domain
        (N, G, C/G, spatial) normalizes and applies the per-channel affine map; that domain's contiguous
        order is the output's, and in it the group statistics and the channel parameters are plain
        broadcast views.
        """
        x = self.expr(v)
        if len(x.shape) < 2 or x.shape[1] % groups:
            raise Unsupported(f"group norm of a {x.shape} tensor into {groups} groups")
        n, c = x.shape[0], x.shape[1]
        cg, rest = c // groups, prod(x.shape[2:])
        if row_domain(x) is not None:
            x = self.materialize(x)
        rows = self.expr(self.view_op(x, (n, groups, cg * rest), lambda w: w.reshape((n, groups, cg * rest))))
        if row_domain(rows) is not None:
            rows = self.materialize(rows)
        mean, _, var = self.moments(rows)
        rstd = Unary(var.shape, "rsqrt", Binary(var.shape, "add", var, Const((), float(eps))))
        m_name, r_name = self.temp((n, groups, 1)), self.temp((n, groups, 1))
        self.add_stage([(m_name, mean), (r_name, rstd)])
        spatial = (rest,) if rest > 1 else ()  # no trailing 1: the last dim is what the kernel vectorizes
        dom = (n, groups, cg, *spatial)
        x4 = self.expr(self.view_op(x, dom, lambda w: w.reshape(dom)))
        stat = (n, groups, 1, *(1,) * len(spatial))
        y: Expr = Binary(dom, "mul", Binary(dom, "sub", x4, Load(stat, View.contiguous(m_name, stat))),
                         Load(stat, View.contiguous(r_name, stat)))
        chan = (groups, cg, *(1,) * len(spatial))
        for op, p in (("mul", weight), ("add", bias)):
            if p is not None:
                y = Binary(dom, op, y, self.expr(self.view_op(p, chan, lambda w: w.reshape(chan))))
        out = self.temp(x.shape)
        self.add_stage([(out, y)])
        return Load(x.shape, View.contiguous(out, x.shape))

    def batch_norm_eval(self, v: Value, mean: Value, var: Value, weight: Value, bias: Value, eps: float) -> Value:
        x = self.expr(v)
        if len(x.shape) < 2:
            raise Unsupported("batch_norm of a tensor with fewer than 2 dims")
        c = x.shape[1]
        per_channel = (c,) + (1,) * (len(x.shape) - 2)

        def chan(p: Value) -> Expr:
            return self.expr(self.view_op(p, per_channel, lambda w: w.reshape(per_channel)))

        # ATen (eval): (x - mean) * (1 / sqrt(var + eps)) * weight + bias
        invstd = Unary(per_channel, "rsqrt", Binary(per_channel, "add", chan(var), Const((), float(eps))))
        y: Expr = Binary(x.shape, "mul", Binary(x.shape, "sub", x, chan(mean)), invstd)
        if weight is not None:
            y = Binary(x.shape, "mul", y, chan(weight))
        if bias is not None:
            y = Binary(x.shape, "add", y, chan(bias))
        return y

    # --- matrix products ----------------------------------------------------------------------------------------

    def gemm_operand(self, v: Value) -> View:
        """A view cuBLAS can read (unit stride in one of the last two dims), materializing if needed."""
        e = self.expr(v)
        if isinstance(e, Load) and _gemm_ok(e.view):
            return e.view
        m = self.materialize(e)
        return m.view

    def matmul(self, x: Value, y: Value, out_shape: tuple[int, ...]) -> Expr:
        a_e, b_e = self.expr(x), self.expr(y)
        if len(a_e.shape) < 2 or len(b_e.shape) < 2:
            raise Unsupported("matmul with a 1-D operand")
        a, b = self.gemm_operand(a_e), self.gemm_operand(b_e)
        m, k = a.shape[-2], a.shape[-1]
        k2, n = b.shape[-2], b.shape[-1]
        if k != k2:
            raise Unsupported(f"matmul of {a.shape} and {b.shape}")
        # Fold a's leading dims into M when b has none (x @ W for a batch of rows).
        if len(b.shape) == 2 and len(a.shape) > 2:
            rows = prod(a.shape[:-1])
            folded = a.reshape((rows, k))
            if folded is None:
                a = self.materialize(Load(a.shape, a)).view.reshape((rows, k))  # type: ignore[assignment]
                assert a is not None
            else:
                a = folded
            name = self.temp((rows, n))
            self.stages.append(GemmStage(a, b, name, rows, n, k))
            return Load(tuple(out_shape), View.contiguous(name, tuple(out_shape)))
        batch = _broadcast(a.shape[:-2], b.shape[:-2])
        a = a.expand(batch + (m, k))
        b = b.expand(batch + (k, n))
        a, b, batch = _fold_batch(a, b, batch)
        name = self.temp(batch + (m, n))
        self.stages.append(GemmStage(a, b, name, m, n, k, batch))
        return Load(tuple(out_shape), View.contiguous(name, tuple(out_shape)))

    def linear(self, x: Value, weight: Value, bias: Value | None, out_shape: tuple[int, ...]) -> Value:
        w = self.expr(weight)
        if len(w.shape) != 2:
            raise Unsupported("linear with a weight that is not 2-D")
        wt = self.transpose(w, 0, 1)
        y = self.matmul(x, wt, out_shape)
        if bias is None:
            return y
        return self.binary("add", y, bias, out_shape)

    # --- nodes ----------------------------------------------------------------------------------------------------

    def arg(self, a: Any) -> Value:
        if isinstance(a, dict) and set(a) == {"node"}:
            if a["node"] not in self.values:
                raise Unsupported(f"node {a['node']} has no value")
            return self.values[a["node"]]
        if isinstance(a, list):
            return [self.arg(x) for x in a]
        if isinstance(a, str):
            m = re.fullmatch(r"slice\((.*), (.*), (.*)\)", a)
            if m:
                parts = [None if p == "None" else int(p) for p in m.groups()]
                return slice(*parts)
            if a == "Ellipsis":
                return a
            return a
        return a

    def node(self, n: GraphNode) -> Value:
        args = [self.arg(a) for a in n.args]
        kwargs = {k: self.arg(v) for k, v in n.kwargs.items()}
        shape = tuple(n.shape) if n.shape is not None else None
        if n.op == "placeholder":
            # Placeholders come in the forward's parameter order, which is the contract's input order.
            # (get_inputs() entries, tensors and numbers alike, are the contract's first arguments).
            idx = self.n_inputs
            self.n_inputs += 1
            if idx >= len(self.spec.args) or self.spec.args[idx].role not in ("input", "scalar"):
                raise Unsupported(f"placeholder {n.name} has no matching input")
            if self.spec.args[idx].tensor is None:
                raise Unsupported(f"the forward takes a Python number ({self.spec.args[idx].name}) as an input")
            return self.arg_buffer(self.spec.args[idx].name, "input")
        if n.op == "get_attr":
            arg = next((a for a in self.spec.args if a.name == n.target), None)
            kind = arg.role if arg is not None else "parameter"
            return self.arg_buffer(n.target, "param" if kind == "parameter" else kind)
        if n.op == "call_module":
            return self.module(n, args, kwargs, shape)
        if n.op in ("call_function", "call_method"):
            return self.function(n.target, args, kwargs, shape, n.op == "call_method")
        raise Unsupported(f"fx op {n.op}")

    def param(self, module: str, name: str) -> Value | None:
        q = f"{module}.{name}"
        if any(a.name == q for a in self.spec.args):
            return self.arg_buffer(q, "param")
        return None

    def module(self, n: GraphNode, args: list[Any], kwargs: dict[str, Any], shape: Any) -> Value:
        mtype, mname = n.target.split(":", 1)
        cfg = n.config
        x = args[0] if args else None
        if mtype == "Linear":
            return self.linear(x, self.param(mname, "weight"), self.param(mname, "bias"), shape)
        if mtype in ops.ACTIVATION_MODULES:
            op, keys = ops.ACTIVATION_MODULES[mtype]
            if mtype == "GELU" and cfg.get("approximate") == "tanh":
                op = "gelu_tanh"
            return self.unary(op, x, tuple(float(cfg[k]) for k in keys if k in cfg))
        if mtype in ("Dropout", "Dropout1d", "Dropout2d", "AlphaDropout", "Identity"):
            return x
        if mtype == "Flatten":
            return self.flatten(x, cfg.get("start_dim", 1), cfg.get("end_dim", -1))
        if mtype in ("Softmax", "LogSoftmax"):
            dim = cfg.get("dim")
            if dim is None:
                raise Unsupported("Softmax without dim")
            return self.softmax(x, dim, log=mtype == "LogSoftmax")
        if mtype == "LayerNorm":
            return self.layer_norm(x, tuple(cfg["normalized_shape"]), self.param(mname, "weight"),
                                   self.param(mname, "bias"), cfg.get("eps", 1e-5))
        if mtype == "RMSNorm":
            return self.rms_norm(x, tuple(cfg["normalized_shape"]), self.param(mname, "weight"), cfg.get("eps"))
        if mtype.startswith("BatchNorm"):
            if not cfg.get("track_running_stats", True):
                raise Unsupported("BatchNorm without running statistics (batch statistics in eval)")
            return self.batch_norm_eval(x, self.param_or_buffer(mname, "running_mean"),
                                        self.param_or_buffer(mname, "running_var"), self.param(mname, "weight"),
                                        self.param(mname, "bias"), cfg.get("eps", 1e-5))
        if mtype == "GroupNorm":
            return self.group_norm(x, int(cfg["num_groups"]), self.param(mname, "weight"), self.param(mname, "bias"),
                                   cfg.get("eps", 1e-5))
        if mtype.startswith("InstanceNorm"):
            if cfg.get("track_running_stats"):
                raise Unsupported(f"{mtype} with running statistics")
            return self.group_norm(x, self.shape_of(x)[1], self.param(mname, "weight"), self.param(mname, "bias"),
                                   cfg.get("eps", 1e-5))
        if mtype in ("AdaptiveAvgPool2d", "AdaptiveAvgPool1d"):
            size = cfg.get("output_size")
            sizes = size if isinstance(size, list) else [size]
            if any(s != 1 for s in sizes):
                raise Unsupported(f"{mtype} to output size {size}")
            nd = 2 if mtype.endswith("2d") else 1
            xs = self.shape_of(x)
            return self.reduce("mean", x, list(range(len(xs) - nd, len(xs))), True)
        if mtype in ops.CONV_MODULES:
            self.require_convs(mtype)
            if mtype != "Conv2d" or cfg.get("transposed"):
                raise Unsupported(f"a {mtype}: the cuDNN stage covers Conv2d only")
            if cfg.get("padding_mode", "zeros") != "zeros":
                raise Unsupported(f"a Conv2d with padding_mode={cfg.get('padding_mode')!r}: the cuDNN stage pads "
                                  "with zeros only")
            weight = self.param(mname, "weight")
            if weight is None:
                raise Unsupported(f"the weight of {mname} is not an argument of the contract (tied or computed)")
            return self.conv2d(x, weight, self.param(mname, "bias"), cfg.get("stride", 1),
                               cfg.get("padding", 0), cfg.get("dilation", 1), cfg.get("groups", 1), shape, mtype)
        raise Unsupported(f"the module {mtype}")

    def whole_buffer(self, v: Value) -> str:
        """The name of a buffer that holds exactly v, contiguous (a library reads whole buffers), materializing
        v into a temporary when it is a view or an expression."""
        e = self.expr(v)
        if isinstance(e, Load) and e.view.offset == 0 and e.view.is_contiguous() and e.view.shape == e.shape \
                and self.buffers[e.view.buffer].numel == e.view.numel:
            return e.view.buffer
        return self.materialize(e).view.buffer

    def require_convs(self, what: str) -> None:
        if not self.convs:
            raise Unsupported(f"a convolution ({what}); the pure-CUDA generators have no convolution")

    def conv2d(self, x: Value, weight: Value, bias: Value | None, stride: Any, padding: Any, dilation: Any,
               groups: Any, shape: Any, what: str = "conv2d") -> Value:
        self.require_convs(what)

        def pair(v: Any) -> tuple[int, int]:
            v = list(v) if isinstance(v, (list, tuple)) else [v, v]
            return (int(v[0]), int(v[-1]))

        if padding == "valid":
            padding = 0
        if isinstance(padding, str):
            raise Unsupported(f"{what} with padding={padding!r}")
        xs, ws = self.shape_of(x), self.shape_of(weight)
        if len(xs) != 4 or len(ws) != 4:
            raise Unsupported(f"{what} of a {len(xs)}-D input (the cuDNN stage takes N, C, H, W)")
        st = ConvStage(self.whole_buffer(x), self.whole_buffer(weight), "", xs[0], xs[1], xs[2], xs[3], ws[0],
                       ws[2], ws[3], pair(stride), pair(padding), pair(dilation), int(groups))
        if xs[1] != ws[1] * st.groups or (shape is not None and tuple(shape) != st.out_shape):
            raise Unsupported(f"{what} of {xs} with weight {ws}: shapes do not agree with {shape}")
        out = self.temp(st.out_shape)
        self.stages.append(replace(st, out=out))
        y: Value = Load(st.out_shape, View.contiguous(out, st.out_shape))
        if bias is not None:
            y = self.binary("add", y, self.reshape(bias, [st.k, 1, 1]), st.out_shape)
        return y

    def param_or_buffer(self, module: str, name: str) -> Value:
        q = f"{module}.{name}"
        arg = next((a for a in self.spec.args if a.name == q), None)
        if arg is None:
            raise Unsupported(f"{q} is not an argument")
        return self.arg_buffer(q, "param" if arg.role == "parameter" else "buffer")

    def rms_norm(self, v: Value, normalized: tuple[int, ...], weight: Value, eps: Any) -> Value:
        x = self.expr(v)
        if len(normalized) != 1 or x.shape[-1] != normalized[0]:
            raise Unsupported("RMS norm over more than the last dim")
        if row_domain(x) is not None:
            x = self.materialize(x)
        rs = x.shape[:-1] + (1,)
        ms = Binary(rs, "div", Reduce(rs, "sum", Binary(x.shape, "mul", x, x)), Const((), float(x.shape[-1])))
        e = float(eps) if eps is not None else 1.1920928955078125e-07  # torch: finfo(float32).eps
        y: Expr = Binary(x.shape, "mul", x, Unary(rs, "rsqrt", Binary(rs, "add", ms, Const((), e))))
        if weight is not None:
            y = Binary(x.shape, "mul", y, self.expr(weight))
        return y

    def flatten(self, x: Value, start: int = 0, end: int = -1) -> Value:
        shape = self.shape_of(x)
        if not shape:
            return self.reshape(x, [1])
        n = len(shape)
        s, e = start % n, end % n
        new = list(shape[:s]) + [prod(shape[s:e + 1])] + list(shape[e + 1:])
        return self.reshape(x, new)

    def function(self, name: str, args: list[Any], kw: dict[str, Any], shape: Any, method: bool) -> Value:
        x = args[0] if args else kw.get("input")
        # --- integer bookkeeping
        if name == "size":
            s = self.shape_of(x)
            d = args[1] if len(args) > 1 else kw.get("dim")
            return s[int(d)] if d is not None else tuple(s)
        if name == "dim":
            return len(self.shape_of(x))
        if name == "numel":
            return prod(self.shape_of(x))
        if name == "getattr":
            attr = args[1]
            if attr == "shape":
                return tuple(self.shape_of(x))
            if attr in ("T", "mT"):
                n = len(self.shape_of(x))
                return self.permute(x, list(reversed(range(n)))) if attr == "T" else self.transpose(x, -2, -1)
            if attr == "dtype":
                return "float32"
            raise Unsupported(f"attribute .{attr}")
        if all(isinstance(a, (int, float)) for a in args[:2]) and len(args) == 2 and name in (
                "add", "sub", "mul", "floordiv", "truediv", "mod"):
            a, b = args
            return {"add": a + b, "sub": a - b, "mul": a * b, "floordiv": a // b if b else 0,
                    "truediv": a / b if b else 0, "mod": a % b if b else 0}[name]
        # --- views and data movement
        if name in ("view", "reshape"):
            dims = args[1:] if len(args) > 2 or not isinstance(args[1], (list, tuple)) else args[1]
            return self.reshape(x, list(dims))
        if name in ("view_as", "reshape_as"):
            return self.reshape(x, list(self.shape_of(args[1])))
        if name == "flatten":
            return self.flatten(x, args[1] if len(args) > 1 else kw.get("start_dim", 0),
                                args[2] if len(args) > 2 else kw.get("end_dim", -1))
        if name == "unsqueeze":
            d = int(args[1] if len(args) > 1 else kw["dim"])
            s = self.shape_of(x)
            d = d % (len(s) + 1)
            return self.reshape(x, list(s[:d]) + [1] + list(s[d:]))
        if name == "squeeze":
            s = self.shape_of(x)
            d = args[1] if len(args) > 1 else kw.get("dim")
            if d is None:
                return self.reshape(x, [n for n in s if n != 1])
            dl = [int(i) % len(s) for i in (d if isinstance(d, (list, tuple)) else [d])]
            return self.reshape(x, [n for i, n in enumerate(s) if not (i in dl and n == 1)])
        if name == "permute":
            perm = args[1:] if len(args) > 2 or not isinstance(args[1], (list, tuple)) else args[1]
            return self.permute(x, [int(p) for p in perm])
        if name == "transpose":
            return self.transpose(x, int(args[1]), int(args[2]))
        if name == "t":
            return self.transpose(x, 0, 1)
        if name in ("contiguous", "clone", "detach", "float", "type_as"):
            return x
        if name == "to":
            rest = [a for a in args[1:] if a not in ("float32", "torch.float32")]
            if rest or any(k not in ("dtype", "copy", "non_blocking") for k in kw):
                raise Unsupported("a .to() that changes device or dtype")
            return x
        if name in ("expand", "expand_as"):
            target = self.shape_of(args[1]) if name == "expand_as" else tuple(
                args[1:] if len(args) > 2 or not isinstance(args[1], (list, tuple)) else args[1])
            s = self.shape_of(x)
            target = tuple(s[i - (len(target) - len(s))] if t == -1 else t for i, t in enumerate(target))
            return self.view_op(x, target, lambda w: w.expand(target))
        if name == "getitem":
            return self.getitem(x, args[1])
        if name in ("chunk", "split"):
            dim = int(args[2] if len(args) > 2 else kw.get("dim", 0))
            s = self.shape_of(x)
            dim %= len(s)
            if name == "chunk":
                n = int(args[1])
                size = -(-s[dim] // n)
            else:
                size = args[1]
                if isinstance(size, (list, tuple)):
                    raise Unsupported("split with a list of sizes")
                size = int(size)
            parts = []
            for start in range(0, s[dim], size):
                stop = min(start + size, s[dim])
                new = list(s)
                new[dim] = stop - start
                parts.append(self.view_op(x, tuple(new), lambda w, a=start, b=stop: w.slice(dim, a, b)))
            return tuple(parts)
        if name == "narrow":
            dim, start, length = int(args[1]), int(args[2]), int(args[3])
            s = self.shape_of(x)
            dim %= len(s)
            new = list(s)
            new[dim] = length
            return self.view_op(x, tuple(new), lambda w: w.slice(dim, start, start + length))
        # --- matrix products
        if name in ("matmul", "mm", "bmm"):
            return self.matmul(args[0], args[1], shape)
        if name == "linear":
            w = args[1] if len(args) > 1 else kw["weight"]
            b = args[2] if len(args) > 2 else kw.get("bias")
            return self.linear(x, w, b, shape)
        if name == "addmm":
            bias, a, b = args[0], args[1], args[2]
            beta, alpha = float(kw.get("beta", 1)), float(kw.get("alpha", 1))
            prod_ = self.matmul(a, b, shape)
            term: Value = prod_ if alpha == 1 else self.binary("mul", prod_, alpha, shape)
            bterm = bias if beta == 1 else self.binary("mul", bias, beta)
            return self.binary("add", term, bterm, shape)
        # --- reductions and normalizations
        if name in ("softmax", "log_softmax"):
            dim = args[1] if len(args) > 1 else kw.get("dim")
            if dim is None:
                raise Unsupported(f"{name} without dim")
            return self.softmax(x, int(dim), log=name == "log_softmax")
        if name in ("sum", "mean", "amax", "amin"):
            dims = args[1] if len(args) > 1 else kw.get("dim")
            keep = bool(args[2] if len(args) > 2 else kw.get("keepdim", False))
            op = {"sum": "sum", "mean": "mean", "amax": "max", "amin": "min"}[name]
            if kw.get("dtype") not in (None, "torch.float32"):
                raise Unsupported(f"{name} with a dtype")
            return self.reduce(op, x, dims, keep)
        if name in ("max", "min"):
            other = args[1] if len(args) > 1 else kw.get("other", kw.get("dim"))
            if isinstance(other, (Expr, Squeezed)):
                return self.binary("maximum" if name == "max" else "minimum", x, other, shape)
            if other is None:
                return self.reduce(name, x, None, False)
            keep = bool(args[2] if len(args) > 2 else kw.get("keepdim", False))
            # torch.max(x, dim) returns (values, indices); only the values are supported.
            vals = self.reduce(name, x, int(other), keep)
            return (vals, _IndicesUnsupported())
        if name in ("var", "std"):
            dims = args[1] if len(args) > 1 else kw.get("dim")
            keep = bool(kw.get("keepdim", False))
            corr = kw.get("correction")
            if corr is None:
                unbiased = kw.get("unbiased", True)
                corr = 1 if unbiased else 0
            xe = self.expr(x)
            n = len(xe.shape)
            dl = dims if isinstance(dims, (list, tuple)) else [dims]
            if dims is None or [int(d) % n for d in dl] != [n - 1]:
                raise Unsupported(f"{name} over a dim other than the last")
            if row_domain(xe) is not None:
                xe = self.materialize(xe)
            _, _, var = self.moments(xe, float(corr))
            out = Unary(var.shape, "sqrt", var) if name == "std" else var
            return out if keep else Squeezed(out, xe.shape[:-1])
        if name in ("norm", "linalg_vector_norm", "frobenius_norm"):
            default_p = 2 if name != "norm" else "fro"
            p = args[1] if len(args) > 1 else kw.get("p", kw.get("ord", default_p))
            dims = args[2] if len(args) > 2 else kw.get("dim")
            if kw.get("dtype") not in (None, "torch.float32"):
                raise Unsupported(f"{name} with a dtype")
            return self.norm(x, p, dims, bool(args[3] if len(args) > 3 else kw.get("keepdim", False)))
        if name == "logsumexp":
            return self.logsumexp(x, args[1] if len(args) > 1 else kw.get("dim"),
                                  bool(args[2] if len(args) > 2 else kw.get("keepdim", False)))
        if name == "layer_norm":
            normalized = args[1] if len(args) > 1 else kw["normalized_shape"]
            w = args[2] if len(args) > 2 else kw.get("weight")
            b = args[3] if len(args) > 3 else kw.get("bias")
            eps = args[4] if len(args) > 4 else kw.get("eps", 1e-5)
            return self.layer_norm(x, tuple(normalized if isinstance(normalized, (list, tuple)) else [normalized]),
                                   w, b, eps)
        if name == "rms_norm":
            normalized = args[1] if len(args) > 1 else kw["normalized_shape"]
            return self.rms_norm(x, tuple(normalized), args[2] if len(args) > 2 else kw.get("weight"),
                                 args[3] if len(args) > 3 else kw.get("eps"))
        if name == "batch_norm":
            names = ["input", "running_mean", "running_var", "weight", "bias", "training", "momentum", "eps"]
            vals = dict(zip(names, args))
            vals.update(kw)
            if vals.get("training"):
                raise Unsupported("batch_norm in training mode")
            if vals.get("running_mean") is None:
                raise Unsupported("batch_norm without running statistics")
            return self.batch_norm_eval(x, vals["running_mean"], vals["running_var"], vals.get("weight"),
                                        vals.get("bias"), vals.get("eps", 1e-5))
        if name in ("group_norm", "instance_norm"):
            get = lambda i, key, default: args[i] if len(args) > i else kw.get(key, default)  # noqa: E731
            if name == "group_norm":
                return self.group_norm(x, int(get(1, "num_groups", 1)), get(2, "weight", None), get(3, "bias", None),
                                       get(4, "eps", 1e-5))
            if get(5, "use_input_stats", True) is False:
                raise Unsupported("instance_norm with running statistics")
            return self.group_norm(x, self.shape_of(x)[1], get(3, "weight", None), get(4, "bias", None),
                                   get(7, "eps", 1e-5))
        if name == "normalize":
            p = float(args[1] if len(args) > 1 else kw.get("p", 2.0))
            dim = int(args[2] if len(args) > 2 else kw.get("dim", 1))
            eps = float(args[3] if len(args) > 3 else kw.get("eps", 1e-12))
            xe = self.expr(x)
            if p != 2.0 or dim % len(xe.shape) != len(xe.shape) - 1:
                raise Unsupported("normalize other than the L2 norm over the last dim")
            if row_domain(xe) is not None:
                xe = self.materialize(xe)
            rs = xe.shape[:-1] + (1,)
            norm = Unary(rs, "sqrt", Reduce(rs, "sum", Binary(xe.shape, "mul", xe, xe)))
            return Binary(xe.shape, "div", xe, Binary(rs, "maximum", norm, Const((), eps)))
        # --- pointwise
        if name in ("dropout", "alpha_dropout", "feature_alpha_dropout"):
            training = kw.get("training", args[2] if len(args) > 2 else True)
            p = kw.get("p", args[1] if len(args) > 1 else 0.5)
            if training and p:
                raise Unsupported("dropout in training mode")
            return x
        if name in ops.CLAMP_NAMES:
            lo = args[1] if len(args) > 1 else kw.get("min")
            hi = args[2] if len(args) > 2 else kw.get("max")
            if name == "clamp_min":
                lo, hi = args[1] if len(args) > 1 else kw.get("min"), None
            if name == "clamp_max":
                lo, hi = None, args[1] if len(args) > 1 else kw.get("max")
            out = x
            if isinstance(lo, (Expr, Squeezed)) or isinstance(hi, (Expr, Squeezed)):
                if lo is not None:
                    out = self.binary("maximum", out, lo)
                if hi is not None:
                    out = self.binary("minimum", out, hi)
                return out
            if lo is not None and hi is not None:
                return self.unary("clamp", x, (float(lo), float(hi)))
            if lo is not None:
                return self.unary("clamp_min", x, (float(lo),))
            if hi is not None:
                return self.unary("clamp_max", x, (float(hi),))
            return x
        if name == "where":
            if len(args) != 3:
                raise Unsupported("where with one argument")
            c, a, b = (self.expr(v) for v in args)
            shp = tuple(shape) if shape is not None else _broadcast(_broadcast(c.shape, a.shape), b.shape)
            if any(row_domain(e) is not None for e in (c, a, b)):
                c, a, b = (self.materialize(e) if row_domain(e) is not None else e for e in (c, a, b))
            return Select(shp, c, a, b)
        if name in ("gelu",):
            approx = kw.get("approximate", args[1] if len(args) > 1 else "none")
            return self.unary("gelu_tanh" if approx == "tanh" else "gelu", x)
        if name == "leaky_relu":
            slope = args[1] if len(args) > 1 else kw.get("negative_slope", 0.01)
            return self.unary("leaky_relu", x, (float(slope),))
        if name in ("elu", "celu"):
            alpha = args[1] if len(args) > 1 else kw.get("alpha", 1.0)
            return self.unary(name, x, (float(alpha),))
        if name == "hardtanh":
            lo = args[1] if len(args) > 1 else kw.get("min_val", -1.0)
            hi = args[2] if len(args) > 2 else kw.get("max_val", 1.0)
            return self.unary("hardtanh", x, (float(lo), float(hi)))
        if name == "softplus":
            beta = args[1] if len(args) > 1 else kw.get("beta", 1.0)
            thr = args[2] if len(args) > 2 else kw.get("threshold", 20.0)
            return self.unary("softplus", x, (float(beta), float(thr)))
        if name == "lerp":
            start, end, w = args[0], args[1], args[2] if len(args) > 2 else kw["weight"]
            return self.binary("add", start, self.binary("mul", w, self.binary("sub", end, start)))
        if name in ("addcmul", "addcdiv"):
            value = float(kw.get("value", 1.0))
            t = self.binary("mul" if name == "addcmul" else "div", args[1], args[2])
            if value != 1.0:
                t = self.binary("mul", t, value)
            return self.binary("add", args[0], t)
        if name in ops.UNARY_ALIASES and (len(args) == 1 or name in ("relu", "sigmoid", "tanh")):
            return self.unary(ops.UNARY_ALIASES[name], x)
        if name in ops.BINARY_ALIASES:
            if len(args) < 2:
                raise Unsupported(f"{name} with one operand")
            alpha = kw.get("alpha")
            y = args[1]
            if alpha is not None and float(alpha) != 1.0:
                y = self.binary("mul", y, float(alpha))
            return self.binary(ops.BINARY_ALIASES[name], x, y, shape)
        if name == "conv2d":
            get = lambda i, key, default: args[i] if len(args) > i else kw.get(key, default)  # noqa: E731
            return self.conv2d(x, get(1, "weight", None), get(2, "bias", None), get(3, "stride", 1),
                               get(4, "padding", 0), get(5, "dilation", 1), get(6, "groups", 1), shape)
        raise Unsupported(f"the operator {name}")

    # --- outputs ------------------------------------------------------------------------------------------------

    def outputs(self, out_args: Any) -> None:
        vals = out_args[0]
        items = list(vals) if isinstance(vals, (list, tuple)) else [vals]
        specs = list(self.spec.outputs)
        if len(items) != len(specs):
            raise Unsupported(f"the graph returns {len(items)} values, the contract {len(specs)}")
        groups: list[list[tuple[str, Expr]]] = []
        for item, (oname, ospec) in zip(items, specs):
            v = self.arg(item)
            if isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], _IndicesUnsupported):
                v = v[0]
            if isinstance(v, _IndicesUnsupported):
                raise Unsupported("returning argmax/argmin indices")
            if ospec.dtype != "float32":
                raise Unsupported(f"an output of dtype {ospec.dtype}")
            self.buffers[oname] = Buffer(oname, tuple(ospec.shape), ospec.dtype, "output", oname)
            if isinstance(v, Squeezed):
                e = v.expr
            else:
                e = self.expr(v)
                if isinstance(e, Const) or prod(e.shape) != prod(ospec.shape):
                    e = self.broadcast_to(e, tuple(ospec.shape))
            if row_domain(e) is not None and e.shape not in (row_domain(e), row_domain(e)[:-1] + (1,)):
                e = self.materialize(e)
            placed = False
            for g in groups:
                try:
                    d0 = row_domain(g[0][1])
                    d1 = row_domain(e)
                    if d0 == d1 and (d0 is not None or g[0][1].shape == e.shape):
                        g.append((oname, e))
                        placed = True
                        break
                except Unsupported:
                    continue
            if not placed:
                groups.append([(oname, e)])
        for g in groups:
            self.add_stage(g)

    def broadcast_to(self, e: Expr, shape: tuple[int, ...]) -> Expr:
        if isinstance(e, Const):
            return Unary(shape, "identity", e)
        try:
            return rewrite_views(e, e.shape, shape, lambda w: w.expand(shape))
        except _CannotRewrite as err:
            raise Unsupported(f"an output of shape {e.shape} returned as {shape}") from err


class _IndicesUnsupported:
    """The indices half of torch.max(x, dim): present so that `values, _ = x.max(1)` lowers."""


def _gemm_ok(v: View) -> bool:
    if len(v.shape) < 2:
        return False
    r, c = v.shape[-2], v.shape[-1]
    sr, sc = v.strides[-2], v.strides[-1]
    if sc == 1 and (sr >= c or r == 1) and sr > 0:
        return True
    return sr == 1 and (sc >= r or c == 1) and sc > 0


def _fold_batch(a: View, b: View, batch: tuple[int, ...]) -> tuple[View, View, tuple[int, ...]]:
    """Merge the batch dims into one when both operands allow it (one strided-batched call)."""
    if len(batch) <= 1:
        return a, b, batch
    total = prod(batch)
    a2 = a.reshape((total,) + a.shape[-2:])
    b2 = b.reshape((total,) + b.shape[-2:])
    if a2 is not None and b2 is not None:
        return a2, b2, (total,)
    return a, b, batch


def _fold(e: Expr) -> Expr:
    """Constant-fold a binary op of two constants."""
    if isinstance(e, Binary) and isinstance(e.a, Const) and isinstance(e.b, Const):
        a, b = e.a.value, e.b.value
        table = {"add": a + b, "sub": a - b, "mul": a * b}
        if e.op in table:
            return Const(e.shape, table[e.op])
        if e.op == "div" and b != 0:
            return Const(e.shape, a / b)
    return e


def lower(spec: TaskSpec, convs: bool = False) -> Program:
    """The task's graph as a Program; raises Unsupported with the reason. convs: lower 2-D convolutions to
    ConvStages (cuDNN calls, for GPU programs); without it a convolution is Unsupported."""
    if spec.graph is None:
        raise Unsupported(f"the module could not be traced by torch.fx ({spec.trace_error})")
    lw = _Lowering(spec, convs=convs)
    out_node = None
    for n in spec.graph:
        if n.op == "output":
            out_node = n
            continue
        lw.values[n.name] = lw.node(n)
    if out_node is None:
        raise Unsupported("the graph has no output")
    lw.outputs(out_node.args)
    prog = Program(tuple(lw.buffers.values()), tuple(lw.stages))
    return _simplify(prog, spec)


def _simplify(prog: Program, spec: TaskSpec) -> Program:
    """Let a stage write straight into an output its result is only copied to, unchanged."""
    stages = list(prog.stages)
    buffers = {b.name: b for b in prog.buffers}
    changed = True
    while changed:
        changed = False
        for i, st in enumerate(stages):
            if not isinstance(st, FusedStage) or len(st.outputs) != 1:
                continue
            (oname, e), = st.outputs
            if not isinstance(e, Load) or not e.view.is_contiguous() or e.view.offset != 0:
                continue
            src = buffers.get(e.view.buffer)
            if src is None or src.kind != "temp" or buffers[oname].numel != src.numel:
                continue
            producer = next((j for j, s in enumerate(stages) if src.name in stage_writes(s)), None)
            if producer is None or _reads(stages, src.name) != 1:
                continue
            p = stages[producer]
            if isinstance(p, (GemmStage, ConvStage)):
                stages[producer] = replace(p, out=oname)
            else:
                stages[producer] = replace(p, outputs=tuple((oname if n == src.name else n, x) for n, x in p.outputs))
            del stages[i]
            del buffers[src.name]
            changed = True
            break
    # Drop buffers nothing reads or writes (e.g. parameters only used through a folded view).
    return Program(tuple(buffers.values()), tuple(stages))


def _reads(stages: list[Stage], name: str) -> int:
    return sum(stage_read_names(st).count(name) for st in stages)


def contiguous_view(name: str, shape: tuple[int, ...]) -> View:
    return View(name, shape, contiguous_strides(shape))
