"""Views and data movement: reshape, permute, transpose, slicing, expand, chunk/split, and the no-op copies.

Each lowers to a rewrite of the loads of its operand (builder.py `view_op`), so no kernel moves data for it
unless the view cannot be expressed over the operand as it stands (then the operand is copied first).
"""

from __future__ import annotations

from typing import Any

from engine.agents.expert.lowering.builder import Lowering
from engine.agents.expert.lowering.table import Call, ModuleCall, lowers, lowers_module
from engine.agents.expert.lowering.values import Unsupported, Value


def _dims(c: Call) -> Any:
    """The dims of view/permute/expand, given as separate arguments (x.view(2, 3)) or as one list."""
    return c.args[1:] if len(c.args) > 2 or not isinstance(c.args[1], (list, tuple)) else c.args[1]


@lowers("view", "reshape")
def _reshape(lw: Lowering, c: Call) -> Value:
    return lw.reshape(c.x, list(_dims(c)))


@lowers("view_as", "reshape_as")
def _reshape_as(lw: Lowering, c: Call) -> Value:
    return lw.reshape(c.x, list(lw.shape_of(c.args[1])))


@lowers("flatten")
def _flatten(lw: Lowering, c: Call) -> Value:
    return lw.flatten(c.x, c.get(1, "start_dim", 0), c.get(2, "end_dim", -1))


@lowers_module("Flatten")
def _flatten_module(lw: Lowering, m: ModuleCall) -> Value:
    return lw.flatten(m.x, m.config.get("start_dim", 1), m.config.get("end_dim", -1))


@lowers("unsqueeze")
def _unsqueeze(lw: Lowering, c: Call) -> Value:
    d = int(c.get(1, "dim"))
    s = lw.shape_of(c.x)
    d = d % (len(s) + 1)
    return lw.reshape(c.x, list(s[:d]) + [1] + list(s[d:]))


@lowers("squeeze")
def _squeeze(lw: Lowering, c: Call) -> Value:
    s = lw.shape_of(c.x)
    d = c.get(1, "dim", None)
    if d is None:
        return lw.reshape(c.x, [n for n in s if n != 1])
    dl = [int(i) % len(s) for i in (d if isinstance(d, (list, tuple)) else [d])]
    return lw.reshape(c.x, [n for i, n in enumerate(s) if not (i in dl and n == 1)])


@lowers("permute")
def _permute(lw: Lowering, c: Call) -> Value:
    return lw.permute(c.x, [int(p) for p in _dims(c)])


@lowers("transpose")
def _transpose(lw: Lowering, c: Call) -> Value:
    return lw.transpose(c.x, int(c.args[1]), int(c.args[2]))


@lowers("t")
def _t(lw: Lowering, c: Call) -> Value:
    return lw.transpose(c.x, 0, 1)


@lowers("contiguous", "clone", "detach", "float", "type_as", "bfloat16", "half")
def _same_values(lw: Lowering, c: Call) -> Value:
    # A copy, or a cast between float32, bfloat16 and float16: every value here is computed in fp32 and rounded
    # only where it is stored (codegen/storage.py), so a cast to a narrower type is a rounding the kernel skips:
    # its result is closer to the exact value than the reference's, within the policy's tolerance.
    return c.x


_FLOAT_NAMES = {f"{p}{d}" for p in ("", "torch.") for d in ("float32", "float", "bfloat16", "float16", "half")}


@lowers("to")
def _to(lw: Lowering, c: Call) -> Value:
    rest = [a for a in c.args[1:] if a not in _FLOAT_NAMES]
    if rest or any(k not in ("dtype", "copy", "non_blocking") for k in c.kw) or \
            c.kw.get("dtype", "float32") not in _FLOAT_NAMES:
        raise Unsupported("a .to() that changes device, or to a dtype other than float32, bfloat16 or float16")
    return c.x


@lowers("expand", "expand_as")
def _expand(lw: Lowering, c: Call) -> Value:
    target = lw.shape_of(c.args[1]) if c.name == "expand_as" else tuple(_dims(c))
    s = lw.shape_of(c.x)
    target = tuple(s[i - (len(target) - len(s))] if t == -1 else t for i, t in enumerate(target))
    return lw.view_op(c.x, target, lambda w: w.expand(target))


@lowers("getitem")
def _getitem(lw: Lowering, c: Call) -> Value:
    v, idx = c.x, c.args[1]
    if isinstance(v, (tuple, list)):
        return v[int(idx)]
    shape = lw.shape_of(v)
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
        cur = lw.shape_of(out)
        if kind == "slice":
            d, s = arg
            start, stop, step = s.indices(cur[d])
            new = list(cur)
            new[d] = len(range(start, stop, step))
            out = lw.view_op(out, tuple(new), lambda w, d=d, a=start, b=stop, k=step: w.slice(d, a, b, k))
        elif kind == "select":
            d, i = arg
            new = cur[:d] + cur[d + 1:]
            out = lw.view_op(out, new, lambda w, d=d, i=i: w.select(d, i))
        else:
            d = arg
            new = cur[:d] + (1,) + cur[d:]
            out = lw.view_op(out, new, lambda w, new=new: w.reshape(new))
    return out


@lowers("chunk", "split")
def _chunk(lw: Lowering, c: Call) -> Value:
    dim = int(c.get(2, "dim", 0))
    s = lw.shape_of(c.x)
    dim %= len(s)
    if c.name == "chunk":
        n = int(c.args[1])
        size = -(-s[dim] // n)
    else:
        size = c.args[1]
        if isinstance(size, (list, tuple)):
            raise Unsupported("split with a list of sizes")
        size = int(size)
    parts = []
    for start in range(0, s[dim], size):
        stop = min(start + size, s[dim])
        new = list(s)
        new[dim] = stop - start
        parts.append(lw.view_op(c.x, tuple(new), lambda w, a=start, b=stop: w.slice(dim, a, b)))
    return tuple(parts)


@lowers("narrow")
def _narrow(lw: Lowering, c: Call) -> Value:
    dim, start, length = int(c.args[1]), int(c.args[2]), int(c.args[3])
    s = lw.shape_of(c.x)
    dim %= len(s)
    new = list(s)
    new[dim] = length
    return lw.view_op(c.x, tuple(new), lambda w: w.slice(dim, start, start + length))
