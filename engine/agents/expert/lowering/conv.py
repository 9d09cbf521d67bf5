"""2-D convolutions: nn.Conv2d and F.conv2d as ConvStages (cuDNN calls), in GPU programs only.

The generators write no convolution kernel of their own: where no library may be called (a pure-CUDA or
CPU program) a convolution is Unsupported, and the rules fall back to the other spaces.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.agents.expert import ops
from engine.agents.expert.ir import ConvStage, Load, View
from engine.agents.expert.lowering.builder import Lowering
from engine.agents.expert.lowering.table import Call, ModuleCall, lowers, lowers_module
from engine.agents.expert.lowering.values import Unsupported, Value


def _require_convs(lw: Lowering, what: str) -> None:
    if not lw.convs:
        raise Unsupported(f"a convolution ({what}); the pure-CUDA generators have no convolution")


def _whole_buffer(lw: Lowering, v: Value) -> str:
    """The name of a buffer that holds exactly v, contiguous (a library reads whole buffers), materializing
    v into a temporary when it is a view or an expression."""
    e = lw.expr(v)
    if isinstance(e, Load) and e.view.offset == 0 and e.view.is_contiguous() and e.view.shape == e.shape \
            and lw.buffers[e.view.buffer].numel == e.view.numel:
        return e.view.buffer
    return lw.materialize(e).view.buffer


def _pair(v: Any) -> tuple[int, int]:
    v = list(v) if isinstance(v, (list, tuple)) else [v, v]
    return (int(v[0]), int(v[-1]))


def conv2d(lw: Lowering, x: Value, weight: Value, bias: Value | None, stride: Any, padding: Any, dilation: Any,
           groups: Any, shape: Any, what: str = "conv2d") -> Value:
    _require_convs(lw, what)
    if padding == "valid":
        padding = 0
    if isinstance(padding, str):
        raise Unsupported(f"{what} with padding={padding!r}")
    xs, ws = lw.shape_of(x), lw.shape_of(weight)
    if len(xs) != 4 or len(ws) != 4:
        raise Unsupported(f"{what} of a {len(xs)}-D input (the cuDNN stage takes N, C, H, W)")
    st = ConvStage(_whole_buffer(lw, x), _whole_buffer(lw, weight), "", xs[0], xs[1], xs[2], xs[3], ws[0],
                   ws[2], ws[3], _pair(stride), _pair(padding), _pair(dilation), int(groups))
    if xs[1] != ws[1] * st.groups or (shape is not None and tuple(shape) != st.out_shape):
        raise Unsupported(f"{what} of {xs} with weight {ws}: shapes do not agree with {shape}")
    out = lw.temp(st.out_shape)
    lw.stages.append(replace(st, out=out))
    y: Value = Load(st.out_shape, View.contiguous(out, st.out_shape))
    if bias is not None:
        y = lw.binary("add", y, lw.reshape(bias, [st.k, 1, 1]), st.out_shape)
    return y


@lowers("conv2d")
def _conv2d(lw: Lowering, c: Call) -> Value:
    return conv2d(lw, c.x, c.get(1, "weight", None), c.get(2, "bias", None), c.get(3, "stride", 1),
                  c.get(4, "padding", 0), c.get(5, "dilation", 1), c.get(6, "groups", 1), c.shape)


@lowers_module(*ops.CONV_MODULES)
def _conv_module(lw: Lowering, m: ModuleCall) -> Value:
    _require_convs(lw, m.type)
    cfg = m.config
    if m.type != "Conv2d" or cfg.get("transposed"):
        raise Unsupported(f"a {m.type}: the cuDNN stage covers Conv2d only")
    if cfg.get("padding_mode", "zeros") != "zeros":
        raise Unsupported(f"a Conv2d with padding_mode={cfg.get('padding_mode')!r}: the cuDNN stage pads "
                          "with zeros only")
    weight = lw.param(m.name, "weight")
    if weight is None:
        raise Unsupported(f"the weight of {m.name} is not an argument of the contract (tied or computed)")
    return conv2d(lw, m.x, weight, lw.param(m.name, "bias"), cfg.get("stride", 1), cfg.get("padding", 0),
                  cfg.get("dilation", 1), cfg.get("groups", 1), m.shape, m.type)
