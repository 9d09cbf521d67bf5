"""What the CUDA and C++ generators share: index arithmetic for strided loads, and the expression emitter.

All shapes are compile-time constants (the contract fixes them), so offsets are written as divisions and
remainders by literal constants, which nvcc and gcc turn into multiply-shift sequences.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import prod
from typing import Any

from engine.agents.expert import ops
from engine.agents.expert.ir import (
    Binary,
    Buffer,
    Const,
    Expr,
    Load,
    Program,
    Reduce,
    Select,
    Unary,
    View,
    children,
    walk,
)

INT32_LIMIT = 2**31 - 1


@dataclass(frozen=True)
class Term:
    """((i / inner) % size) * stride: one run of dims of a view over a linear index i."""

    inner: int
    size: int
    stride: int


def terms(view: View, domain: tuple[int, ...]) -> tuple[Term, ...]:
    """The view (broadcast to `domain`) as terms over the domain's linear index, adjacent dims merged."""
    v = view.expand(domain)
    raw: list[tuple[int, Term]] = []
    for d, (n, st) in enumerate(zip(v.shape, v.strides)):
        if n == 1 or st == 0:
            continue
        raw.append((d, Term(prod(domain[d + 1:]), n, st)))
    merged: list[tuple[int, Term]] = []
    for d, t in raw:
        if merged:
            _pd, pt = merged[-1]
            # dims pd..d-1 are all merged into pt; the next dim may join when it is adjacent and contiguous
            if pt.inner == t.inner * t.size and pt.stride == t.stride * t.size:
                merged[-1] = (d, Term(t.inner, pt.size * t.size, t.stride))
                continue
        merged.append((d, t))
    return tuple(t for _, t in merged)


def offset_code(view: View, domain: tuple[int, ...], index: str) -> str:
    """C expression of the offset (in elements) of the element at linear index `index` of `domain`."""
    total = prod(domain)
    parts = []
    for t in terms(view, domain):
        e = index
        if t.inner != 1:
            e = f"{e} / {t.inner}"
        if t.inner * t.size < total:
            e = f"({e}) % {t.size}" if t.inner != 1 else f"{e} % {t.size}"
        if t.stride != 1:
            e = f"({e}) * {t.stride}"
        parts.append(e)
    if view.offset:
        parts.append(str(view.offset))
    return " + ".join(parts) if parts else "0"


def last_stride(view: View, domain: tuple[int, ...]) -> int:
    v = view.expand(domain)
    return v.strides[-1] if v.shape and v.shape[-1] != 1 else 0


def vec_ok(view: View, domain: tuple[int, ...], vec: int) -> bool:
    """True when `vec` consecutive elements of the domain (starting at a multiple of vec) are a vector.

    Needs unit stride along the domain's last dim, that dim a multiple of vec, and every other stride
    and the offset multiples of vec, so the vector is aligned when the buffer is.
    """
    if vec == 1:
        return True
    if not domain or domain[-1] % vec:
        return False
    v = view.expand(domain)
    if v.strides[-1] != 1 or v.offset % vec:
        return False
    return all(st % vec == 0 for n, st in zip(v.shape[:-1], v.strides[:-1]) if n != 1)


def uniform_ok(view: View, domain: tuple[int, ...], vec: int) -> bool:
    """True when the `vec` lanes of a vector all read the same element (broadcast along the last dim)."""
    return bool(domain) and domain[-1] % vec == 0 and last_stride(view, domain) == 0


def index_type(prog: Program) -> str:
    """unsigned int when every index fits in 32 bits (cheaper division), else unsigned long long."""
    biggest = max([b.numel for b in prog.buffers] + [1])
    for st in prog.stages:
        dom = getattr(st, "domain", None)
        if dom:
            biggest = max(biggest, prod(dom))
    return "unsigned int" if biggest < INT32_LIMIT else "unsigned long long"


def col_varying(e: Expr, domain: tuple[int, ...], memo: dict[Expr, bool] | None = None) -> bool:
    """Does the value change along the domain's last dim (in a row kernel)?"""
    memo = {} if memo is None else memo
    if e in memo:
        return memo[e]
    if isinstance(e, Load):
        r = last_stride(e.view, domain) != 0
    elif isinstance(e, (Const, Reduce)):
        r = False
    else:
        r = any(col_varying(c, domain, memo) for c in children(e))
    memo[e] = r
    return r


class Emitter:
    """Writes an expression as `const float` statements; returns the C name (or literal) of its value.

    `leaf(load)` gives the C expression of a load; `fixed` maps nodes already computed elsewhere (row
    reduction results, hoisted row values) to their names.
    """

    def __init__(self, leaf: Callable[[Load], str], fixed: dict[Expr, str] | None = None, prefix: str = "v",
                 indent: str = "    "):
        self.leaf = leaf
        self.memo: dict[Expr, str] = dict(fixed or {})
        self.lines: list[str] = []
        self.prefix = prefix
        self.indent = indent
        self.n = 0

    def _var(self, code: str) -> str:
        name = f"{self.prefix}{self.n}"
        self.n += 1
        self.lines.append(f"{self.indent}const float {name} = {code};")
        return name

    def value(self, e: Expr) -> str:
        if e in self.memo:
            return self.memo[e]
        if isinstance(e, Const):
            out = ops.c_float(e.value)
        elif isinstance(e, Load):
            out = self._var(self.leaf(e))
        elif isinstance(e, Unary):
            out = self._var(ops.UNARY[e.op](self.value(e.x), e.params))
        elif isinstance(e, Binary):
            out = self._var(ops.BINARY[e.op](self.value(e.a), self.value(e.b)))
        elif isinstance(e, Select):
            c, a, b = self.value(e.cond), self.value(e.a), self.value(e.b)
            out = self._var(f"({c} != 0.0f ? {a} : {b})")
        elif isinstance(e, Reduce):
            raise KeyError("a reduction result used before its pass computed it")
        else:
            raise TypeError(type(e).__name__)
        self.memo[e] = out
        return out


def reduction_passes(exprs: list[Expr]) -> list[list[Reduce]]:
    """Reductions grouped by depth: a pass computes all reductions whose inputs need only earlier passes."""
    depth: dict[Expr, int] = {}

    def d(e: Expr) -> int:
        if e in depth:
            return depth[e]
        base = max((d(c) for c in children(e)), default=0)
        r = base + 1 if isinstance(e, Reduce) else base
        depth[e] = r
        return r

    reds: dict[Reduce, None] = {}
    for e in exprs:
        for n in walk(e):
            if isinstance(n, Reduce):
                reds[n] = None
    for r in reds:
        d(r)
    if not reds:
        return []
    levels = max(depth[r] for r in reds)
    return [[r for r in reds if depth[r] == k] for k in range(1, levels + 1)]


def reduce_identity(op: str) -> str:
    return {"sum": "0.0f", "max": "(-INFINITY)", "min": "INFINITY"}[op]


def reduce_combine(op: str, a: str, b: str) -> str:
    return {"sum": f"{a} + {b}", "max": f"fmaxf({a}, {b})", "min": f"fminf({a}, {b})"}[op]


def describe(e: Expr, depth: int = 0) -> str:
    """A short human-readable rendering of an expression, for kernel header comments."""
    if depth > 6:
        return "…"
    if isinstance(e, Const):
        return f"{e.value:g}"
    if isinstance(e, Load):
        return e.view.buffer
    if isinstance(e, Unary):
        p = ", ".join(f"{x:g}" for x in e.params)
        return f"{e.op}({describe(e.x, depth + 1)}{', ' + p if p else ''})"
    if isinstance(e, Binary):
        sym = {"add": "+", "sub": "-", "mul": "*", "div": "/"}.get(e.op)
        if sym:
            return f"({describe(e.a, depth + 1)} {sym} {describe(e.b, depth + 1)})"
        return f"{e.op}({describe(e.a, depth + 1)}, {describe(e.b, depth + 1)})"
    if isinstance(e, Select):
        return f"where({describe(e.cond, depth + 1)}, {describe(e.a, depth + 1)}, {describe(e.b, depth + 1)})"
    if isinstance(e, Reduce):
        return f"{e.op}_row({describe(e.x, depth + 1)})"
    return "?"


def short(text: str, limit: int = 150) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class KernelCode:
    """A generated kernel and how hiera_forward launches it."""

    source: str  # the __global__ function (and nothing else)
    launch: str  # C statements for hiera_forward (pointers are p_<buffer c_name>, the stream is `s`)
    reads: tuple[str, ...]  # buffers read
    writes: tuple[str, ...]  # buffers written
    temps: tuple[Buffer, ...] = ()  # workspace buffers the kernels add (a split row's partial results)


def pointer(buffer_c_name: str) -> str:
    return f"p_{buffer_c_name}"


def shape_guard(c_name: str, shape: tuple[int, ...]) -> str:
    """A line rejecting (return 2) a tensor whose shape differs from the one the code is specialized for."""
    conds = [f"{c_name}->ndim != {len(shape)}"] + [f"{c_name}->sizes[{i}] != {n}" for i, n in enumerate(shape)]
    return f"    if ({' || '.join(conds)}) return 2;  // specialized for {'x'.join(map(str, shape)) or 'a scalar'}"


def arg_guards(spec: Any, reads: Callable[[Any], bool], where: str) -> list[str]:
    """hiera_forward's first lines for any target: scalars (baked in as constants) and arguments the code does
    not `reads` silenced, then a shape guard per argument read and per output."""
    lines = []
    for a in spec.args:
        if a.tensor is None:
            lines.append(f"    (void){a.c_name};  // baked into the {where} as a constant")
        elif not reads(a):
            lines.append(f"    (void){a.c_name};  // not read by this computation")
        else:
            lines.append(shape_guard(a.c_name, tuple(a.tensor.shape)))
    for name, t in spec.outputs:
        lines.append(shape_guard(name, tuple(t.shape)))
    return lines


def entry_preamble(spec: Any, prog: Any, where: str, target: str = "cuda") -> list[str]:
    """The opening of hiera_forward shared by the CPU and CUDA targets: scalars (baked in as constants) and
    unread arguments silenced, shape guards, then a pointer per program buffer of its storage type on `target`
    ("cpu" | "cuda": codegen/storage.py). `where` names what the constants are baked into ("loops", "kernels")."""
    used = {b.name for b in prog.buffers}
    return arg_guards(spec, lambda a: a.name in used, where) + buffer_pointers(prog, target)


def buffer_pointers(prog: Any, target: str) -> list[str]:
    """A pointer per input, parameter and output buffer of the program, of its storage type on `target`."""
    from engine.agents.expert.codegen.storage import c_type

    lines = []
    for b in prog.buffers:
        if b.kind in ("input", "param", "buffer"):
            t = c_type(prog, b.name, target)
            lines.append(f"    const {t}* {pointer(b.c_name)} = (const {t}*){b.c_name}->data;")
        elif b.kind == "output":
            t = c_type(prog, b.name, target)
            lines.append(f"    {t}* {pointer(b.c_name)} = ({t}*){b.c_name}->data;")
    return lines
