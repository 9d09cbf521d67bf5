"""Expert SPA: from the argmax direction to a knowledge-base strategy the generators implement.

Among the knowledge base's entries for the direction that are valid in the space (and fit the workload),
the planner keeps those a generator implements for this graph, ranks them by how well they suit the
workload, and skips one that already failed in this space. When the argmax direction has nothing the
generators can do, it takes the next direction and says so.
"""

from __future__ import annotations

from collections.abc import Callable

from contracts.vocabulary import Direction, Space
from engine.agents import knowledge
from engine.agents.base import Context, DirectionScores, Strategy
from engine.agents.expert.analysis import Workload, WorkloadKind
from engine.agents.expert.codegen import gemm_split
from engine.agents.expert.codegen.storage import has_half
from engine.agents.expert.codegen.transpose import transposed_stages
from engine.agents.expert.ir import Program
from engine.agents.expert.space_direction import workload
from engine.evaluate.outcome import Precision

# Which generator family implements each knowledge-base strategy, and which knob its variants explore.
FAMILY: dict[str, tuple[str, str]] = {
    "R.fuse_pointwise": ("program", "fusion"),
    "R.fuse_reduction": ("program", "rows"),
    "M.vectorize_16B": ("program", "vector"),
    "M.coalesce": ("program", "vector"),
    "M.smem_transpose": ("program", "transpose"),
    "P.grid_block_shape": ("program", "block"),
    "P.rows_per_block": ("program", "rows"),
    "P.work_per_thread": ("program", "ilp"),
    "C.boundary_split": ("program", "fusion"),
    "C.specialize_shapes": ("program", "fusion"),
    "C.branch_free": ("program", "fusion"),
    "T.fast_math": ("program", "fusion"),
    "R.smem_tiling": ("tiled", "tiles"),
    "R.register_blocking": ("tiled", "tiles"),
    "R.double_buffer": ("tiled", "tiles"),
    "R.library_epilogue": ("library", "epilogue"),
    "T.cublas_sgemm": ("library", "algos"),
    "T.split_tf32": ("library", "split_tf32"),
    "T.cudnn_algos": ("library", "conv_algos"),
    "T.tf32_tensor_cores": ("library", "tf32"),
    "P.cpu_threads": ("cpu", "threads"),
    "R.cpu_blocking": ("cpu", "blocking"),
    "R.torch_compile": ("torch", "compile"),
    "R.fused_attention": ("torch", "attention"),
    "P.cuda_graph": ("torch", "cudagraph"),
    "M.channels_last": ("torch", "cudnn"),
    "T.cudnn_benchmark": ("torch", "cudnn"),
}


# A stencil task (analysis: Workload.stencil) has its own generator (codegen/stencil_cuda.py): these strategies are
# its knobs, M the tile's shape (coalescing, halo share), R the register blocking depth (reuse), P the block
# shape (occupancy).
STENCIL: dict[str, str] = {
    "R.register_blocking": "rblock",
    "R.smem_tiling": "tile",
    "M.coalesce": "tile",
    "P.grid_block_shape": "occupancy",
    "P.work_per_thread": "rblock",
}


def _stencil_key(key: str, w: Workload, ctx: Context) -> bool:
    return w.stencil is not None and ctx.on_gpu and key in STENCIL


def family(key: str, w: Workload, ctx: Context) -> tuple[str, str]:
    """(generator family, focus knob) that implements the strategy `key` for this workload."""
    if _stencil_key(key, w, ctx):
        return "stencil", STENCIL[key]
    return FAMILY.get(key, ("", ""))


def implementable(key: str, w: Workload, ctx: Context, space: Space) -> bool:
    if _stencil_key(key, w, ctx):
        return True  # pure CUDA: allowed in every space
    fam = FAMILY.get(key, ("", ""))[0]
    prog = w.program
    if key == "R.fused_attention":
        return space.allows(Space.LIBRARIES_PYTORCH) and w.attention is not None
    if fam == "torch":
        return space.allows(Space.LIBRARIES_PYTORCH) and (ctx.on_gpu or key == "R.torch_compile")
    if prog is None:
        return False
    if not ctx.on_gpu:
        return fam in ("program", "cpu")
    libraries = space.allows(Space.CUDA_LIBRARIES)
    if prog.convs and not libraries:
        return False  # a convolution is a cuDNN call: no generator writes one in pure CUDA
    if fam == "program":
        if FAMILY[key][1] == "transpose" and not transposed_stages(prog):
            return False
        # GEMMs inside a program need the tiled kernel in pure CUDA (one batch dim) or a library.
        return not prog.gemms or libraries or all(len(g.batch) <= 1 for g in prog.gemms)
    if fam == "tiled":
        return bool(prog.gemms) and not prog.convs and all(len(g.batch) <= 1 for g in prog.gemms)
    if fam == "library":  # a library call to make: cuDNN's for T.cudnn_algos, cuBLAS's for T.cublas_sgemm
        calls = {"T.cudnn_algos": prog.convs, "T.cublas_sgemm": prog.gemms, "T.split_tf32": prog.gemms}.get(
            key, prog.gemms + prog.convs)
        return libraries and bool(calls)
    return False


def suitability(key: str, w: Workload, ctx: Context, space: Space) -> float:
    if _stencil_key(key, w, ctx):
        # Within a direction the entry that names the knob best goes first (register blocking for R, the tile
        # for M); the generated stencil kernel beats the PyTorch-level candidates as the first try.
        return {"R.register_blocking": 1.0, "R.smem_tiling": 0.95, "M.coalesce": 1.0, "P.grid_block_shape": 1.0,
                "P.work_per_thread": 0.9}[key]
    if key == "R.fused_attention":
        # Before torch.compile and the generated kernels: the rewrite costs a second to capture, keeps the rest of
        # the forward as written, and is the lever on attention's L x S scores that neither has.
        return 1.2 if w.attention is not None else 0.0
    fam, _ = FAMILY.get(key, ("", ""))
    prog = w.program
    gemms = bool(prog and (prog.gemms or prog.convs))  # a library call (cuBLAS, cuDNN) leads the program
    if fam == "torch" and _switched_to_torch(ctx, space):
        return 1.1 if key == "R.torch_compile" or (key == "P.cuda_graph" and w.kind is WorkloadKind.LAUNCH_BOUND) \
            else 1.05
    if not ctx.on_gpu:
        return {"cpu": 1.0, "program": 0.95, "torch": 0.4}.get(fam, 0.0)
    if fam == "torch":
        if key in ("T.cudnn_benchmark", "M.channels_last") and w.counts.get("conv"):
            return 0.95
        if prog is None:
            if key == "P.cuda_graph":
                return 0.9 if w.kind is WorkloadKind.LAUNCH_BOUND else 0.5
            return 0.8
        if key == "P.cuda_graph" and w.kind is WorkloadKind.LAUNCH_BOUND and len(prog.stages) > 2:
            return 0.9
        return 0.35
    if key == "T.split_tf32":
        # The 3xTF32 product goes first where it is expected to beat SGEMM (codegen/gemm_split.worthwhile).
        # Under the tf32 policy plain TF32 is allowed and a third of the work: the split is for strict fp32.
        if ctx.precision is Precision.TF32:
            return 0.3
        if ctx.precision.low or (prog is not None and has_half(prog)):
            return 0.0  # the split keeps fp32 accuracy; at bf16 or fp16 the products take halves directly
        return 1.05 if prog is not None and any(gemm_split.worthwhile(g) for g in prog.gemms) else 0.5
    if fam == "library":
        return 1.0 if gemms else 0.0
    if fam == "tiled":
        return 0.9 if gemms and space is Space.PURE_CUDA else 0.3
    if fam == "program":
        if gemms:
            return 0.95 if space is Space.PURE_CUDA else 0.6
        if prog is not None and transposed_stages(prog):
            if FAMILY[key][1] == "transpose":
                return 1.1
            if not _has_plain_flat(prog):
                # Flat-kernel knobs (block, vector, ILP) do not touch a tiled transpose: nothing new to try.
                return 0.6
        return 1.0
    return 0.0


def _has_plain_flat(prog: Program) -> bool:
    """A stage whose code the flat or row knobs shape (anything but a tiled transpose)."""
    tr = transposed_stages(prog)
    return any(st not in tr for st in prog.fused)


def _failed_before(ctx: Context, key: str, space: Space) -> bool:
    """A strategy of the same generator family already produced nothing valid (in any space)."""
    w = workload(ctx)
    fam = family(key, w, ctx)[0]
    return any(family(r.strategy, w, ctx)[0] == fam and r.best_speedup is None for r in ctx.history)


def _switched_to_torch(ctx: Context, space: Space) -> bool:
    """The rules moved this round to libraries_pytorch after generated kernels were played elsewhere."""
    return space is Space.LIBRARIES_PYTORCH and any(r.space is not space for r in ctx.history)


def _used_before(ctx: Context, key: str, space: Space) -> int:
    return sum(1 for r in ctx.history if r.strategy == key and r.space is space)


def plan(ctx: Context, space: Space, scores: DirectionScores,
         fresh: Callable[[Strategy], bool] | None = None) -> Strategy:
    """The strategy for this round. fresh(strategy), when given, says whether the strategy would still write
    something not played in an earlier round; one that would not is passed over for the next in rank, so
    a round is not spent rediscovering that a strategy's variants are used up."""
    w = workload(ctx)
    tf32 = ctx.precision is Precision.TF32
    order = sorted(Direction, key=lambda d: -scores.scores.get(d, 0.0)) if ctx.planning else list(Direction)
    argmax = scores.best() if ctx.planning else order[0]
    if argmax in order:
        order.remove(argmax)
    order.insert(0, argmax)
    skipped: list[str] = []
    if _switched_to_torch(ctx, space):
        # The rules moved this round to libraries_pytorch after generated kernels were played elsewhere:
        # the round is for the PyTorch-level candidates (torch.compile, CUDA graphs), whichever direction
        # leads; without this a direction with no torch entry (M on a copy) replays generated kernels.
        for e, d in _torch_entries(ctx, space, w, order, tf32):
            st = _strategy(e, d, space, w, ctx, f"{e.description} (libraries_pytorch is played for its "
                                                f"PyTorch-level candidates; {argmax.value} leads the scores)")
            if fresh is None or fresh(st):
                return st
    for d in order:
        entries = knowledge.strategies(d, space, gpu=ctx.on_gpu, tf32=tf32, kind=w.kb_kind)
        ranked = []
        for e in entries:
            if not implementable(e.key, w, ctx, space) or _failed_before(ctx, e.key, space):
                continue
            # Prefer what suits the workload; among equals, what has not been played yet.
            ranked.append((suitability(e.key, w, ctx, space) - 0.05 * _used_before(ctx, e.key, space), e))
        ranked.sort(key=lambda t: -t[0])
        spent: list[str] = []
        for score, e in ranked:
            if score <= 0.0:
                break
            why = e.description + (f" ({'; '.join(skipped + spent)})" if skipped or spent else "")
            st = _strategy(e, d, space, w, ctx, why)
            if fresh is None or fresh(st):
                return st
            spent.append(f"{e.key}: every variant already played")
        skipped += spent or [f"{d.value} had no strategy the generators implement here"]
    # Everything implementable failed before: the generated kernels once more, with scalar access and plain
    # loops everywhere (no float4, no register cache), in case alignment or a vector path was the problem.
    if w.program is not None and implementable("C.boundary_split", w, ctx, space):
        st = Strategy(Direction.C, space, "C.boundary_split",
                      "every strategy so far produced nothing valid: the generated kernels with scalar, "
                      "bounds-checked access only", ("scalar loads and stores", "no register cache"),
                      {"family": "program", "focus": "safe", "workload": w.kb_kind})
        if fresh is None or fresh(st):
            return st
    if any("already played" in s for s in skipped):
        # Not a failure of the task: the generators have nothing left that this run has not measured.
        return Strategy(argmax, space, "exhausted",
                        f"nothing new to try in {space.value}: every variant the generators write for this graph "
                        "was played in an earlier round", (),
                        {"family": "none", "focus": "", "reason": "search space used up"})
    # Nothing fits (e.g. pure CUDA fixed run on a convolution): the generator will say why.
    reason = w.unsupported or "unsupported graph"
    if w.program is not None and w.program.convs and not space.allows(Space.CUDA_LIBRARIES):
        reason = "a convolution: pure CUDA has no convolution generator (cuda_libraries calls cuDNN)"
    return Strategy(argmax, space, "R.torch_compile" if space.allows(Space.LIBRARIES_PYTORCH) else "R.fuse_pointwise",
                    f"no generator applies: {reason}", (), {"family": "none", "focus": "", "reason": reason})


def _strategy(e: knowledge.Entry, d: Direction, space: Space, w: Workload, ctx: Context, why: str) -> Strategy:
    """A knowledge-base entry as the round's strategy, with the generator family and knob that implement it."""
    fam, focus = family(e.key, w, ctx)
    return Strategy(d, space, e.key, why, _steps(fam, focus, w, ctx),
                    {"family": fam, "focus": focus, "workload": w.kb_kind})


def _torch_entries(ctx: Context, space: Space, w: Workload, order: list[Direction],
                   tf32: bool) -> list[tuple[knowledge.Entry, Direction]]:
    """The PyTorch-level strategies over all directions, best first (ties go to the higher-scored direction)."""
    ranked: list[tuple[float, int, knowledge.Entry, Direction]] = []
    for rank, d in enumerate(order):
        for e in knowledge.strategies(d, space, gpu=ctx.on_gpu, tf32=tf32, kind=w.kb_kind):
            if FAMILY.get(e.key, ("", ""))[0] != "torch" or not implementable(e.key, w, ctx, space) \
                    or _failed_before(ctx, e.key, space):
                continue
            ranked.append((suitability(e.key, w, ctx, space) - 0.05 * _used_before(ctx, e.key, space), rank, e, d))
    ranked.sort(key=lambda t: (-t[0], t[1]))
    return [(e, d) for score, _, e, d in ranked if score > 0.0]


def _steps(fam: str, focus: str, w: Workload, ctx: Context) -> tuple[str, ...]:
    prog = w.program
    n = len(prog.stages) if prog else 0
    if fam == "program":
        knob = {"fusion": "block size, vectors per thread and threads per row",
                "transpose": "the transpose tile (32/64), threads per tile and padding vs swizzle",
                "rows": "threads per row and rows per block", "vector": "vector width", "block": "block size and grid",
                "ilp": "vectors per thread", "safe": "nothing: scalar access only"}.get(focus, focus)
        return (f"lower the graph into {n} stage(s) (pointwise chains and row reductions fused)",
                f"vary {knob}",
                "specialize every shape as a compile-time constant; scalar twin for misaligned buffers")
    if fam == "library":
        steps = []
        if prog is not None and prog.convs:
            steps += ["convolutions through cuDNN (" + ("TF32 allowed" if focus == "tf32" else "FMA math, no TF32")
                      + ")",
                      "vary how the algorithm is chosen: cuDNN's timed fastest, its heuristic, or one by name"
                      if focus == "conv_algos" else "the algorithm cuDNN times fastest for this shape"]
        if prog is not None and prog.gemms and focus == "split_tf32":
            steps += ["split each operand into TF32 hi + lo in one generated kernel",
                      "hi*hi + hi*lo + lo*hi on the TF32 tensor cores through cuBLASLt (small terms first, then "
                      "the large one with the bias/ReLU epilogue); vary the form and the algorithm"]
        elif prog is None or prog.gemms:
            steps += ["matrix products through cuBLAS/cuBLASLt with CUBLAS_COMPUTE_32F" +
                      (f" ({ctx.precision.value} operands on the tensor cores, fp32 accumulation)" if ctx.precision.low
                       else " (TF32 allowed)" if focus == "tf32" else " (no TF32)"),
                      "fold bias (+ReLU) into cuBLASLt's epilogue where it matches"]
        return (*steps, "everything else after each library call in one generated kernel")
    if fam == "stencil" and w.stencil is not None:
        knob = {"tile": "the tile's shape (threads along the contiguous axis x rows)",
                "rblock": "outputs per thread along axis 0 (register blocking depth)",
                "occupancy": "threads per block (blocks resident per SM)"}.get(focus, focus)
        return (f"{w.stencil.describe()}: one kernel, a shared-memory tile with its halo per block",
                "each thread accumulates several outputs along axis 0 from one pass over its window (registers)",
                "weights in constant memory; a box-sum path when they are all equal (checked at run time)",
                f"vary {knob}")
    if fam == "tiled":
        return ("shared-memory tiles of A and B, register-blocked outer products",
                "the following pointwise stage applied in the product's store", "vary the tile shape")
    if fam == "cpu":
        return ("OpenMP over rows/elements, SIMD inner loops", "cache-blocked products with packed B panels")
    if fam == "torch":
        return {"attention": ("TorchDynamo captures the forward (no Inductor compile)",
                              "each softmax(q @ k^T) @ v chain becomes one scaled_dot_product_attention call",
                              "a mask from the module's own buffers found lower triangular becomes is_causal"),
                "compile": ("torch.compile in its modes", "CUDA-graph capture of the compiled forward"),
                "cudagraph": ("capture the forward once, replay it", "static inputs copied in, outputs cloned out"),
                "cudnn": ("cuDNN autotuning scoped to the model's calls", "channels_last variants")}.get(focus, ())
    return ()
