"""Lower a task's fx graph (TaskSpec.graph) into the kernel IR (ir.Program).

Values flow lazily: a pointwise op does not produce a kernel, it builds an expression over loads of
buffers, so a chain of any length ends up in one fused stage. A value is materialized (written to a
temporary buffer by a stage of its own) only where it must be: as an operand of a matrix product, when a
view of it cannot be expressed by rewriting its loads, or when a reduction needs it over another domain.
Composite operators are decomposed into that vocabulary (softmax = exp(x - max) / sum, layer norm = two
row reductions and an affine map, batch norm in eval = a per-channel affine map ...).

Scalar constants of the module are baked into the expressions as literals: fx records them as literals,
and the contract fixes them for the task (the kernel still receives them, by the ABI, and ignores them).

The vocabulary is a table of handlers, one per operator name (table.py), in modules named for what they
hold: meta.py (shape bookkeeping), views.py, pointwise.py, reductions.py, pooling.py, norms.py, linear.py,
conv.py.
`lower` walks the graph and hands each call to its handler; builder.py holds what the handlers build with.
Anything outside the vocabulary raises `Unsupported` with a sentence a person can read; the rules then fall
back to the PyTorch-level candidates and say why.
"""

from __future__ import annotations

from dataclasses import replace

from engine.agents.expert.ir import (
    ConvStage,
    FusedStage,
    GemmStage,
    Load,
    Program,
    Stage,
    stage_read_names,
    stage_writes,
)

# The handler modules register their operators in the table on import.
from engine.agents.expert.lowering import conv, linear, meta, norms, pointwise, pooling, reductions, views  # noqa: F401
from engine.agents.expert.lowering.builder import Lowering
from engine.agents.expert.lowering.table import FUNCTIONS, MODULES, Call, ModuleCall
from engine.agents.expert.lowering.values import Unsupported, Value
from engine.task.spec import GraphNode, TaskSpec

__all__ = ["Unsupported", "lower"]


def lower(spec: TaskSpec, convs: bool = False) -> Program:
    """The task's graph as a Program; raises Unsupported with the reason. convs: lower 2-D convolutions to
    ConvStages (cuDNN calls, for GPU programs); without it a convolution is Unsupported."""
    if spec.graph is None:
        raise Unsupported(f"the module could not be traced by torch.fx ({spec.trace_error})")
    lw = Lowering(spec, convs=convs)
    out_node = None
    for n in spec.graph:
        if n.op == "output":
            out_node = n
            continue
        lw.values[n.name] = _node_value(lw, n)
    if out_node is None:
        raise Unsupported("the graph has no output")
    lw.outputs(out_node.args)
    prog = Program(tuple(lw.buffers.values()), tuple(lw.stages))
    return _simplify(prog, spec)


def _node_value(lw: Lowering, n: GraphNode) -> Value:
    """One node's value: an input or parameter buffer, or its call lowered by the op's handler."""
    args = [lw.arg(a) for a in n.args]
    kwargs = {k: lw.arg(v) for k, v in n.kwargs.items()}
    shape = tuple(n.shape) if n.shape is not None else None
    if n.op == "placeholder":
        # Placeholders come in the forward's parameter order, which is the contract's input order.
        # (get_inputs() entries, tensors and numbers alike, are the contract's first arguments).
        idx = lw.n_inputs
        lw.n_inputs += 1
        if idx >= len(lw.spec.args) or lw.spec.args[idx].role not in ("input", "scalar"):
            raise Unsupported(f"placeholder {n.name} has no matching input")
        if lw.spec.args[idx].tensor is None:
            raise Unsupported(f"the forward takes a Python number ({lw.spec.args[idx].name}) as an input")
        return lw.arg_buffer(lw.spec.args[idx].name, "input")
    if n.op == "get_attr":
        arg = next((a for a in lw.spec.args if a.name == n.target), None)
        kind = arg.role if arg is not None else "parameter"
        return lw.arg_buffer(n.target, "param" if kind == "parameter" else kind)
    if n.op == "call_module":
        mtype, mname = n.target.split(":", 1)
        if mtype not in MODULES:
            raise Unsupported(f"the module {mtype}")
        return MODULES[mtype](lw, ModuleCall(mtype, mname, n.config, args[0] if args else None, shape))
    if n.op in ("call_function", "call_method"):
        if n.target not in FUNCTIONS:
            raise Unsupported(f"the operator {n.target}")
        return FUNCTIONS[n.target](lw, Call(n.target, args, kwargs, shape))
    raise Unsupported(f"fx op {n.op}")


def _simplify(prog: Program, spec: TaskSpec) -> Program:
    """Let a stage write straight into an output its result is only copied to, unchanged."""
    stages = list(prog.stages)
    buffers = {b.name: b for b in prog.buffers}
    changed = True
    while changed:
        changed = False
        for i, st in enumerate(stages):
            if not isinstance(st, FusedStage) or len(st.outputs) != 1:
                continue
            (oname, e), = st.outputs
            if not isinstance(e, Load) or not e.view.is_contiguous() or e.view.offset != 0:
                continue
            src = buffers.get(e.view.buffer)
            if src is None or src.kind != "temp" or buffers[oname].numel != src.numel:
                continue
            producer = next((j for j, s in enumerate(stages) if src.name in stage_writes(s)), None)
            if producer is None or _reads(stages, src.name) != 1:
                continue
            p = stages[producer]
            if isinstance(p, (GemmStage, ConvStage)):
                stages[producer] = replace(p, out=oname)
            else:
                stages[producer] = replace(p, outputs=tuple((oname if n == src.name else n, x) for n, x in p.outputs))
            del stages[i]
            del buffers[src.name]
            changed = True
            break
    # Drop buffers nothing reads or writes (e.g. parameters only used through a folded view).
    return Program(tuple(buffers.values()), tuple(stages))


def _reads(stages: list[Stage], name: str) -> int:
    return sum(stage_read_names(st).count(name) for st in stages)
