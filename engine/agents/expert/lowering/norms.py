"""Normalizations: layer norm, RMS norm, group and instance norm, batch norm in eval, L2 normalize.

Each is decomposed into row reductions and an affine map, in the order ATen computes them (two-pass
moments, x * rsqrt(var + eps)), so the fused kernel matches the reference within the strict tolerance.
"""

from __future__ import annotations

from math import prod
from typing import Any

from engine.agents.expert.ir import Binary, Const, Expr, Load, Reduce, Unary, View
from engine.agents.expert.lowering.builder import Lowering
from engine.agents.expert.lowering.reductions import moments
from engine.agents.expert.lowering.table import Call, ModuleCall, lowers, lowers_module
from engine.agents.expert.lowering.values import Unsupported, Value, row_domain


def layer_norm(lw: Lowering, v: Value, normalized: tuple[int, ...], weight: Value, bias: Value, eps: float) -> Value:
    x = lw.expr(v)
    k = len(normalized)
    if tuple(x.shape[-k:]) != tuple(normalized):
        raise Unsupported(f"layer_norm over {normalized} of a {x.shape} tensor")
    d = prod(normalized)
    lead = x.shape[:-k]
    if k > 1:
        x = lw.expr(lw.view_op(x, lead + (d,), lambda w: w.reshape(lead + (d,))))
    if row_domain(x) is not None:
        x = lw.materialize(x)
    _, xc, var = moments(x)
    rstd = Unary(var.shape, "rsqrt", Binary(var.shape, "add", var, Const((), float(eps))))
    y: Expr = Binary(x.shape, "mul", xc, rstd)
    if weight is not None:
        w = lw.expr(lw.view_op(weight, (d,), lambda wv: wv.reshape((d,))))
        y = Binary(x.shape, "mul", y, w)
    if bias is not None:
        b = lw.expr(lw.view_op(bias, (d,), lambda wv: wv.reshape((d,))))
        y = Binary(x.shape, "add", y, b)
    if k > 1:
        return lw.view_op(y, lead + tuple(normalized), lambda w: w.reshape(lead + tuple(normalized)))
    return y


@lowers("layer_norm")
def _layer_norm(lw: Lowering, c: Call) -> Value:
    normalized = c.get(1, "normalized_shape")
    w, b, eps = c.get(2, "weight", None), c.get(3, "bias", None), c.get(4, "eps", 1e-5)
    return layer_norm(lw, c.x, tuple(normalized if isinstance(normalized, (list, tuple)) else [normalized]),
                      w, b, eps)


@lowers_module("LayerNorm")
def _layer_norm_module(lw: Lowering, m: ModuleCall) -> Value:
    return layer_norm(lw, m.x, tuple(m.config["normalized_shape"]), lw.param(m.name, "weight"),
                      lw.param(m.name, "bias"), m.config.get("eps", 1e-5))


def rms_norm(lw: Lowering, v: Value, normalized: tuple[int, ...], weight: Value, eps: Any) -> Value:
    x = lw.expr(v)
    if len(normalized) != 1 or x.shape[-1] != normalized[0]:
        raise Unsupported("RMS norm over more than the last dim")
    if row_domain(x) is not None:
        x = lw.materialize(x)
    rs = x.shape[:-1] + (1,)
    ms = Binary(rs, "div", Reduce(rs, "sum", Binary(x.shape, "mul", x, x)), Const((), float(x.shape[-1])))
    e = float(eps) if eps is not None else 1.1920928955078125e-07  # torch: finfo(float32).eps
    y: Expr = Binary(x.shape, "mul", x, Unary(rs, "rsqrt", Binary(rs, "add", ms, Const((), e))))
    if weight is not None:
        y = Binary(x.shape, "mul", y, lw.expr(weight))
    return y


@lowers("rms_norm")
def _rms_norm(lw: Lowering, c: Call) -> Value:
    return rms_norm(lw, c.x, tuple(c.get(1, "normalized_shape")), c.get(2, "weight", None), c.get(3, "eps", None))


@lowers_module("RMSNorm")
def _rms_norm_module(lw: Lowering, m: ModuleCall) -> Value:
    return rms_norm(lw, m.x, tuple(m.config["normalized_shape"]), lw.param(m.name, "weight"), m.config.get("eps"))


def group_norm(lw: Lowering, v: Value, groups: int, weight: Value, bias: Value, eps: float) -> Value:
    """GroupNorm (InstanceNorm is the case of one channel per group) over (N, C, *spatial).

    Two stages, two reads of x: a row kernel over (N, G, C/G * spatial) writes each group's mean and
    1/std (online statistics when the row is streamed), then one pointwise pass over the domain
    (N, G, C/G, spatial) normalizes and applies the per-channel affine map; that domain's contiguous
    order is the output's, and in it the group statistics and the channel parameters are plain
    broadcast views.
    """
    x = lw.expr(v)
    if len(x.shape) < 2 or x.shape[1] % groups:
        raise Unsupported(f"group norm of a {x.shape} tensor into {groups} groups")
    n, c = x.shape[0], x.shape[1]
    cg, rest = c // groups, prod(x.shape[2:])
    if row_domain(x) is not None:
        x = lw.materialize(x)
    rows = lw.expr(lw.view_op(x, (n, groups, cg * rest), lambda w: w.reshape((n, groups, cg * rest))))
    if row_domain(rows) is not None:
        rows = lw.materialize(rows)
    mean, _, var = moments(rows)
    rstd = Unary(var.shape, "rsqrt", Binary(var.shape, "add", var, Const((), float(eps))))
    m_name, r_name = lw.temp((n, groups, 1)), lw.temp((n, groups, 1))
    lw.add_stage([(m_name, mean), (r_name, rstd)])
    spatial = (rest,) if rest > 1 else ()  # no trailing 1: the last dim is what the kernel vectorizes
    dom = (n, groups, cg, *spatial)
    x4 = lw.expr(lw.view_op(x, dom, lambda w: w.reshape(dom)))
    stat = (n, groups, 1, *(1,) * len(spatial))
    y: Expr = Binary(dom, "mul", Binary(dom, "sub", x4, Load(stat, View.contiguous(m_name, stat))),
                     Load(stat, View.contiguous(r_name, stat)))
    chan = (groups, cg, *(1,) * len(spatial))
    for op, p in (("mul", weight), ("add", bias)):
        if p is not None:
            y = Binary(dom, op, y, lw.expr(lw.view_op(p, chan, lambda w: w.reshape(chan))))
    out = lw.temp(x.shape)
    lw.add_stage([(out, y)])
    return Load(x.shape, View.contiguous(out, x.shape))


@lowers("group_norm")
def _group_norm(lw: Lowering, c: Call) -> Value:
    return group_norm(lw, c.x, int(c.get(1, "num_groups", 1)), c.get(2, "weight", None), c.get(3, "bias", None),
                      c.get(4, "eps", 1e-5))


@lowers("instance_norm")
def _instance_norm(lw: Lowering, c: Call) -> Value:
    if c.get(5, "use_input_stats", True) is False:
        raise Unsupported("instance_norm with running statistics")
    return group_norm(lw, c.x, lw.shape_of(c.x)[1], c.get(3, "weight", None), c.get(4, "bias", None),
                      c.get(7, "eps", 1e-5))


@lowers_module("GroupNorm")
def _group_norm_module(lw: Lowering, m: ModuleCall) -> Value:
    return group_norm(lw, m.x, int(m.config["num_groups"]), lw.param(m.name, "weight"), lw.param(m.name, "bias"),
                      m.config.get("eps", 1e-5))


@lowers_module("InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d")
def _instance_norm_module(lw: Lowering, m: ModuleCall) -> Value:
    if m.config.get("track_running_stats"):
        raise Unsupported(f"{m.type} with running statistics")
    return group_norm(lw, m.x, lw.shape_of(m.x)[1], lw.param(m.name, "weight"), lw.param(m.name, "bias"),
                      m.config.get("eps", 1e-5))


def batch_norm_eval(lw: Lowering, v: Value, mean: Value, var: Value, weight: Value, bias: Value, eps: float) -> Value:
    x = lw.expr(v)
    if len(x.shape) < 2:
        raise Unsupported("batch_norm of a tensor with fewer than 2 dims")
    c = x.shape[1]
    per_channel = (c,) + (1,) * (len(x.shape) - 2)

    def chan(p: Value) -> Expr:
        return lw.expr(lw.view_op(p, per_channel, lambda w: w.reshape(per_channel)))

    # ATen (eval): (x - mean) * (1 / sqrt(var + eps)) * weight + bias
    invstd = Unary(per_channel, "rsqrt", Binary(per_channel, "add", chan(var), Const((), float(eps))))
    y: Expr = Binary(x.shape, "mul", Binary(x.shape, "sub", x, chan(mean)), invstd)
    if weight is not None:
        y = Binary(x.shape, "mul", y, chan(weight))
    if bias is not None:
        y = Binary(x.shape, "add", y, chan(bias))
    return y


@lowers("batch_norm")
def _batch_norm(lw: Lowering, c: Call) -> Value:
    names = ["input", "running_mean", "running_var", "weight", "bias", "training", "momentum", "eps"]
    vals = dict(zip(names, c.args))
    vals.update(c.kw)
    if vals.get("training"):
        raise Unsupported("batch_norm in training mode")
    if vals.get("running_mean") is None:
        raise Unsupported("batch_norm without running statistics")
    return batch_norm_eval(lw, c.x, vals["running_mean"], vals["running_var"], vals.get("weight"),
                           vals.get("bias"), vals.get("eps", 1e-5))


@lowers_module("BatchNorm1d", "BatchNorm2d", "BatchNorm3d")
def _batch_norm_module(lw: Lowering, m: ModuleCall) -> Value:
    if not m.config.get("track_running_stats", True):
        raise Unsupported("BatchNorm without running statistics (batch statistics in eval)")
    return batch_norm_eval(lw, m.x, lw.param_or_buffer(m.name, "running_mean"),
                           lw.param_or_buffer(m.name, "running_var"), lw.param(m.name, "weight"),
                           lw.param(m.name, "bias"), m.config.get("eps", 1e-5))


@lowers("normalize")
def _normalize(lw: Lowering, c: Call) -> Value:
    p = float(c.get(1, "p", 2.0))
    dim = int(c.get(2, "dim", 1))
    eps = float(c.get(3, "eps", 1e-12))
    xe = lw.expr(c.x)
    if p != 2.0 or dim % len(xe.shape) != len(xe.shape) - 1:
        raise Unsupported("normalize other than the L2 norm over the last dim")
    if row_domain(xe) is not None:
        xe = lw.materialize(xe)
    rs = xe.shape[:-1] + (1,)
    norm = Unary(rs, "sqrt", Reduce(rs, "sum", Binary(xe.shape, "mul", xe, xe)))
    return Binary(xe.shape, "div", xe, Binary(rs, "maximum", norm, Const((), eps)))
