"""What a graph node lowers to, and the shape rules between those values.

A tensor value is an `Expr` over loads of buffers (built lazily: nothing is computed until a stage writes
it), or a `Squeezed` row result; integer bookkeeping (x.size(0), x.shape) lowers to Python numbers and
tuples. Anything outside the vocabulary raises `Unsupported` with a sentence a person can read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.agents.expert.ir import Binary, Const, Expr, Load, Reduce, children, reductions, with_children


class Unsupported(Exception):
    """The graph uses something the generators cannot express; the message says what."""


class CannotRewrite(Exception):
    """A view transform that is not a rewrite of an expression's loads (the caller copies instead)."""


@dataclass(frozen=True)
class Squeezed:
    """A per-row reduction result whose reduced dim was dropped (keepdim=False).

    `expr` keeps the dim (shape [..., 1]) so it stays in its row domain; `shape` is the logical shape.
    """

    expr: Expr
    shape: tuple[int, ...]


class IndicesUnsupported:
    """The indices half of torch.max(x, dim): present so that `values, _ = x.max(1)` lowers."""


Value = Any  # Expr | Squeezed | int | float | tuple | list | None


def broadcast_shapes(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    n = max(len(a), len(b))
    a2 = (1,) * (n - len(a)) + tuple(a)
    b2 = (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a2, b2):
        if x != y and x != 1 and y != 1:
            raise Unsupported(f"shapes {a} and {b} do not broadcast")
        out.append(max(x, y))
    return tuple(out)


def broadcastable(small: tuple[int, ...], big: tuple[int, ...]) -> bool:
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
    """Apply a view transform to every load of an elementwise expression (raises CannotRewrite).

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
                raise CannotRewrite(str(err)) from err
            if v is None:
                raise CannotRewrite("view")
            out = Load(v.shape, v)
        elif isinstance(n, Reduce):
            raise CannotRewrite("reduction")
        else:
            out = with_children(n, tuple(go(c) for c in children(n)), tuple(new_full))
        memo[n] = out
        return out

    return go(e)


def fold_constants(e: Expr) -> Expr:
    """Constant-fold a binary op of two constants."""
    if isinstance(e, Binary) and isinstance(e.a, Const) and isinstance(e.b, Const):
        a, b = e.a.value, e.b.value
        table = {"add": a + b, "sub": a - b, "mul": a * b}
        if e.op in table:
            return Const(e.shape, table[e.op])
        if e.op == "div" and b != 0:
            return Const(e.shape, a / b)
    return e
