"""Integer bookkeeping that fx records as nodes: x.size(0), x.shape, x.dim(), and arithmetic on those numbers.

They lower to Python numbers and tuples, which later ops read as shapes or bake in as constants.
"""

from __future__ import annotations

from math import prod

from engine.agents.expert.lowering.builder import Lowering
from engine.agents.expert.lowering.table import Call, lowers
from engine.agents.expert.lowering.values import Unsupported, Value


@lowers("size")
def _size(lw: Lowering, c: Call) -> Value:
    s = lw.shape_of(c.x)
    d = c.get(1, "dim", None)
    return s[int(d)] if d is not None else tuple(s)


@lowers("dim")
def _dim(lw: Lowering, c: Call) -> Value:
    return len(lw.shape_of(c.x))


@lowers("numel")
def _numel(lw: Lowering, c: Call) -> Value:
    return prod(lw.shape_of(c.x))


@lowers("getattr")
def _getattr(lw: Lowering, c: Call) -> Value:
    attr = c.args[1]
    if attr == "shape":
        return tuple(lw.shape_of(c.x))
    if attr in ("T", "mT"):
        n = len(lw.shape_of(c.x))
        return lw.permute(c.x, list(reversed(range(n)))) if attr == "T" else lw.transpose(c.x, -2, -1)
    if attr == "dtype":
        return "float32"
    raise Unsupported(f"attribute .{attr}")


# A division by zero gives 0, not an error: the number is a shape the tensor ops that read it will check.
_ARITHMETIC = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
               "floordiv": lambda a, b: a // b if b else 0, "truediv": lambda a, b: a / b if b else 0,
               "mod": lambda a, b: a % b if b else 0}


def number_arithmetic(c: Call) -> Value | None:
    """The result of add/sub/mul/floordiv/truediv/mod on two Python numbers; None when it is not that."""
    if c.name in _ARITHMETIC and all(isinstance(a, (int, float)) for a in c.args[:2]) and len(c.args) == 2:
        return _ARITHMETIC[c.name](*c.args)
    return None


@lowers("floordiv", "mod")
def _integer_only(lw: Lowering, c: Call) -> Value:
    out = number_arithmetic(c)
    if out is None:
        raise Unsupported(f"the operator {c.name}")
    return out
