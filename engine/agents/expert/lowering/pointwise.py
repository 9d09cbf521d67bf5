"""Pointwise operators: activations, arithmetic, comparisons, clamp, where, and dropout in eval.

None of them makes a kernel: each builds an expression over its operands (builder.py `unary`/`binary`),
so a chain of any length fuses into the stage that finally writes it. The canonical op names and their
C formulas are in ops.py.
"""

from __future__ import annotations

from engine.agents.expert import ops
from engine.agents.expert.ir import Expr, Select
from engine.agents.expert.lowering.builder import Lowering
from engine.agents.expert.lowering.meta import number_arithmetic
from engine.agents.expert.lowering.table import Call, ModuleCall, lowers, lowers_module
from engine.agents.expert.lowering.values import Squeezed, Unsupported, Value, broadcast_shapes, row_domain


@lowers("dropout", "alpha_dropout", "feature_alpha_dropout")
def _dropout(lw: Lowering, c: Call) -> Value:
    training = c.kw.get("training", c.args[2] if len(c.args) > 2 else True)
    p = c.kw.get("p", c.args[1] if len(c.args) > 1 else 0.5)
    if training and p:
        raise Unsupported("dropout in training mode")
    return c.x


@lowers_module("Dropout", "Dropout1d", "Dropout2d", "AlphaDropout", "Identity")
def _identity_module(lw: Lowering, m: ModuleCall) -> Value:
    return m.x  # a module in eval mode that passes its input through


@lowers(*ops.CLAMP_NAMES)
def _clamp(lw: Lowering, c: Call) -> Value:
    lo, hi = c.get(1, "min", None), c.get(2, "max", None)
    if c.name == "clamp_min":
        lo, hi = c.get(1, "min", None), None
    if c.name == "clamp_max":
        lo, hi = None, c.get(1, "max", None)
    out = c.x
    if isinstance(lo, (Expr, Squeezed)) or isinstance(hi, (Expr, Squeezed)):
        if lo is not None:
            out = lw.binary("maximum", out, lo)
        if hi is not None:
            out = lw.binary("minimum", out, hi)
        return out
    if lo is not None and hi is not None:
        return lw.unary("clamp", c.x, (float(lo), float(hi)))
    if lo is not None:
        return lw.unary("clamp_min", c.x, (float(lo),))
    if hi is not None:
        return lw.unary("clamp_max", c.x, (float(hi),))
    return c.x


@lowers("where")
def _where(lw: Lowering, c: Call) -> Value:
    if len(c.args) != 3:
        raise Unsupported("where with one argument")
    cond, a, b = (lw.expr(v) for v in c.args)
    shp = tuple(c.shape) if c.shape is not None else broadcast_shapes(broadcast_shapes(cond.shape, a.shape), b.shape)
    if any(row_domain(e) is not None for e in (cond, a, b)):
        cond, a, b = (lw.materialize(e) if row_domain(e) is not None else e for e in (cond, a, b))
    return Select(shp, cond, a, b)


@lowers("lerp")
def _lerp(lw: Lowering, c: Call) -> Value:
    start, end, w = c.args[0], c.args[1], c.get(2, "weight")
    return lw.binary("add", start, lw.binary("mul", w, lw.binary("sub", end, start)))


@lowers("addcmul", "addcdiv")
def _addcmul(lw: Lowering, c: Call) -> Value:
    value = float(c.kw.get("value", 1.0))
    t = lw.binary("mul" if c.name == "addcmul" else "div", c.args[1], c.args[2])
    if value != 1.0:
        t = lw.binary("mul", t, value)
    return lw.binary("add", c.args[0], t)


# --- activations with parameters ---------------------------------------------------------------------------

# These spellings are unary aliases too (ops.py) but read their parameters here; the rest are plain aliases.
_WITH_PARAMETERS = frozenset({"gelu", "leaky_relu", "elu", "celu", "hardtanh", "softplus"})


@lowers("gelu")
def _gelu(lw: Lowering, c: Call) -> Value:
    approx = c.kw.get("approximate", c.args[1] if len(c.args) > 1 else "none")
    return lw.unary("gelu_tanh" if approx == "tanh" else "gelu", c.x)


@lowers("leaky_relu")
def _leaky_relu(lw: Lowering, c: Call) -> Value:
    return lw.unary("leaky_relu", c.x, (float(c.get(1, "negative_slope", 0.01)),))


@lowers("elu", "celu")
def _elu(lw: Lowering, c: Call) -> Value:
    return lw.unary(c.name, c.x, (float(c.get(1, "alpha", 1.0)),))


@lowers("hardtanh")
def _hardtanh(lw: Lowering, c: Call) -> Value:
    lo, hi = c.get(1, "min_val", -1.0), c.get(2, "max_val", 1.0)
    return lw.unary("hardtanh", c.x, (float(lo), float(hi)))


@lowers("softplus")
def _softplus(lw: Lowering, c: Call) -> Value:
    beta, thr = c.get(1, "beta", 1.0), c.get(2, "threshold", 20.0)
    return lw.unary("softplus", c.x, (float(beta), float(thr)))


@lowers_module(*ops.ACTIVATION_MODULES)
def _activation_module(lw: Lowering, m: ModuleCall) -> Value:
    op, keys = ops.ACTIVATION_MODULES[m.type]
    if m.type == "GELU" and m.config.get("approximate") == "tanh":
        op = "gelu_tanh"
    return lw.unary(op, m.x, tuple(float(m.config[k]) for k in keys if k in m.config))


# --- aliases: one canonical op per spelling (ops.py) ---------------------------------------------------------


@lowers(*(name for name in ops.UNARY_ALIASES if name not in _WITH_PARAMETERS))
def _unary_alias(lw: Lowering, c: Call) -> Value:
    # relu/sigmoid/tanh accept extra arguments (an inplace flag, say); any other spelling given more than
    # its operand means something this vocabulary does not express (round(x, decimals), ...).
    if len(c.args) == 1 or c.name in ("relu", "sigmoid", "tanh"):
        return lw.unary(ops.UNARY_ALIASES[c.name], c.x)
    raise Unsupported(f"the operator {c.name}")


@lowers(*ops.BINARY_ALIASES)
def _binary_alias(lw: Lowering, c: Call) -> Value:
    numbers = number_arithmetic(c)  # x.size(0) * 2 is bookkeeping, not a tensor op
    if numbers is not None:
        return numbers
    if len(c.args) < 2:
        raise Unsupported(f"{c.name} with one operand")
    alpha = c.kw.get("alpha")
    y = c.args[1]
    if alpha is not None and float(alpha) != 1.0:
        y = lw.binary("mul", y, float(alpha))
    return lw.binary(ops.BINARY_ALIASES[c.name], c.x, y, c.shape)
