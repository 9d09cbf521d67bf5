"""Max and average pooling (1-, 2- and 3-D) as reductions over windowed views.

A pooling window is a strided view: over the spatial dims of an input with strides st, the window of
output position o and tap k starts at o * stride * st and steps k * dilation * st, so the input seen as
(..., O1, .., On, K1, .., Kn) is a rewrite of its loads (no copy), and the pool is a max or a mean over the
last n dims. Whatever pointwise chain produced the input is read through the same view, so an activation
before a pool fuses into the pool's kernel. Each window dim is reduced inline (small windows), which keeps
the whole pool one element-per-output expression.

Padding and ceil_mode would need loads outside the input (read as -inf for max, left out of a mean's count
or not): the IR has no masked load, so they are Unsupported and the rules fall back as for any other
operator outside the vocabulary.
"""

from __future__ import annotations

from math import prod
from typing import Any

from engine.agents.expert.ir import View
from engine.agents.expert.lowering.builder import Lowering
from engine.agents.expert.lowering.reductions import INLINE_REDUCE_MAX, reduce
from engine.agents.expert.lowering.table import Call, ModuleCall, lowers, lowers_module
from engine.agents.expert.lowering.values import Unsupported, Value
from engine.agents.expert.ops import int_tuple

# Taps per output element read inline: a 4x4x4 window is 64 loads in one expression.
MAX_WINDOW = 64


def _ints(v: Any, n: int, what: str) -> tuple[int, ...]:
    t = int_tuple(v, n)
    if t is None:
        raise Unsupported(f"a {n}-D pool with {what} {v!r}")
    return t


def _window(view: View, n: int, out: tuple[int, ...], k: tuple[int, ...], s: tuple[int, ...],
            d: tuple[int, ...]) -> View:
    """The view seen as (..., O1, .., On, K1, .., Kn): output position o, tap k at o * s + k * d."""
    st = view.strides[-n:]
    strides = view.strides[:-n] + tuple(s[i] * st[i] for i in range(n)) + tuple(d[i] * st[i] for i in range(n))
    return View(view.buffer, view.shape[:-n] + out + k, strides, view.offset)


def pool(lw: Lowering, op: str, x: Value, n: int, kernel: Any, stride: Any, padding: Any, dilation: Any,
         ceil_mode: bool) -> Value:
    """op ("max" | "mean") over n-D windows of x's last n dims."""
    k = _ints(kernel, n, "kernel")
    s = _ints(stride if stride not in (None, [], ()) else kernel, n, "stride")
    p = _ints(padding, n, "padding")
    d = _ints(dilation, n, "dilation")
    if any(p):
        raise Unsupported(f"a pool with padding {p} (no masked loads for the border)")
    if ceil_mode:
        raise Unsupported("a pool with ceil_mode=True (partial windows at the border)")
    if any(v < 1 for v in k + s + d):
        raise Unsupported(f"a pool with kernel {k}, stride {s}, dilation {d}")
    if prod(k) > MAX_WINDOW or max(k) > INLINE_REDUCE_MAX:
        raise Unsupported(f"a pooling window of {k} ({prod(k)} taps; at most {MAX_WINDOW}, "
                          f"{INLINE_REDUCE_MAX} a dim)")
    shape = lw.shape_of(x)
    if len(shape) < n + 1:
        raise Unsupported(f"a {n}-D pool over a tensor of shape {shape}")
    spatial = shape[-n:]
    out = tuple((spatial[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(n))
    if any(o < 1 for o in out):
        raise Unsupported(f"a pooling window larger than the input ({spatial} with kernel {k})")
    windowed = lw.view_op(x, shape[:-n] + out + k, lambda w: _window(w, n, out, k, s, d))
    # The last window dim first: each reduction is then over the last dim, inline.
    v: Value = windowed
    for _ in range(n):
        v = reduce(lw, "max" if op == "max" else "sum", v, [-1], False)
    return v if op == "max" else lw.binary("div", v, float(prod(k)))


def _dims(name: str) -> int:
    return int(name.rstrip("d")[-1])


@lowers_module("MaxPool1d", "MaxPool2d", "MaxPool3d")
def _max_pool_module(lw: Lowering, m: ModuleCall) -> Value:
    c = m.config
    if c.get("return_indices"):
        raise Unsupported(f"{m.type} with return_indices=True")
    return pool(lw, "max", m.x, _dims(m.type), c["kernel_size"], c.get("stride"), c.get("padding", 0),
                c.get("dilation", 1), bool(c.get("ceil_mode", False)))


@lowers_module("AvgPool1d", "AvgPool2d", "AvgPool3d")
def _avg_pool_module(lw: Lowering, m: ModuleCall) -> Value:
    c = m.config
    if c.get("divisor_override") is not None:
        raise Unsupported(f"{m.type} with divisor_override")
    # Without padding every window is whole, so count_include_pad does not matter.
    return pool(lw, "mean", m.x, _dims(m.type), c["kernel_size"], c.get("stride"), c.get("padding", 0), 1,
                bool(c.get("ceil_mode", False)))


@lowers("max_pool1d", "max_pool2d", "max_pool3d")
def _max_pool(lw: Lowering, c: Call) -> Value:
    if c.get(6, "return_indices", False):
        raise Unsupported(f"{c.name} with return_indices=True")
    return pool(lw, "max", c.x, _dims(c.name), c.get(1, "kernel_size"), c.get(2, "stride", None),
                c.get(3, "padding", 0), c.get(4, "dilation", 1), bool(c.get(5, "ceil_mode", False)))


@lowers("avg_pool1d", "avg_pool2d", "avg_pool3d")
def _avg_pool(lw: Lowering, c: Call) -> Value:
    if c.name != "avg_pool1d" and c.get(6, "divisor_override", None) is not None:
        raise Unsupported(f"{c.name} with divisor_override")
    return pool(lw, "mean", c.x, _dims(c.name), c.get(1, "kernel_size"), c.get(2, "stride", None),
                c.get(3, "padding", 0), 1, bool(c.get(4, "ceil_mode", False)))
