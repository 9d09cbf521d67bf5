"""Workload analysis: what a task computes, what it must move, and how fast it could possibly run.

From the task's fx graph (TaskSpec.graph) each node is classed (GEMM, convolution, pointwise, reduction
or normalization, data movement, ...), the whole is classed (library-bound, memory-bound and fusable,
launch-bound, composite), the FLOPs and the minimal bytes are counted, and the roofline lower bound is
computed from the device's ceilings: measured ones once the evaluator has them (DeviceFacts.ceilings: the DRAM
copy rate and fp32 FMA rate engine/evaluate/ceilings.py measures), otherwise datasheet-level defaults.

The space-and-direction rules (space_direction.py) read only this; nothing here is keyed to a task's name.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from math import prod
from typing import Any

from contracts.device import DeviceFacts
from engine.agents.expert import ops
from engine.agents.expert.ir import Program
from engine.agents.expert.lowering import Unsupported, lower
from engine.agents.expert.stencil_recognize import StencilSpec, recognize
from engine.task.spec import GraphNode, TaskSpec

# Defaults when nothing was measured: H200 device-to-device copy moves about 4.3 TB/s counting bytes read
# and written; plain (non-tensor-core) fp32 peaks near 60 TFLOP/s in practice. A small CPU box: ~20 GB/s,
# ~50 GFLOP/s.
GPU_COPY_GBPS = 4300.0
GPU_FP32_TFLOPS = 60.0
CPU_COPY_GBPS = 20.0
CPU_FP32_TFLOPS = 0.05
LAUNCH_US_GPU = 5.0  # a kernel launch plus its tail, as seen from eager PyTorch
LAUNCH_US_CPU = 2.0

# FLOPs per element of each pointwise op (transcendentals cost several).
_TRANSCENDENTAL_FLOPS = 8


class NodeKind(str, enum.Enum):
    GEMM = "gemm"
    CONV = "conv"
    POOL = "pool"
    POINTWISE = "pointwise"
    REDUCTION = "reduction"
    DATA_MOVEMENT = "data_movement"
    META = "meta"
    IO = "io"
    OTHER = "other"


class WorkloadKind(str, enum.Enum):
    LIBRARY_BOUND = "library_bound"  # one GEMM/convolution dominates; a library is the baseline to match
    MEMORY_BOUND_FUSABLE = "memory_bound_fusable"  # pointwise/reduction work, bandwidth-bound, fusable
    LAUNCH_BOUND = "launch_bound"  # many small operators: launch overhead dominates
    COMPOSITE = "composite"  # several heavy operators with work between them (a small model)


@dataclass(frozen=True)
class OpInfo:
    name: str
    target: str
    kind: NodeKind
    shape: tuple[int, ...] | None
    flops: int
    bytes: int  # what the op moves when it runs alone (its tensor inputs read, its output written)


@dataclass(frozen=True)
class Ceilings:
    copy_gbps: float  # bytes read + written per second, /1e9
    fp32_tflops: float
    source: str  # "measured" | "default (H200)" | "default (CPU)"


@dataclass(frozen=True)
class Workload:
    ops: tuple[OpInfo, ...]
    counts: dict[str, int]  # node kind -> count (compute nodes only)
    kind: WorkloadKind
    # pointwise | row_reduction | reduction | gemm | gemm_epilogue | conv | stencil | data_movement | composite
    pattern: str
    flops: int
    min_bytes: int  # every input/parameter read once, every output written once
    eager_bytes: int  # bytes moved when every op runs as its own kernel
    roofline_ms: float  # max(min_bytes / bandwidth, flops / peak)
    bound: str  # memory | compute
    ceilings: Ceilings
    eager_estimate_ms: float  # sum of per-op rooflines plus launch overhead: what unfused eager costs at best
    program: Program | None  # the lowered program, when the generators can express the graph
    unsupported: str | None  # why not, otherwise
    notes: tuple[str, ...] = field(default=())
    # The task as a stencil (stencil_recognize.py: one convolution with no sum across channels), on the GPU only.
    stencil: StencilSpec | None = None
    # Hand-written attention (attention_hint): what the forward calls that looks like it, else None.
    attention: str | None = None

    @property
    def intensity(self) -> float:
        return self.flops / self.min_bytes if self.min_bytes else 0.0

    @property
    def fusion_gain(self) -> float:
        """How many times fewer bytes a fully fused version moves than eager (>= 1)."""
        return self.eager_bytes / self.min_bytes if self.min_bytes else 1.0

    @property
    def n_compute(self) -> int:
        return sum(v for k, v in self.counts.items() if k not in ("data_movement", "meta", "io"))

    @property
    def kb_kind(self) -> str:
        """The workload kind as the knowledge base's `fits` names it."""
        if self.kind is WorkloadKind.LAUNCH_BOUND:
            return "launch_bound"
        if self.pattern in ("gemm", "gemm_epilogue"):
            return "gemm"
        if self.pattern == "conv":
            return "conv"
        if self.pattern == "stencil":
            return "stencil"
        if self.pattern in ("row_reduction", "reduction"):
            return "reduction"
        if self.pattern in ("pointwise", "data_movement"):
            return self.pattern
        return "composite"

    def summary(self) -> str:
        c = ", ".join(f"{v} {k}" for k, v in sorted(self.counts.items()) if v)
        return (f"{self.pattern} ({self.kind.value}): {c or 'no compute ops'}; {self.flops / 1e9:.3g} GFLOP, "
                f"{self.min_bytes / 1e6:.4g} MB minimum ({self.fusion_gain:.1f}x that unfused); "
                # The planner's own count (every operator's FLOPs at the fp32 FMA rate), said as such: the speed of
                # light beside a timing (contracts/speed_of_light.py) counts only the FLOPs that must be done, at
                # the precision allowed, and may call the same module memory-bound.
                f"{self.bound}-bound by the planner's count (every operator at the fp32 FMA rate), roofline "
                f"{self.roofline_ms * 1e3:.4g} us on {self.ceilings.source} ceilings")


def ceilings(facts: DeviceFacts | Mapping[str, Any] | None, on_gpu: bool) -> Ceilings:
    measured = DeviceFacts.from_json(facts).ceilings
    bw = measured.dram_gbps if measured is not None else None  # bytes read + written, as copy_gbps counts
    fl = measured.fp32_gflops / 1e3 if measured is not None and measured.fp32_gflops else None
    if bw and fl:
        return Ceilings(float(bw), float(fl), "measured")
    if on_gpu:
        return Ceilings(float(bw or GPU_COPY_GBPS), float(fl or GPU_FP32_TFLOPS),
                        "measured" if bw or fl else "default (H200)")
    return Ceilings(float(bw or CPU_COPY_GBPS), float(fl or CPU_FP32_TFLOPS), "default (CPU)")


def node_kind(n: GraphNode) -> NodeKind:
    fam = ops.family(n.op, n.target)
    if n.op == "call_function" and n.target in ("max", "min") and len(n.args) > 1 and isinstance(n.args[1], dict):
        return NodeKind.POINTWISE  # torch.max(a, b) is elementwise
    if n.op == "call_module" and n.target.split(":", 1)[0].startswith("BatchNorm"):
        return NodeKind.POINTWISE  # in eval a per-channel affine map
    if n.op == "call_function" and n.target == "batch_norm" and not n.kwargs.get("training", False):
        return NodeKind.POINTWISE
    return NodeKind(fam)


def _shape_of(graph: dict[str, GraphNode], a: Any) -> tuple[int, ...] | None:
    if isinstance(a, dict) and "node" in a:
        src = graph.get(a["node"])
        return tuple(src.shape) if src is not None and src.shape is not None else None
    return None


def _tensor_inputs(graph: dict[str, GraphNode], n: GraphNode) -> list[tuple[int, ...]]:
    out = []
    for a in list(n.args) + list(n.kwargs.values()):
        items = a if isinstance(a, list) else [a]
        for it in items:
            s = _shape_of(graph, it)
            if s is not None:
                out.append(s)
    return out


def _param_shapes(spec: TaskSpec, module: str) -> list[tuple[int, ...]]:
    return [tuple(a.tensor.shape) for a in spec.args
            if a.tensor is not None and a.name.startswith(module + ".")]


def op_flops(spec: TaskSpec, graph: dict[str, GraphNode], n: GraphNode, kind: NodeKind) -> int:
    out = prod(n.shape) if n.shape else 0
    ins = _tensor_inputs(graph, n)
    if kind is NodeKind.GEMM:
        if n.op == "call_module":
            k = n.config.get("in_features") or (ins[0][-1] if ins and ins[0] else 0)
            return 2 * out * int(k)
        if n.target == "addmm" and len(ins) >= 2:
            return 2 * out * ins[1][-1]
        if ins:
            return 2 * out * (ins[0][-1] if ins[0] else 1)
        return 0
    if kind is NodeKind.CONV:
        w = _param_shapes(spec, n.target.split(":", 1)[1]) if n.op == "call_module" else ins[1:2]
        if w and len(w[0]) >= 2:
            return 2 * out * prod(w[0][1:])
        return 0
    if kind is NodeKind.POINTWISE:
        name = n.target.split(":", 1)[0] if n.op == "call_module" else n.target
        per = _TRANSCENDENTAL_FLOPS if (ops.UNARY_ALIASES.get(name, name) in ops.TRANSCENDENTAL
                                        or name.lower() in ("gelu", "sigmoid", "silu", "tanh", "mish")) else 1
        return out * per
    if kind in (NodeKind.REDUCTION, NodeKind.POOL):
        biggest = max((prod(s) for s in ins), default=out)
        return biggest * 5
    return 0


def analyze(spec: TaskSpec, facts: DeviceFacts | Mapping[str, Any] | None = None, on_gpu: bool = True
            ) -> Workload:
    ceil = ceilings(facts, on_gpu)
    bw = ceil.copy_gbps * 1e9
    # An fp64 task (every floating tensor float64, as in bench/stencil) runs at the fp64 rate: half the plain
    # fp32 rate on the data-centre GPUs these defaults describe (H100/H200, A100), and its elements are 8 bytes.
    floats = {a.tensor.dtype for a in spec.args if a.tensor is not None and a.tensor.dtype.startswith("float")}
    floats |= {t.dtype for _, t in spec.outputs if t.dtype.startswith("float")}
    fp64 = floats == {"float64"}
    half = bool(floats) and floats <= {"bfloat16", "float16"}  # a bf16 or fp16 module: 2-byte elements
    peak = ceil.fp32_tflops * 1e12 * (0.5 if fp64 else 1.0)
    launch_us = LAUNCH_US_GPU if on_gpu else LAUNCH_US_CPU
    nodes = spec.graph or ()
    graph = {n.name: n for n in nodes}
    infos: list[OpInfo] = []
    counts: dict[str, int] = {}
    eager_bytes = 0
    eager_ms = 0.0
    for n in nodes:
        kind = node_kind(n)
        if kind in (NodeKind.IO, NodeKind.META):
            continue
        fl = op_flops(spec, graph, n, kind)
        itemsize = 8 if fp64 else 2 if half else 4
        moved = 0
        if kind is not NodeKind.DATA_MOVEMENT or n.target in ("contiguous", "cat", "stack", "clone"):
            moved = sum(prod(s) for s in _tensor_inputs(graph, n)) * itemsize
            if n.op == "call_module":
                moved += sum(prod(s) for s in _param_shapes(spec, n.target.split(":", 1)[1])) * itemsize
            moved += (prod(n.shape) if n.shape else 0) * itemsize
        infos.append(OpInfo(n.name, n.target, kind, tuple(n.shape) if n.shape else None, fl, moved))
        counts[kind.value] = counts.get(kind.value, 0) + 1
        eager_bytes += moved
        if moved or fl:
            eager_ms += max(moved / bw, fl / peak) * 1e3 + launch_us * 1e-3
    flops = sum(o.flops for o in infos)
    min_bytes = spec.min_bytes()
    roof_ms = max(min_bytes / bw, flops / peak) * 1e3
    bound = "compute" if flops / peak > min_bytes / bw else "memory"
    program: Program | None = None
    unsupported: str | None = None
    try:
        program = lower(spec, convs=on_gpu)  # cuDNN calls exist only on the GPU
    except Unsupported as e:
        unsupported = str(e)
    except (ValueError, KeyError, IndexError, TypeError) as e:  # a graph shape the lowering did not foresee
        unsupported = f"the lowering failed on this graph ({type(e).__name__}: {e})"
    notes: list[str] = []
    if spec.graph is None:
        notes.append(f"not traceable by torch.fx: {spec.trace_error}")
    kind, pattern = _classify(counts, infos, flops, min_bytes, eager_ms, launch_us, peak, bw, program)
    stencil = recognize(spec) if on_gpu else None
    if isinstance(stencil, str):
        stencil = None
    if stencil is not None:
        pattern = "stencil"
        notes.append(f"a stencil: {stencil.describe()}")
    if eager_bytes > 1.5 * min_bytes:
        notes.append(f"eager moves {eager_bytes / max(min_bytes, 1):.1f}x the minimal bytes: fusion pays")
    attention = attention_hint(spec)
    if attention is not None:
        notes.append(f"hand-written attention: {attention}")
    return Workload(tuple(infos), counts, kind, pattern, flops, min_bytes, max(eager_bytes, min_bytes), roof_ms,
                    bound, ceil, eager_ms, program, unsupported, tuple(notes), stencil, attention)


# The products a hand-written attention is made of, as the probe's census and the fx graph name them; the rewrite
# (codegen/attention_rewrite.py) matches these (not einsum).
ATTENTION_PRODUCTS = frozenset({"matmul", "__matmul__", "bmm"})


# What may stand between attention's products and its softmax in the fx graph (scale, mask, casts, dropout).
_BETWEEN = frozenset({"mul", "truediv", "div", "add", "masked_fill", "float", "to", "type_as", "dropout", "Dropout",
                      "getattr", "__mul__", "__truediv__", "__add__"})


def attention_hint(spec: TaskSpec) -> str | None:
    """Whether the forward may hold hand-written attention, softmax(q @ k^T) @ v: in its fx graph a softmax computed
    from a matrix product whose result feeds another; where torch.fx cannot trace it, the probe's census saw a
    softmax called between two matrix products. Only a hint (a GEMM followed by a softmax is not one): whether a
    chain is attention is found when the candidate captures the forward, and a candidate that finds none says so
    and is not kept."""
    if spec.graph is not None:
        return _attention_in_graph(spec.graph)
    if spec.softmax_between_products:
        return "the forward calls softmax between two matrix products"
    return None


def _attention_in_graph(nodes: tuple[GraphNode, ...]) -> str | None:
    by_name = {n.name: n for n in nodes}
    users: dict[str, list[GraphNode]] = {}
    for n in nodes:
        for a in n.operands():
            users.setdefault(a, []).append(n)

    def op(n: GraphNode) -> str:
        return n.target.rsplit(":", 1)[0]

    def reaches_product(name: str, down: bool) -> bool:
        seen, frontier = set(), [name]
        while frontier:
            cur = frontier.pop()
            if cur in seen:
                continue
            seen.add(cur)
            nexts = [u.name for u in users.get(cur, [])] if down else by_name[cur].operands() if cur in by_name \
                else []
            for nxt in nexts:
                node = by_name.get(nxt)
                if node is None:
                    continue
                if op(node) in ATTENTION_PRODUCTS:
                    return True
                if op(node) in _BETWEEN:
                    frontier.append(nxt)
        return False

    for n in nodes:
        if op(n) == "softmax" and reaches_product(n.name, down=False) and reaches_product(n.name, down=True):
            return f"softmax ({n.name}) between two matrix products in the forward's graph"
    return None




def _classify(counts: dict[str, int], infos: list[OpInfo], flops: int, min_bytes: int, eager_ms: float,
              launch_us: float, peak: float, bw: float, program: Program | None) -> tuple[WorkloadKind, str]:
    heavy = counts.get("gemm", 0) + counts.get("conv", 0)
    pointwise = counts.get("pointwise", 0)
    reductions = counts.get("reduction", 0) + counts.get("pool", 0)
    others = counts.get("other", 0)
    n_compute = heavy + pointwise + reductions + others
    launches = sum(1 for o in infos if o.bytes or o.flops)
    # Launch-bound: the work itself is tiny next to the cost of launching each op separately.
    if launches >= 4 and launches * launch_us * 1e-3 > 0.5 * eager_ms:
        return WorkloadKind.LAUNCH_BOUND, "composite" if heavy > 1 else _pattern(counts, program)
    if heavy >= 2 or (heavy == 1 and (reductions + pointwise) >= 6):
        return WorkloadKind.COMPOSITE, "composite"
    if heavy == 1:
        if counts.get("conv"):
            kind = WorkloadKind.LIBRARY_BOUND
            return kind, "conv"
        return WorkloadKind.LIBRARY_BOUND, "gemm_epilogue" if n_compute > 1 else "gemm"
    if n_compute == 0:
        return WorkloadKind.MEMORY_BOUND_FUSABLE, "data_movement"
    return WorkloadKind.MEMORY_BOUND_FUSABLE, _pattern(counts, program)


def _pattern(counts: dict[str, int], program: Program | None) -> str:
    if counts.get("conv"):
        return "conv"
    if counts.get("gemm"):
        return "gemm_epilogue"
    if counts.get("reduction") or counts.get("pool"):
        # Row reductions are what the generators express (any reduced dims are moved last first).
        return "row_reduction" if program is not None else "reduction"
    if counts.get("pointwise"):
        return "pointwise"
    return "data_movement"
