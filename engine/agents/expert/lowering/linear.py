"""Matrix products: matmul/mm/bmm, linear (and nn.Linear), addmm, each a GemmStage of its own.

An operand that a GEMM can read in place (unit stride in one of its last two dims) is passed as its view;
anything else is materialized first. A bias or scale is a pointwise expression over the product's result,
so it fuses into whatever reads the product next.
"""

from __future__ import annotations

from math import prod

from engine.agents.expert.ir import Expr, GemmStage, Load, View
from engine.agents.expert.lowering.builder import Lowering
from engine.agents.expert.lowering.table import Call, ModuleCall, lowers, lowers_module
from engine.agents.expert.lowering.values import Unsupported, Value, broadcast_shapes


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


def gemm_operand(lw: Lowering, v: Value) -> View:
    """A view cuBLAS can read (unit stride in one of the last two dims), materializing if needed."""
    e = lw.expr(v)
    if isinstance(e, Load) and _gemm_ok(e.view):
        return e.view
    m = lw.materialize(e)
    return m.view


def matmul(lw: Lowering, x: Value, y: Value, out_shape: tuple[int, ...]) -> Expr:
    a_e, b_e = lw.expr(x), lw.expr(y)
    if len(a_e.shape) < 2 or len(b_e.shape) < 2:
        raise Unsupported("matmul with a 1-D operand")
    a, b = gemm_operand(lw, a_e), gemm_operand(lw, b_e)
    m, k = a.shape[-2], a.shape[-1]
    k2, n = b.shape[-2], b.shape[-1]
    if k != k2:
        raise Unsupported(f"matmul of {a.shape} and {b.shape}")
    # Fold a's leading dims into M when b has none (x @ W for a batch of rows).
    if len(b.shape) == 2 and len(a.shape) > 2:
        rows = prod(a.shape[:-1])
        folded = a.reshape((rows, k))
        if folded is None:
            a = lw.materialize(Load(a.shape, a)).view.reshape((rows, k))  # type: ignore[assignment]
            assert a is not None
        else:
            a = folded
        name = lw.temp((rows, n))
        lw.stages.append(GemmStage(a, b, name, rows, n, k))
        return Load(tuple(out_shape), View.contiguous(name, tuple(out_shape)))
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = a.expand(batch + (m, k))
    b = b.expand(batch + (k, n))
    a, b, batch = _fold_batch(a, b, batch)
    name = lw.temp(batch + (m, n))
    lw.stages.append(GemmStage(a, b, name, m, n, k, batch))
    return Load(tuple(out_shape), View.contiguous(name, tuple(out_shape)))


def linear(lw: Lowering, x: Value, weight: Value, bias: Value | None, out_shape: tuple[int, ...]) -> Value:
    w = lw.expr(weight)
    if len(w.shape) != 2:
        raise Unsupported("linear with a weight that is not 2-D")
    wt = lw.transpose(w, 0, 1)
    y = matmul(lw, x, wt, out_shape)
    if bias is None:
        return y
    return lw.binary("add", y, bias, out_shape)


@lowers("matmul", "mm", "bmm")
def _matmul(lw: Lowering, c: Call) -> Value:
    return matmul(lw, c.args[0], c.args[1], c.shape)


@lowers("linear")
def _linear(lw: Lowering, c: Call) -> Value:
    return linear(lw, c.x, c.get(1, "weight"), c.get(2, "bias", None), c.shape)


@lowers_module("Linear")
def _linear_module(lw: Lowering, m: ModuleCall) -> Value:
    return linear(lw, m.x, lw.param(m.name, "weight"), lw.param(m.name, "bias"), m.shape)


@lowers("addmm")
def _addmm(lw: Lowering, c: Call) -> Value:
    bias, a, b = c.args[0], c.args[1], c.args[2]
    beta, alpha = float(c.kw.get("beta", 1)), float(c.kw.get("alpha", 1))
    product = matmul(lw, a, b, c.shape)
    term: Value = product if alpha == 1 else lw.binary("mul", product, alpha, c.shape)
    bterm = bias if beta == 1 else lw.binary("mul", bias, beta)
    return lw.binary("add", term, bterm, c.shape)
