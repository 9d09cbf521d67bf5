"""Expert OA: K real variants of a strategy, each a complete candidate for the evaluator.

A strategy names a generator family (planner.FAMILY) and the knob its variants explore. The variants
are ordered best guess first (so a small K still gets the likeliest winner), and when the parent is one
of this backend's own candidates of the same family the first variants are its neighbours. A variant
whose source was already generated in an earlier round is skipped for the next one in the list.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from contracts.vocabulary import Space
from engine.agents.base import Context, Invalid, Strategy
from engine.agents.expert.analysis import Workload
from engine.agents.expert.codegen.cpu import CpuParams, cpu_runtime_batch, cpu_source
from engine.agents.expert.codegen.cuda_program import cuda_runtime_batch, cuda_source, knob_parts
from engine.agents.expert.codegen.runtime_batch import RuntimeBatch, programs_at_other_sizes
from engine.agents.expert.codegen.stencil_cuda import stencil_source, stencil_variants
from engine.agents.expert.codegen.torch_variants import TorchVariant, modelnew_source
from engine.agents.expert.codegen.transpose import transposed_stages
from engine.agents.expert.codegen.variants import (
    ConvParams,
    FlatParams,
    GemmParams,
    RowParams,
    TransposeParams,
    Variant,
)
from engine.agents.expert.device import DeviceLimits, device_limits
from engine.agents.expert.ir import Program
from engine.agents.expert.lowering import lower
from engine.agents.expert.space_direction import workload
from engine.evaluate.outcome import Candidate, CandidateKind, Precision
from engine.task.spec import TaskSpec

F, R, G, TP = FlatParams, RowParams, GemmParams, TransposeParams

FLAT: dict[str, list[FlatParams]] = {
    "fusion": [F(256, 4, 1), F(512, 4, 1), F(256, 4, 2), F(128, 4, 4), F(1024, 4, 1), F(256, 4, 1, 8)],
    "block": [F(128, 4, 1), F(512, 4, 1), F(1024, 4, 1), F(256, 4, 1, 4), F(512, 4, 1, 4), F(256, 4, 1)],
    "ilp": [F(256, 4, 2), F(256, 4, 4), F(128, 4, 8), F(512, 4, 2), F(128, 4, 2), F(256, 4, 1)],
    "vector": [F(256, 4, 1), F(256, 2, 2), F(256, 1, 4), F(512, 4, 2), F(256, 1, 1), F(1024, 4, 1)],
    "safe": [F(256, 1, 1), F(128, 1, 1)],
}
ROW: dict[str, list[RowParams]] = {
    "fusion": [R(), R(scale=0.5), R(scale=2.0), R(threads=32, rows_per_block=4), R(cache=False), R(scale=0.25)],
    "rows": [R(), R(scale=0.5), R(scale=2.0), R(threads=32, rows_per_block=8), R(threads=1024), R(scale=0.25)],
    "vector": [R(), R(vec=1), R(scale=0.5), R(vec=1, scale=2.0), R(cache=False), R(scale=2.0)],
    "safe": [R(vec=1, cache=False), R(vec=1, cache=False, scale=0.5)],
    "block": [R(threads=256), R(threads=512), R(threads=128), R(threads=1024), R(threads=64),
              R(threads=32, rows_per_block=16)],
    "ilp": [R(scale=0.125), R(threads=128, cache=False), R(threads=256, cache=False), R(scale=0.5, cache=False),
            R(threads=16, rows_per_block=16), R(threads=8, rows_per_block=32)],
}
# Tiled transposes: the classic 32x32 tile with 32x8 threads first, then bigger tiles (more bytes in flight
# per block), fewer or more threads per tile, and the XOR swizzle instead of the padding column.
TRANSPOSE: list[TransposeParams] = [
    TP(32, 8), TP(64, 8), TP(32, 8, swizzle=True), TP(64, 16), TP(32, 4), TP(64, 8, swizzle=True),
    TP(32, 16), TP(64, 4), TP(32, 32), TP(64, 16, swizzle=True), TP(32, 4, swizzle=True),
    TP(64, 32, swizzle=True), TP(32, 16, swizzle=True), TP(64, 4, swizzle=True),
]
GEMM_LIBRARY: dict[str, list[GemmParams]] = {
    "epilogue": [G("cublaslt", 0), G("cublas"), G("cublaslt", 1), G("cublaslt", 0, lt_epilogue=False),
                 G("cublaslt", 2), G("cublaslt", 3)],
    # 3xTF32 (codegen/gemm_split.py): the two-product form first, then the one-product form; third the strict
    # SGEMM library call, since the split misses the strict tolerance where outputs are large (cuBLASLt's TF32
    # accumulation on the H200 costs it precision: docs/bench/gemm-split-h200), so a round never ends below it.
    "split_tf32": [G("split_tf32"), G("split_tf32", form="3k"), G("cublaslt", 0), G("split_tf32", algo=1),
                   G("split_tf32", lt_epilogue=False), G("split_tf32", form="3k", algo=1)],
    "algos": [G("cublas"), G("cublaslt", 0), G("cublaslt", 1), G("cublaslt", 2), G("cublaslt", 3),
              G("cublaslt", 4)],
}
GEMM_TILED: list[GemmParams] = [
    G("tiled", tile=(128, 128, 8, 8, 8)), G("tiled", tile=(128, 64, 8, 8, 4)), G("tiled", tile=(64, 64, 8, 4, 4)),
    G("tiled", tile=(128, 128, 16, 8, 8)), G("tiled", tile=(64, 128, 8, 4, 8)),
    G("tiled", tile=(128, 128, 8, 8, 8), fuse_epilogue=False),
]
# cuDNN convolutions: cuDNN's own timing first (over all algorithms, then over the GEMM family only, in case
# FFT or Winograd rounding misses the strict tolerance), its heuristic, then single algorithms by name (each
# fails cleanly when cuDNN has no kernel for it at this shape; the implicit GEMMs work for every shape).
# CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD is left out: "Not supported on Hopper+" (cudnn_ops_v9.h).
CONV: list[ConvParams] = [ConvParams(a) for a in ("find", "find_exact", "heuristic", "implicit_precomp_gemm",
                                                 "winograd_nonfused", "fft_tiling", "implicit_gemm", "gemm", "fft")]
CPU: dict[str, list[CpuParams]] = {
    "threads": [CpuParams(), CpuParams(vector_math=False), CpuParams(schedule="guided"),
                CpuParams(gemm_kc=128, gemm_nc=512), CpuParams(gemm_kc=512, gemm_nc=2048),
                CpuParams(schedule="dynamic")],
    "blocking": [CpuParams(), CpuParams(gemm_kc=128, gemm_nc=512), CpuParams(gemm_kc=512, gemm_nc=2048),
                 CpuParams(gemm_kc=64, gemm_nc=256), CpuParams(vector_math=False), CpuParams(schedule="guided")],
}
TORCH: dict[str, list[TorchVariant]] = {
    "compile": [TorchVariant("compile", "max-autotune-no-cudagraphs"), TorchVariant("compile", "default"),
                TorchVariant("compile", "max-autotune"), TorchVariant("cudagraph", graph_over_compile=True),
                TorchVariant("cudagraph"), TorchVariant("eager")],
    "cudagraph": [TorchVariant("cudagraph"), TorchVariant("cudagraph", graph_over_compile=True),
                  TorchVariant("compile", "reduce-overhead"), TorchVariant("compile", "max-autotune"),
                  TorchVariant("compile", "default"), TorchVariant("eager")],
    "cudnn": [TorchVariant("cudnn"), TorchVariant("cudnn", channels_last=True),
              TorchVariant("compile", "max-autotune-no-cudagraphs"), TorchVariant("cudagraph"),
              TorchVariant("compile", "default"), TorchVariant("cudnn", channels_last=True, benchmark=False)],
    "cpu": [TorchVariant("compile", "default"), TorchVariant("eager"), TorchVariant("compile", "max-autotune")],
    # Only for a forward with hand-written attention (Workload.attention); on any device (the CUDA-graph replay of
    # the rewritten forward on a GPU only: _torch_renders).
    "attention": [TorchVariant("attention"), TorchVariant("attention", causal=False),
                  TorchVariant("cudagraph", graph_over_attention=True)],
}


@dataclass
class Memory:
    """What this backend generated so far (per run): sources seen, and each candidate's variant."""

    seen: set[str] = field(default_factory=set)
    variants: dict[str, tuple[str, Any]] = field(default_factory=dict)  # candidate id -> (family, variant)


def source_identity(src: str) -> str:
    """The identity a candidate's code is remembered by (a duplicate under another strategy's name is the same)."""
    return _hash(src)


def _hash(src: str) -> str:
    """Identity of a candidate's code: the same kernel under another strategy's name is a duplicate."""
    body = "\n".join(ln for ln in src.splitlines()
                     if not ln.startswith(("// strategy:", "# hiera expert candidate")))
    return hashlib.sha256(body.encode()).hexdigest()[:10]


def _label(variant: Any, w: Workload) -> str:
    """The variant's knobs that matter for this program (no GEMM knobs for a softmax, say)."""
    if isinstance(variant, Variant) and w.program is not None:
        return variant.label(knob_parts(w.program, variant))
    return variant.label() if hasattr(variant, "label") else str(variant)


def _neighbours_flat(p: FlatParams) -> list[FlatParams]:
    out = [replace(p, block=b) for b in (p.block // 2, p.block * 2) if 64 <= b <= 1024]
    out += [replace(p, ilp=i) for i in (p.ilp * 2, max(1, p.ilp // 2)) if i != p.ilp and i <= 8]
    out.append(replace(p, grid_cap=0 if p.grid_cap else 8))
    return out


def _neighbours_row(p: RowParams) -> list[RowParams]:
    if p.threads:
        return [replace(p, threads=t) for t in (p.threads // 2, p.threads * 2) if 1 <= t <= 1024] + \
               [replace(p, cache=not p.cache)]
    return [replace(p, scale=p.scale * 0.5), replace(p, scale=p.scale * 2.0), replace(p, cache=not p.cache),
            replace(p, rows_per_block=(p.rows_per_block or 8) * 2)]


def _neighbours_transpose(p: TransposeParams) -> list[TransposeParams]:
    out = [replace(p, rows=r) for r in (p.rows // 2, p.rows * 2) if 4 <= r <= min(32, p.tile)]
    out.append(replace(p, swizzle=not p.swizzle))
    other = 64 if p.tile == 32 else 32
    out.append(replace(p, tile=other, rows=min(p.rows, other)))
    return out


def program_variants(family: str, focus: str, w: Workload, ctx: Context, space: Space,
                     parent: Any | None) -> list[Variant]:
    """Variants of the generated program: the focus knob varies, the others keep their best guess."""
    prog = w.program
    assert prog is not None
    has_rows = any(st.has_reduction for st in prog.fused)
    has_flat = any(not st.has_reduction for st in prog.fused)
    if prog.gemms:
        if focus == "safe":
            gemms = [G("cublas")] if space.allows(Space.CUDA_LIBRARIES) else [G("tiled", fuse_epilogue=False)]
        elif family == "library":
            gemms = GEMM_LIBRARY.get(focus, GEMM_LIBRARY["epilogue"])
        elif family == "tiled" or not space.allows(Space.CUDA_LIBRARIES):
            gemms = GEMM_TILED
        else:
            gemms = GEMM_LIBRARY["epilogue"]
    else:
        gemms = [GemmParams()]
    flats = FLAT.get(focus, FLAT["fusion"]) if has_flat else [FlatParams()]
    rows = ROW.get(focus, ROW["fusion"]) if has_rows else [RowParams()]
    transposed = bool(transposed_stages(prog))
    out: list[Variant] = []
    if isinstance(parent, Variant):
        # Neighbours of the parent first: refine what already won.
        if transposed and parent.transpose is not None:
            out += [replace(parent, transpose=t) for t in _neighbours_transpose(parent.transpose)]
        for f in _neighbours_flat(parent.flat) if has_flat else []:
            out.append(replace(parent, flat=f))
        for r in _neighbours_row(parent.row) if has_rows else []:
            out.append(replace(parent, row=r))
    if focus == "transpose" and transposed:
        out += [Variant(flats[0], rows[0], gemms[0], transpose=t) for t in TRANSPOSE]
    n = max(len(gemms) if prog.gemms and family in ("library", "tiled") else 1, len(flats), len(rows))
    for i in range(n):
        g = gemms[i % len(gemms)] if (prog.gemms and family in ("library", "tiled")) else gemms[0]
        out.append(Variant(flats[i % len(flats)], rows[i % len(rows)], g))
    if prog.gemms and family not in ("library", "tiled"):
        out += [Variant(flats[0], rows[0], g) for g in gemms[1:]]
    if prog.convs and family == "library":
        # The convolution's algorithm is the knob that matters most: first with conv_algos, after the
        # epilogue variants otherwise.
        algos = [Variant(flats[0], rows[0], gemms[0], conv=c) for c in CONV]
        out = algos + out if focus == "conv_algos" else out[:2] + algos + out[2:]
    if focus == "safe":
        # The plainest code there is: a strided gather instead of the tiled transpose as well.
        return [replace(v, transpose=None) for v in out]
    # When the focus knob's list is used up (later rounds), the other knobs' lists follow.
    for other in FLAT.values() if has_flat else ():
        out += [Variant(f, rows[0], gemms[0]) for f in other]
    for other in ROW.values() if has_rows else ():
        out += [Variant(flats[0], r, gemms[0]) for r in other]
    if prog.gemms and family in ("library", "tiled"):
        out += [Variant(flats[0], rows[0], g) for g in gemms]
    if transposed:
        # The transpose tiles, and last the strided gather (the plain lowering) as the comparison.
        out += [Variant(flats[0], rows[0], gemms[0], transpose=t) for t in TRANSPOSE]
        out.append(Variant(flats[0], rows[0], gemms[0], transpose=None))
    return out


def _torch_renders(ctx: Context, focus: str, strategy: Strategy) -> list[tuple[str, Any, CandidateKind, str, Space]]:
    """The PyTorch-level ModelNew variants (torch.compile modes, CUDA graphs, cuDNN settings, the attention
    rewrite where the forward has attention), focus first."""
    attention = [v for v in TORCH["attention"] if ctx.on_gpu or v.kind != "cudagraph"] \
        if workload(ctx).attention is not None else []
    if not ctx.on_gpu:
        tvs = (attention + TORCH["cpu"]) if focus == "attention" else (TORCH["cpu"] + attention)
    else:
        tvs = TORCH.get(focus, TORCH["compile"]) if focus != "attention" else attention
        tvs = tvs + [v for key, lst in TORCH.items() if key not in (focus, "cpu")
                     for v in (lst if key != "attention" else attention)]
    return [("torch", tv, CandidateKind.MODELNEW, modelnew_source(ctx.spec, tv, strategy=strategy.name),
             Space.LIBRARIES_PYTORCH) for tv in tvs]


_BATCH: dict[str, RuntimeBatch | str] = {}
_OTHERS: dict[tuple[str, bool], dict[int, Program] | str] = {}


def other_sizes(spec: TaskSpec, convs: bool) -> dict[int, Program] | str:
    """The task lowered at the other batch sizes the probe traced (once per task), or why not."""
    key = (spec.source_hash, convs)
    if key not in _OTHERS:
        _OTHERS[key] = programs_at_other_sizes(spec, lambda s: lower(s, convs=convs))
    return _OTHERS[key]


def cpu_batch(spec: TaskSpec, prog: Program) -> RuntimeBatch | str:
    """Whether the task's C++ code takes the batch at run time (codegen/runtime_batch.py), or why it stays
    specialised to the given shapes; worked out once per task (it lowers the graph at three other sizes)."""
    if spec.source_hash not in _BATCH:
        others = other_sizes(spec, convs=False)
        _BATCH[spec.source_hash] = others if isinstance(others, str) else cpu_runtime_batch(spec, prog, others)
    return _BATCH[spec.source_hash]


def cuda_batch(spec: TaskSpec, prog: Program, variant: Variant, dev: DeviceLimits, policy: str = "fp32",
               libraries: bool = True) -> RuntimeBatch | None:
    """The CUDA variant's general path (the batch at run time) when its code allows one, else None. Its products
    go through cuBLAS, or where the space allows no libraries (`libraries` False) through the variant's tiled
    kernel taking the batch (cuda_source's `pure`)."""
    others = other_sizes(spec, convs=True)
    if isinstance(others, str):
        return None
    rb = cuda_runtime_batch(spec, prog, others, variant, dev, policy, pure=not libraries)
    return rb if isinstance(rb, RuntimeBatch) else None


Render = tuple[str, Any, CandidateKind, str, Space]  # (family, variant, kind, source, claimed space)


def _renders(ctx: Context, space: Space, strategy: Strategy,
             memory: Memory) -> tuple[Iterator[Render], list[str]] | Invalid:
    """Every source the strategy's generators write for this round, in the order they are tried (the
    parent's neighbours first), with the reasons of the variants that could not apply (filled as the
    iterator goes); or why none can.

    Lazy: a source is written when it is asked for. has_new stops at the first unplayed one and generate at
    its k-th; rendering all of them for each dry run cost a MobileNetV2's round 1 276 renders (16 s of the
    expert's decision on the H200, 60 s on the 2-core machine)."""
    w = workload(ctx)
    fam = strategy.params.get("family") or "none"
    if fam == "none":
        return Invalid(f"x{ctx.round}-none", strategy.description)
    torch_level = fam == "torch" or (w.program is None and space.allows(Space.LIBRARIES_PYTORCH))
    stencil = fam == "stencil" and w.stencil is not None and ctx.on_gpu
    if not stencil and not torch_level and w.program is None:
        return Invalid(f"x{ctx.round}-unsupported", f"no generator in {space.value} covers this task: "
                                                    f"{w.unsupported}")
    errors: list[str] = []
    return _render_each(ctx, space, strategy, memory, errors), errors


def _render_each(ctx: Context, space: Space, strategy: Strategy, memory: Memory,
                 errors: list[str]) -> Iterator[Render]:
    w = workload(ctx)
    fam = strategy.params.get("family") or "none"
    focus = strategy.params.get("focus") or ""
    tf32 = ctx.precision is Precision.TF32
    parent_variant = None
    if ctx.parent is not None and ctx.parent.id in memory.variants:
        pf, pv = memory.variants[ctx.parent.id]
        parent_variant = pv if pf == fam or (pf in ("program", "library", "tiled") and fam == pf) else None
    # Whether every source so far was played in an earlier round, judged before the consumer records it.
    all_seen = True

    def seen(render: Render) -> Render:
        nonlocal all_seen
        all_seen = all_seen and _hash(render[3]) in memory.seen
        return render

    if fam == "stencil" and w.stencil is not None and ctx.on_gpu:
        dev = device_limits(ctx.device_facts)
        for sv in stencil_variants(w.stencil, focus, parent_variant):
            try:
                src = stencil_source(ctx.spec, w.stencil, sv, strategy=strategy.name, dev=dev)
            except ValueError as e:
                errors.append(str(e))
                continue
            yield seen(("stencil", sv, CandidateKind.CUDA, src, Space.PURE_CUDA))
    elif fam == "torch" or (w.program is None and space.allows(Space.LIBRARIES_PYTORCH)):
        for r in _torch_renders(ctx, focus, strategy):
            yield seen(r)
    elif w.program is None:
        return
    elif not ctx.on_gpu:
        cpu_focus = focus if focus in CPU else "threads"
        rb = cpu_batch(ctx.spec, w.program)
        for cp in CPU[cpu_focus] + [c for key, lst in CPU.items() if key != cpu_focus for c in lst]:
            try:
                src = cpu_source(ctx.spec, w.program, cp, strategy=strategy.name,
                                 rb=rb if isinstance(rb, RuntimeBatch) else None)
            except ValueError as e:
                errors.append(str(e))
                continue
            yield seen(("cpu", cp, CandidateKind.CPP, src, Space.PURE_CUDA))
    else:
        dev = device_limits(ctx.device_facts)
        for v in program_variants(fam, focus, w, ctx, space, parent_variant):
            if not space.allows(Space.CUDA_LIBRARIES) and (w.program.convs or
                                                           (v.gemm.impl != "tiled" and w.program.gemms)):
                continue
            libraries = space.allows(Space.CUDA_LIBRARIES)
            rb = cuda_batch(ctx.spec, w.program, v, dev, ctx.precision.value, libraries)
            try:
                src = cuda_source(ctx.spec, w.program, v, strategy=strategy.name, tf32=tf32 and focus == "tf32",
                                  dev=dev, policy=ctx.precision.value, rb=rb, pure=not libraries)
            except ValueError as e:
                errors.append(str(e))
                continue
            # (a general path's products are cuBLAS calls where the space allows them, whatever serves the given
            # batch; the tiled kernel's own elsewhere)
            library = w.program.convs or (w.program.gemms and (v.gemm.impl != "tiled" or
                                                               (rb is not None and libraries)))
            claimed = Space.CUDA_LIBRARIES if library else Space.PURE_CUDA
            yield seen((fam, v, CandidateKind.CUDA, src, claimed))
    if fam != "torch" and space.allows(Space.LIBRARIES_PYTORCH) and all_seen:
        # Every generated kernel of this family was played in an earlier round; in a space that allows
        # PyTorch-level candidates, those are what is left to try rather than nothing.
        yield from _torch_renders(ctx, focus, strategy)


def has_new(ctx: Context, space: Space, strategy: Strategy, memory: Memory) -> bool:
    """Whether the strategy would write at least one source not played in an earlier round of this run.

    The planner asks before committing a round to a strategy, so a round is not spent finding out that
    every variant was already generated (a dry run: nothing is recorded; it stops at the first new source)."""
    r = _renders(ctx, space, strategy, memory)
    return not isinstance(r, Invalid) and any(_hash(src) not in memory.seen for _, _, _, src, _ in r[0])


def generate(ctx: Context, space: Space, strategy: Strategy, k: int, memory: Memory) -> list[Candidate | Invalid]:
    r = _renders(ctx, space, strategy, memory)
    if isinstance(r, Invalid):
        return [r]
    renders, errors = r
    w = workload(ctx)
    out: list[Candidate | Invalid] = []
    for rfam, variant, kind, src, claimed in renders:
        if len(out) >= k:
            break
        h = _hash(src)
        if h in memory.seen:
            continue
        memory.seen.add(h)
        if not ctx.use_contract and kind is not CandidateKind.MODELNEW:
            from engine.task.export import modelnew_source as export_modelnew

            src = export_modelnew(ctx.spec, src, cuda=kind is CandidateKind.CUDA,
                                  note=f"hiera expert, {strategy.name}")
            kind = CandidateKind.MODELNEW
        cid = f"x{ctx.round}-{len(out)}-{h[:8]}"
        label = _label(variant, w)
        out.append(Candidate(cid, kind, src, claimed, origin=f"expert:{rfam}",
                             note=f"{strategy.name}: {label}"))
        memory.variants[cid] = (rfam, variant)
    if not out:
        reason = "; ".join(errors) if errors else f"every variant of {strategy.name} was generated in an earlier round"
        out.append(Invalid(f"x{ctx.round}-empty", reason))
    return out
