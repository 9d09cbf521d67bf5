"""The lowering's state and the machinery every op handler builds with.

`Lowering` holds what is lowered so far: the buffers (the contract's tensors and the temporaries it adds),
the stages written, and each graph node's value. It offers the op handlers the few things they compose:
combining two values into one fused expression, materializing a value into a temporary (a stage of its
own) where it must be, and views (reshape, permute, slicing) as rewrites of the loads of an expression.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from math import prod
from typing import Any

from engine.agents.expert.ir import Binary, Buffer, Const, Expr, FusedStage, Load, Stage, Unary, View
from engine.agents.expert.lowering.values import (
    CannotRewrite,
    IndicesUnsupported,
    Squeezed,
    Unsupported,
    Value,
    broadcast_shapes,
    broadcastable,
    fold_constants,
    rewrite_views,
    row_domain,
)
from engine.task.spec import TaskSpec

# The storage types a buffer may have: values are computed in fp32 whatever it is (codegen/storage.py widens bf16
# and fp16 on load and rounds on store); temporaries are fp32.
STORAGE = ("float32", "bfloat16", "float16")


@dataclass
class Lowering:
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
        if arg.tensor.dtype not in STORAGE:
            raise Unsupported(f"'{name}' is {arg.tensor.dtype}; the generators handle float32, bfloat16 and float16 "
                              "tensors")
        shape = tuple(arg.tensor.shape)
        return Load(shape, View.contiguous(name, shape))

    def temp(self, shape: tuple[int, ...]) -> str:
        name = f"tmp{self.n_temp}"
        self.n_temp += 1
        self.buffers[name] = Buffer(name, tuple(shape), "float32", "temp", name)
        return name

    def param(self, module: str, name: str) -> Value | None:
        q = f"{module}.{name}"
        if any(a.name == q for a in self.spec.args):
            return self.arg_buffer(q, "param")
        return None

    def param_or_buffer(self, module: str, name: str) -> Value:
        q = f"{module}.{name}"
        arg = next((a for a in self.spec.args if a.name == q), None)
        if arg is None:
            raise Unsupported(f"{q} is not an argument")
        return self.arg_buffer(q, "param" if arg.role == "parameter" else "buffer")

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
                if e.shape not in (dom, row_scalar) and not broadcastable(e.shape, row_scalar):
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
        if dom is not None and not broadcastable(shape, dom):
            if da is not None:
                a = self.materialize(a)
            if db is not None:
                b = self.materialize(b)
        return a, b

    def binary(self, op: str, x: Value, y: Value, shape: tuple[int, ...] | None = None) -> Value:
        if isinstance(x, Squeezed) or isinstance(y, Squeezed):
            return self.squeezed_binary(op, x, y)
        a, b = self.expr(x), self.expr(y)
        shape = tuple(shape) if shape is not None else broadcast_shapes(a.shape, b.shape)
        a, b = self.combine(a, b, shape)
        if op == "rsub":
            op, a, b = "sub", b, a
        if op == "pow" and isinstance(b, Const):
            return self.pow_const(a, b.value, shape)
        return fold_constants(Binary(shape, op, a, b))

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
            if row_domain(e) is not None or not broadcastable(e.shape, sq.shape):
                lifted = []
                break
            full = sq.shape
            try:
                lifted.append(rewrite_views(e, full, full + (1,), lambda w, full=full: w.reshape(full + (1,)))
                              if not isinstance(e, Const) else e)
            except CannotRewrite:
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
        except CannotRewrite:
            pass
        m = self.materialize(e)
        try:
            return rewrite_views(m, m.shape, tuple(new_shape), f)
        except CannotRewrite:
            # A contiguous copy is always viewable by reshape/permute/slice; a transposed copy of a copy
            # is the only thing left, and it is materialized by the caller.
            raise Unsupported(f"a view to shape {new_shape} that cannot be expressed") from None

    def viewable(self, v: Value, shape: tuple[int, ...]) -> bool:
        """Whether v reshaped to `shape` is a rewrite of its loads (no copy)."""
        e = self.expr(v)
        if prod(e.shape) != prod(shape):
            return False
        try:
            rewrite_views(e, e.shape, shape, lambda w: w.reshape(shape))
        except CannotRewrite:
            return False
        return True

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

    def flatten(self, x: Value, start: int = 0, end: int = -1) -> Value:
        shape = self.shape_of(x)
        if not shape:
            return self.reshape(x, [1])
        n = len(shape)
        s, e = start % n, end % n
        new = list(shape[:s]) + [prod(shape[s:e + 1])] + list(shape[e + 1:])
        return self.reshape(x, new)

    # --- arguments --------------------------------------------------------------------------------------------

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
            if isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], IndicesUnsupported):
                v = v[0]
            if isinstance(v, IndicesUnsupported):
                raise Unsupported("returning argmax/argmin indices")
            if ospec.dtype not in STORAGE:
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
        except CannotRewrite as err:
            raise Unsupported(f"an output of shape {e.shape} returned as {shape}") from err
