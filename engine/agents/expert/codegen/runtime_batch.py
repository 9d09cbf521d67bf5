"""Code that takes the batch at run time (issue 38): which of a program's sizes follow the batch, found by
lowering the task at other batch sizes and comparing what each stage's code would be.

A task's Program is lowered at the batch of get_inputs(), so every size in it is a number. To write a loop
whose trip count is the batch's (hiera_nb, read from the tensors when called), a generator must know that the
stage's extent (its elements, its rows, a product's rows) is `per_sample * B` and that nothing else in its code
depends on B: an
offset that divides by a size holding the batch, a view that moves the batch out of the outer dim, a
reduction over the batch. Rather than reason about every view, this module asks the generator itself: the
probe traced the graph at three odd batch sizes (contracts/shapes.py generic_sizes), the task is lowered at
each, and each stage is rendered with its extent left as a symbol. A stage takes the batch at run time when its
rendered code is the same text at every size and its extent is a whole multiple of each size; a program does
when all its stages do and every buffer is either batch-sized (a whole multiple of B) or fixed. Anything else
keeps the code specialised to the given shapes, and says why.

The check reads only the program, the generator's own rendering (a callable) and the task's sizes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import prod

from engine.agents.expert.ir import ConvStage, FusedStage, GemmStage, Program, Stage
from engine.agents.expert.lowering.values import Unsupported
from engine.task.spec import TaskSpec

# What a generator renders one stage as, its extent written as the symbol it is given.
StageRender = Callable[[Program, int, str], str]

MAX_BATCH = 2**31 - 1  # the batch is an int64 in the ABI; no generated code takes more than this
EXTENT = "HIERA_EXTENT"  # the symbol a stage's extent is rendered as while comparing


@dataclass(frozen=True)
class RuntimeBatch:
    """How a program's sizes follow the batch: `batch` is get_inputs()'s; per stage, its extent (elements of a
    pointwise stage, rows of a row stage) per batch sample; per temporary buffer, its elements per sample (0:
    fixed, `fixed_temps` holds those). `max_batch` is the largest batch the code takes (its index arithmetic
    fits); `sizes` the other batch sizes its code was compared at."""

    batch: int
    per_sample: tuple[int, ...]
    temp_per_sample: dict[str, int]
    max_batch: int
    sizes: tuple[int, ...]

    def extent(self, stage: int, nb: str = "hiera_nb") -> str:
        """The C expression of a stage's extent at batch `nb` (a long long)."""
        return f"((long long){nb} * {self.per_sample[stage]}LL)"


def stage_extent(st: Stage) -> int:
    """What a stage iterates over: rows of a row stage, elements of a pointwise one, the batch count of a batched
    product or the rows M of one without, the images N of a convolution."""
    if isinstance(st, ConvStage):
        return st.n
    if isinstance(st, GemmStage):
        return prod(st.batch) if st.batch else st.m
    assert isinstance(st, FusedStage)
    return st.rows if st.has_reduction else prod(st.domain)


def programs_at_other_sizes(spec: TaskSpec, lower: Callable[[TaskSpec], Program]) -> dict[int, Program] | str:
    """The program lowered at each batch size the probe traced the graph at (shapes.generic_sizes), or why not."""
    if spec.batch is None:
        return f"the task fixes its shapes ({spec.batch_note})"
    if not spec.batch.graphs:
        return "the graph was not traced at other batch sizes (the probe ran out of time on the meta device)"
    out: dict[int, Program] = {}
    for size in sorted(spec.batch.graphs):
        try:
            out[size] = lower(spec.at_batch(size))
        except (Unsupported, ValueError, KeyError, IndexError, TypeError) as e:  # what analyze() catches too
            return f"the graph does not lower at batch {size} ({type(e).__name__}: {e})"
    return out


def runtime_batch(spec: TaskSpec, prog: Program, others: dict[int, Program], render: StageRender,
                  index_limit: int, products: bool = False, convs: bool = False) -> RuntimeBatch | str:
    """The program's sizes as functions of the batch, when every stage's code is the same at every size but for
    its extent (see the module's docstring); otherwise why the code stays specialised. `index_limit`: the largest
    element index the generated code may form (the batch is capped so that every buffer stays under it);
    `products`, `convs`: the generator renders matrix products, convolutions with their extent too (else they keep
    fixed sizes)."""
    if spec.batch is None:
        return f"the task fixes its shapes ({spec.batch_note})"
    b = spec.batch.size
    if not others:
        return "no other batch size to compare the code at"
    per_sample: list[int] = []
    for i, st in enumerate(prog.stages):
        if (not isinstance(st, (FusedStage, GemmStage, ConvStage)) or (isinstance(st, GemmStage) and not products)
                or (isinstance(st, ConvStage) and not convs)):
            return f"stage {i} is a {type(st).__name__}: its generators take fixed sizes"
        ext = stage_extent(st)
        if ext % b:
            return f"stage {i}'s extent {ext} is not a multiple of the batch {b}"
        per_sample.append(ext // b)
        code = render(prog, i, EXTENT)
        for size, other in others.items():
            if len(other.stages) != len(prog.stages):
                return f"the program has {len(other.stages)} stage(s) at batch {size}, {len(prog.stages)} at {b}"
            ost = other.stages[i]
            if type(ost) is not type(st) or stage_extent(ost) != per_sample[-1] * size:
                return f"stage {i}'s extent does not follow the batch ({ext} at {b}, not a multiple at {size})"
            if render(other, i, EXTENT) != code:
                return f"stage {i}'s code depends on the batch beyond its extent (a view or reduction across it)"
    temps: dict[str, int] = {}
    biggest = 1
    for buf in prog.buffers:
        sized = {size: o.buffer(buf.name).numel for size, o in others.items() if _has(o, buf.name)}
        if len(sized) != len(others):
            return f"buffer {buf.name} is not in the program at every batch size"
        if all(n == buf.numel for n in sized.values()):
            per = 0
        elif buf.numel % b == 0 and all(n == buf.numel // b * size for size, n in sized.items()):
            per = buf.numel // b
        else:
            return f"buffer {buf.name} ({buf.numel} elements at batch {b}) neither follows the batch nor stays fixed"
        batched = buf.kind in ("input", "output") and per > 0
        if buf.kind in ("input", "output") and batched != spec.batched(buf.name):
            return f"buffer {buf.name}'s size {'follows' if batched else 'ignores'} the batch, its argument's does not"
        if buf.kind == "temp":
            temps[buf.name] = per
        biggest = max(biggest, per)
    for pe in per_sample:
        biggest = max(biggest, pe)
    max_batch = max(b, min(index_limit // biggest, MAX_BATCH))
    return RuntimeBatch(b, tuple(per_sample), temps, max_batch, tuple(sorted(others)))


def _has(prog: Program, name: str) -> bool:
    return any(x.name == name for x in prog.buffers)


def guard_lines(spec: TaskSpec, rb: RuntimeBatch, reads: Callable[[str], bool], where: str) -> list[str]:
    """hiera_forward's opening for code that takes the batch at run time: `hiera_nb` (a name no generated loop
    uses) read from dim 0 of the first batched argument, refused (return 2) outside 1..max_batch; every batched
    argument and output must have it in
    dim 0 and exactly the given sizes elsewhere, every other argument exactly its given shape. Scalars are baked
    in as constants (the binding refuses another value) and arguments the code does not `reads` are silenced."""
    from engine.agents.expert.codegen.common import shape_guard

    first = next(a.c_name for a in spec.tensor_args if spec.batched(a.name))
    lines = [f"    // The batch is taken at run time: dim 0 of {first} (1 to {rb.max_batch}; beyond, an index would "
             "overflow).",
             f"    if ({first}->ndim < 1) return 2;",
             f"    const long long hiera_nb = {first}->sizes[0];",
             f"    if (hiera_nb < 1 || hiera_nb > {rb.max_batch}LL) return 2;"]
    for a in spec.args:
        if a.tensor is None:
            lines.append(f"    (void){a.c_name};  // baked into the {where} as a constant")
        elif not reads(a.name):
            lines.append(f"    (void){a.c_name};  // not read by this computation")
        elif spec.batched(a.name):
            lines.append(batch_guard(a.c_name, tuple(a.tensor.shape)))
        else:
            lines.append(shape_guard(a.c_name, tuple(a.tensor.shape)))
    for name, t in spec.outputs:
        lines.append(batch_guard(name, tuple(t.shape)))
    return lines


def batch_guard(c_name: str, shape: tuple[int, ...]) -> str:
    """A line rejecting (return 2) a batched tensor whose dim 0 is not hiera_nb or whose other dims differ."""
    conds = [f"{c_name}->ndim != {len(shape)}", f"{c_name}->sizes[0] != hiera_nb"]
    conds += [f"{c_name}->sizes[{i}] != {n}" for i, n in enumerate(shape) if i]
    rest = "x".join(map(str, shape[1:]))
    return f"    if ({' || '.join(conds)}) return 2;  // B x {rest}" if rest else \
        f"    if ({' || '.join(conds)}) return 2;  // B"
