"""A run's opener: one cheap, safe candidate evaluated first, so that a whole model has a valid answer within seconds
and the search improves on it, instead of the first answer waiting for the search's costliest round.

The opener is the task's own forward captured once into a CUDA graph and replayed (codegen/torch_variants.py):
the same kernels as eager, so it is as exact as the reference, nothing to compile, and on a module of many
operators it removes the launch gaps between them. It is played where that can pay and where it is allowed:
- on a CUDA device (no CPU graphs), with the libraries + PyTorch space allowed (a fixed pure-CUDA run gets none);
- on a module of many operators (MANY_OPS compute operators in its traced graph) or one torch.fx cannot trace
  (recurrent layers, control flow: whole models, mostly). A single large operator gains nothing from a graph,
  and a round's slot is worth more to the search there.
A capture that fails (an operator that syncs with the host) is an invalid candidate like any other: a second or
two, and the search goes on.
"""

from __future__ import annotations

from contracts.vocabulary import Space
from engine.agents.base import Context
from engine.agents.expert.analysis import NodeKind, node_kind
from engine.agents.expert.codegen.torch_variants import TorchVariant, modelnew_source
from engine.evaluate.outcome import Candidate, CandidateKind

# Compute operators (not views, reshapes or the graph's inputs) from which a module counts as one of many
# operators: a block of a model (an MLP of three layers with activations, an attention block) has more.
MANY_OPS = 6
STRATEGY = "opener: CUDA graph replay"
VARIANT = TorchVariant("cudagraph")


# Layers that are many kernels each however they appear in the graph: one call_module node of a recurrent layer
# runs a step (several kernels) per time step and layer, an encoder layer or attention module its own block.
BLOCK_MODULES = ("LSTM", "GRU", "RNN", "Transformer", "MultiheadAttention")


def compute_ops(ctx: Context) -> int | None:
    """The compute operators of the task's traced graph (a block module counting as MANY_OPS); None when it could
    not be traced."""
    if ctx.spec.graph is None:
        return None
    skip = (NodeKind.IO, NodeKind.META, NodeKind.DATA_MOVEMENT)
    blocks = sum(1 for n in ctx.spec.graph
                 if n.op == "call_module" and n.target.split(":", 1)[0].startswith(BLOCK_MODULES))
    return sum(1 for n in ctx.spec.graph if node_kind(n) not in skip) + blocks * MANY_OPS


def wanted(ctx: Context) -> bool:
    """Whether this run opens with the graph replay (see the module's docstring)."""
    if not ctx.on_gpu or Space.LIBRARIES_PYTORCH not in ctx.allowed_spaces:
        return False
    ops = compute_ops(ctx)
    return ops is None or ops >= MANY_OPS


def opener(ctx: Context, origin: str) -> Candidate | None:
    """The opener's candidate for this run, or None where it is not played."""
    if not wanted(ctx):
        return None
    source = modelnew_source(ctx.spec, VARIANT, strategy=STRATEGY)
    return Candidate("opener", CandidateKind.MODELNEW, source, Space.LIBRARIES_PYTORCH, origin=origin,
                     note=f"{STRATEGY} ({VARIANT.label()})")
