"""The kernel IR the expert's generators share: strided views, element expressions, stages, programs.

A task's fx graph is lowered (lowering/) into a `Program`: an ordered list of stages over named
buffers. A `FusedStage` computes one or more output expressions per element of its domain in a single
kernel (pointwise chains, and row reductions over the last dim of the domain); a `GemmStage` is one
(batched) matrix product handed to cuBLAS or to a generated tiled kernel; a `ConvStage` is one 2-D
convolution handed to cuDNN (GPU programs only: no generator writes a convolution itself). Every leaf
of an expression is a `Load` through a strided `View` of a buffer, so reshapes, transposes, slices and
broadcasts are rewrites of views, never copies.

Everything here is a frozen dataclass: structural equality gives common-subexpression elimination for
free (equal subtrees hash equal) and makes programs safe to share between variant generators.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from math import prod


def contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides = []
    acc = 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= s
    return tuple(reversed(strides))


@dataclass(frozen=True)
class View:
    """How a leaf reads a buffer: element (i0, i1, ...) is at offset + sum(i_d * strides[d])."""

    buffer: str
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int = 0

    @staticmethod
    def contiguous(buffer: str, shape: tuple[int, ...]) -> View:
        return View(buffer, tuple(shape), contiguous_strides(tuple(shape)), 0)

    @property
    def numel(self) -> int:
        return prod(self.shape)

    def is_contiguous(self) -> bool:
        return all(st == cs for st, cs, n in zip(self.strides, contiguous_strides(self.shape), self.shape) if n != 1)

    def expand(self, shape: tuple[int, ...]) -> View:
        """Broadcast (right-aligned, numpy rules) to `shape`: broadcast dims get stride 0."""
        shape = tuple(shape)
        lead = len(shape) - len(self.shape)
        if lead < 0:
            raise ValueError(f"cannot broadcast {self.shape} to {shape}")
        strides = [0] * lead
        for d, (n, st) in enumerate(zip(self.shape, self.strides)):
            target = shape[lead + d]
            if n == target:
                strides.append(st if n != 1 else 0)
            elif n == 1:
                strides.append(0)
            else:
                raise ValueError(f"cannot broadcast {self.shape} to {shape}")
        return View(self.buffer, shape, tuple(strides), self.offset)

    def permute(self, perm: tuple[int, ...]) -> View:
        return View(self.buffer, tuple(self.shape[p] for p in perm), tuple(self.strides[p] for p in perm),
                    self.offset)

    def slice(self, dim: int, start: int, stop: int, step: int = 1) -> View:
        n = self.shape[dim]
        start, stop, step = slice(start, stop, step).indices(n)
        length = max(0, (stop - start + (step - 1)) // step)
        shape = list(self.shape)
        strides = list(self.strides)
        shape[dim] = length
        strides[dim] = self.strides[dim] * step
        return View(self.buffer, tuple(shape), tuple(strides), self.offset + start * self.strides[dim])

    def select(self, dim: int, index: int) -> View:
        index = index % self.shape[dim]
        return View(self.buffer, self.shape[:dim] + self.shape[dim + 1:],
                    self.strides[:dim] + self.strides[dim + 1:], self.offset + index * self.strides[dim])

    def reshape(self, shape: tuple[int, ...]) -> View | None:
        """A view with the new shape over the same elements, or None when it would need a copy.

        torch's own rule (ATen computeStride): the old dims are cut into chunks that are contiguous among
        themselves, and each chunk must map onto whole new dims.
        """
        shape = tuple(shape)
        if prod(shape) != self.numel:
            return None
        if self.numel == 0 or not self.shape:
            return View(self.buffer, shape, contiguous_strides(shape), self.offset)
        new_strides = [0] * len(shape)
        view_d = len(shape) - 1
        chunk_base = self.strides[-1]
        tensor_numel = 1
        view_numel = 1
        for d in range(len(self.shape) - 1, -1, -1):
            tensor_numel *= self.shape[d]
            if d == 0 or (self.shape[d - 1] != 1 and self.strides[d - 1] != tensor_numel * chunk_base):
                while view_d >= 0 and (view_numel < tensor_numel or shape[view_d] == 1):
                    new_strides[view_d] = view_numel * chunk_base
                    view_numel *= shape[view_d]
                    view_d -= 1
                if view_numel != tensor_numel:
                    return None
                if d > 0:
                    chunk_base = self.strides[d - 1]
                    tensor_numel = 1
                    view_numel = 1
        if view_d != -1:
            return None
        return View(self.buffer, shape, tuple(new_strides), self.offset)


# --- element expressions --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Expr:
    shape: tuple[int, ...]


@dataclass(frozen=True)
class Const(Expr):
    value: float = 0.0


@dataclass(frozen=True)
class Load(Expr):
    view: View = field(default_factory=lambda: View("", (), ()))


@dataclass(frozen=True)
class Unary(Expr):
    op: str = ""
    x: Expr = field(default_factory=lambda: Const(()))
    params: tuple[float, ...] = ()


@dataclass(frozen=True)
class Binary(Expr):
    op: str = ""
    a: Expr = field(default_factory=lambda: Const(()))
    b: Expr = field(default_factory=lambda: Const(()))


@dataclass(frozen=True)
class Select(Expr):
    """cond != 0 ? a : b (torch.where over a comparison)."""

    cond: Expr = field(default_factory=lambda: Const(()))
    a: Expr = field(default_factory=lambda: Const(()))
    b: Expr = field(default_factory=lambda: Const(()))


@dataclass(frozen=True)
class Reduce(Expr):
    """A reduction of `x` over its last dim; the result keeps that dim with size 1 (keepdim)."""

    op: str = "sum"  # sum | max | min
    x: Expr = field(default_factory=lambda: Const(()))


def _cached_hash(e: Expr) -> int:
    """The node's hash, computed once (its children's are cached too). A frozen dataclass's own __hash__
    hashes the whole subtree on every call: walk() over a MobileNetV2's fused expressions spent 38 of the
    expert's 60 s deciding round 1 in hash() on the 2-core machine. Kept out of pickles (_HASH is per process)."""
    h = e.__dict__.get(_HASH)
    if h is None:
        h = hash((type(e), *(getattr(e, name) for name in _FIELDS[type(e)])))
        object.__setattr__(e, _HASH, h)
    return h


def _state_without_hash(e: Expr) -> dict[str, object]:
    return {k: v for k, v in e.__dict__.items() if k != _HASH}


_HASH = "_hash"
_FIELDS: dict[type, tuple[str, ...]] = {}
for _cls in (Const, Load, Unary, Binary, Select, Reduce):
    _FIELDS[_cls] = tuple(f.name for f in fields(_cls))
    _cls.__hash__ = _cached_hash  # type: ignore[method-assign,assignment]
    _cls.__getstate__ = _state_without_hash  # type: ignore[attr-defined]


def children(e: Expr) -> tuple[Expr, ...]:
    if isinstance(e, Unary):
        return (e.x,)
    if isinstance(e, Binary):
        return (e.a, e.b)
    if isinstance(e, Select):
        return (e.cond, e.a, e.b)
    if isinstance(e, Reduce):
        return (e.x,)
    return ()


def walk(e: Expr) -> list[Expr]:
    """Every distinct node under e (e included), children before parents."""
    seen: dict[Expr, None] = {}

    def visit(n: Expr) -> None:
        if n in seen:
            return
        for c in children(n):
            visit(c)
        seen[n] = None

    visit(e)
    return list(seen)


def loads(e: Expr) -> list[Load]:
    return [n for n in walk(e) if isinstance(n, Load)]


def reductions(e: Expr) -> list[Reduce]:
    return [n for n in walk(e) if isinstance(n, Reduce)]


def with_children(e: Expr, kids: tuple[Expr, ...], shape: tuple[int, ...] | None = None) -> Expr:
    shape = e.shape if shape is None else shape
    if isinstance(e, Unary):
        return replace(e, x=kids[0], shape=shape)
    if isinstance(e, Binary):
        return replace(e, a=kids[0], b=kids[1], shape=shape)
    if isinstance(e, Select):
        return replace(e, cond=kids[0], a=kids[1], b=kids[2], shape=shape)
    if isinstance(e, Reduce):
        return replace(e, x=kids[0], shape=shape)
    return replace(e, shape=shape)


# --- stages and programs ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Buffer:
    name: str
    shape: tuple[int, ...]
    dtype: str  # float32 | int64 ...
    kind: str  # input | param | output | temp
    c_name: str  # the contract's parameter name (temps: a local name)

    @property
    def numel(self) -> int:
        return prod(self.shape)


@dataclass(frozen=True)
class FusedStage:
    """One kernel: for every element of `domain`, compute each output expression.

    Without reductions the domain is iterated flat. With reductions (all over the domain's last dim) it
    is iterated as rows: reduction results are per-row values, outputs may be per element (shape of the
    domain) or per row (the domain with its last dim 1).
    """

    domain: tuple[int, ...]
    outputs: tuple[tuple[str, Expr], ...]  # (buffer written contiguously, expression)

    @property
    def has_reduction(self) -> bool:
        return any(reductions(e) for _, e in self.outputs)

    @property
    def rows(self) -> int:
        return prod(self.domain[:-1]) if self.domain else 1

    @property
    def row_len(self) -> int:
        return self.domain[-1] if self.domain else 1


@dataclass(frozen=True)
class GemmStage:
    """out[b] = alpha * a[b] @ b[b], row-major semantics.

    a: View of shape (*batch, M, K); b: View of shape (*batch, K, N); out written contiguous (*batch, M, N).
    Each operand's last two dims must have unit stride in one of them (row-major or transposed).
    """

    a: View
    b: View
    out: str
    m: int
    n: int
    k: int
    batch: tuple[int, ...] = ()
    alpha: float = 1.0
    # Set only by the cuBLASLt and tiled generators when they fold the following bias add (and ReLU)
    # into the product: out = act(alpha * a @ b + bias), bias broadcast along the rows.
    bias: View | None = None
    activation: str = ""  # "" | relu

    @property
    def flops(self) -> int:
        return 2 * self.m * self.n * self.k * prod(self.batch)


@dataclass(frozen=True)
class ConvStage:
    """out = conv2d(x, weight): cross-correlation over NCHW, zero padding, no bias (a bias add stays in the
    pointwise stage after it, where the rest of the epilogue is fused). x and weight are whole contiguous
    buffers; out is written contiguous (n, k, out_h, out_w)."""

    x: str
    weight: str
    out: str
    n: int
    c: int
    h: int
    w: int
    k: int  # output channels
    r: int  # kernel height
    s: int  # kernel width
    stride: tuple[int, int] = (1, 1)
    padding: tuple[int, int] = (0, 0)
    dilation: tuple[int, int] = (1, 1)
    groups: int = 1

    @property
    def out_h(self) -> int:
        return (self.h + 2 * self.padding[0] - self.dilation[0] * (self.r - 1) - 1) // self.stride[0] + 1

    @property
    def out_w(self) -> int:
        return (self.w + 2 * self.padding[1] - self.dilation[1] * (self.s - 1) - 1) // self.stride[1] + 1

    @property
    def out_shape(self) -> tuple[int, int, int, int]:
        return (self.n, self.k, self.out_h, self.out_w)

    @property
    def flops(self) -> int:
        return 2 * self.n * self.k * self.out_h * self.out_w * (self.c // self.groups) * self.r * self.s


Stage = FusedStage | GemmStage | ConvStage


def stage_writes(st: Stage) -> tuple[str, ...]:
    return tuple(n for n, _ in st.outputs) if isinstance(st, FusedStage) else (st.out,)


def stage_read_names(st: Stage) -> list[str]:
    """The buffer of every read a stage makes: operands, and each distinct load of its expressions."""
    if isinstance(st, GemmStage):
        return [st.a.buffer, st.b.buffer] + ([st.bias.buffer] if st.bias is not None else [])
    if isinstance(st, ConvStage):
        return [st.x, st.weight]
    return [ld.view.buffer for _, e in st.outputs for ld in loads(e)]


def stage_reads(st: Stage) -> tuple[str, ...]:
    """The buffers a stage reads (each once, in order)."""
    return tuple(dict.fromkeys(stage_read_names(st)))


@dataclass(frozen=True)
class Program:
    buffers: tuple[Buffer, ...]
    stages: tuple[Stage, ...]

    def buffer(self, name: str) -> Buffer:
        for b in self.buffers:
            if b.name == name:
                return b
        raise KeyError(name)

    @property
    def temps(self) -> tuple[Buffer, ...]:
        return tuple(b for b in self.buffers if b.kind == "temp")

    @property
    def gemms(self) -> tuple[GemmStage, ...]:
        return tuple(s for s in self.stages if isinstance(s, GemmStage))

    @property
    def convs(self) -> tuple[ConvStage, ...]:
        return tuple(s for s in self.stages if isinstance(s, ConvStage))

    @property
    def fused(self) -> tuple[FusedStage, ...]:
        return tuple(s for s in self.stages if isinstance(s, FusedStage))
