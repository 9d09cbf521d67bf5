"""The op vocabulary of the lowering: one handler per operator name, registered in a table.

fx names a call_function/call_method node by its target's name ("relu", "add", "softmax") and a
call_module node by its module type ("Linear", "LayerNorm"); each name has exactly one handler, and a name
with none is outside the vocabulary (the builder raises Unsupported saying which). A handler receives the
builder and the call, with its arguments already lowered to values, and returns the node's value.

Registering a name twice is an error at import, so the table cannot hold two readings of one operator.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.agents.expert.lowering.builder import Lowering
from engine.agents.expert.lowering.values import Value

_MISSING = object()


@dataclass(frozen=True)
class Call:
    """A call_function or call_method node: its target's name and its lowered arguments."""

    name: str
    args: list[Any]
    kw: dict[str, Any]
    shape: tuple[int, ...] | None  # the traced output shape, when the probe recorded one

    @property
    def x(self) -> Value:
        """The first operand (the tensor a method is called on)."""
        return self.args[0] if self.args else self.kw.get("input")

    def get(self, i: int, key: str, default: Any = _MISSING) -> Any:
        """Argument i if it was given by position, else the keyword `key` (required without a default)."""
        if len(self.args) > i:
            return self.args[i]
        return self.kw[key] if default is _MISSING else self.kw.get(key, default)


@dataclass(frozen=True)
class ModuleCall:
    """A call_module node: the module's type and qualified name, its config, its input."""

    type: str  # e.g. "LayerNorm"
    name: str  # e.g. "blocks.0.norm": its parameters are the contract arguments "<name>.weight", ...
    config: dict[str, Any]
    x: Value
    shape: tuple[int, ...] | None


FunctionHandler = Callable[[Lowering, Call], Value]
ModuleHandler = Callable[[Lowering, ModuleCall], Value]

FUNCTIONS: dict[str, FunctionHandler] = {}
MODULES: dict[str, ModuleHandler] = {}


def _register(table: dict[str, Any], names: tuple[str, ...]) -> Callable[[Any], Any]:
    def add(handler: Any) -> Any:
        for name in names:
            if name in table:
                raise ValueError(f"the lowering registers {name!r} twice ({table[name].__name__}, {handler.__name__})")
            table[name] = handler
        return handler

    return add


def lowers(*names: str) -> Callable[[FunctionHandler], FunctionHandler]:
    """Register a handler for call_function/call_method nodes of these names."""
    return _register(FUNCTIONS, names)


def lowers_module(*types: str) -> Callable[[ModuleHandler], ModuleHandler]:
    """Register a handler for call_module nodes of these module types."""
    return _register(MODULES, types)
