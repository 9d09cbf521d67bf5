"""Expert SSDA: the implementation space and the five direction scores, by rules over the workload analysis.

The rules read the analysis (analysis.py), the run's allowed spaces, the device, the parent's profile
when one exists (duck-typed: `.scores` {letter: float} and `.evidence` {letter: [str]}) and the rounds
already played (a space that produced nothing valid is left; a direction that did not improve is
demoted), and say why in a sentence a person can read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from contracts.verdict import FlagKind, flag_detail
from contracts.vocabulary import Direction, Space
from engine.agents.base import Context, DirectionScores, SpaceChoice
from engine.agents.expert.analysis import Workload, WorkloadKind, analyze
from engine.agents.expert.codegen import gemm_split
from engine.agents.expert.codegen.transpose import transposed_stages
from engine.evaluate.outcome import Precision

_CACHE: dict[tuple[str, str, str], Workload] = {}


def workload(ctx: Context) -> Workload:
    """The analysis of ctx's task on ctx's device (computed once per task, device and ceilings)."""
    c = ctx.device_facts.ceilings
    key = (ctx.spec.source_hash, ctx.device, f"{c.dram_gbps}/{c.fp32_gflops}" if c is not None else "defaults")
    if key not in _CACHE:
        _CACHE[key] = analyze(ctx.spec, ctx.device_facts, ctx.on_gpu)
    return _CACHE[key]


@dataclass(frozen=True)
class SpaceRank:
    space: Space
    why: str


def space_ranking(w: Workload, on_gpu: bool) -> list[SpaceRank]:
    """Spaces from the most to the least promising for this workload, each with its reason. Hand-written attention
    puts libraries + PyTorch first, on any device: the framework's fused attention is the lever on its scores."""
    ranking = _space_ranking(w, on_gpu)
    if w.attention is None:
        return ranking
    first = SpaceRank(Space.LIBRARIES_PYTORCH, f"hand-written attention ({w.attention}): PyTorch's fused "
                                               "scaled_dot_product_attention keeps the L x S scores on chip, the "
                                               "rest of the forward as written")
    return [first, *[r for r in ranking if r.space is not Space.LIBRARIES_PYTORCH]]


def _space_ranking(w: Workload, on_gpu: bool) -> list[SpaceRank]:
    P, L, T = Space.PURE_CUDA, Space.CUDA_LIBRARIES, Space.LIBRARIES_PYTORCH
    prog = w.program
    if not on_gpu:
        if prog is None:
            return [SpaceRank(T, f"no C++ generator covers this graph ({w.unsupported}); the PyTorch-level "
                                 "candidates (torch.compile) are what is left on the CPU")]
        return [SpaceRank(P, f"{len(prog.stages)} generated C++ loop nest(s) with OpenMP and SIMD cover the "
                             "whole graph"),
                SpaceRank(T, "torch.compile's C++ backend as the alternative"),
                SpaceRank(L, "no CUDA library on the CPU: same C++ generators")]
    if w.stencil is not None:
        st = w.stencil
        lib = (SpaceRank(L, "cuDNN called directly as the alternative") if prog is not None and prog.convs
               else SpaceRank(L, "no direct library call is generated for it: same generated kernels"))
        return [SpaceRank(P, f"{st.describe()}: no sum across channels, so a generated stencil kernel (shared-memory "
                             f"tile with halo, register blocking) reads each input about once where a library "
                             f"convolution runs a GEMM-shaped algorithm over {st.points}-point windows"),
                SpaceRank(T, "cuDNN (the reference's own library) with autotuning, and torch.compile, as the "
                             "alternative"), lib]
    if prog is None:
        return [SpaceRank(T, f"the kernel generators cannot express {w.unsupported}: torch.compile, CUDA graphs "
                             "and cuDNN autotuning are the candidates"),
                SpaceRank(L, "nothing generated applies"), SpaceRank(P, "nothing generated applies")]
    n_stages = len(prog.stages)
    if prog.convs:
        n_lib = len(prog.convs) + len(prog.gemms)
        why = (f"{len(prog.convs)} convolution(s): cuDNN with the algorithm it times fastest for this shape (FMA "
               f"math under strict fp32); the {n_stages - n_lib} stage(s) around them (bias, batch norm, "
               "activations, residual) become generated kernels that read the convolution's output once")
        return [SpaceRank(L, why),
                SpaceRank(T, "cuDNN autotuning, channels_last and torch.compile as the alternative"),
                SpaceRank(P, "pure CUDA has no convolution generator")]
    if prog.gemms:
        why = (f"{len(prog.gemms)} matrix product(s): cuBLAS (strict fp32) is the best SGEMM there is; "
               f"the {n_stages - len(prog.gemms)} stage(s) around them become generated kernels (epilogue fusion)")
        return [SpaceRank(L, why),
                SpaceRank(T, "torch.compile as the alternative when library calls plus fused epilogues do not win"),
                SpaceRank(P, "a generated tiled SGEMM is slower than cuBLAS, kept only for fixed pure-CUDA runs")]
    if w.kind is WorkloadKind.LAUNCH_BOUND and n_stages > 2:
        return [SpaceRank(T, f"{w.n_compute} small operators: launch overhead dominates and CUDA-graph replay "
                             "removes it"),
                SpaceRank(P, f"or fuse them into {n_stages} generated kernels")]
    what = {"pointwise": "a pointwise chain", "row_reduction": "row reductions with their pointwise neighbours",
            "data_movement": "a copy"}.get(w.pattern, w.pattern)
    why = (f"{what} ({w.n_compute} op(s)) fuses into {n_stages} generated kernel(s): memory-bound, each byte "
           f"read once and written once ({w.fusion_gain:.1f}x fewer bytes than eager)")
    return [SpaceRank(P, why),
            SpaceRank(T, "torch.compile as the alternative"),
            SpaceRank(L, "no library call needed: same generated kernels")]


def _rounds_in(ctx: Context, space: Space) -> list[Any]:
    return [r for r in ctx.history if r.space is space]


def _judged(r: Any) -> bool:
    """Whether a round's candidates got a verdict: not when hiera's checker itself failed on every one of them
    (its checker_error flag), which says nothing about the space."""
    return not r.outcomes or any(flag_detail(o.flags or (), FlagKind.CHECKER_ERROR) is None for o in r.outcomes)


def _valid_in(ctx: Context, space: Space) -> bool | None:
    """Whether rounds in this space produced a valid candidate (None: never tried, or never judged)."""
    rounds = [r for r in _rounds_in(ctx, space) if _judged(r)]
    if not rounds:
        return None
    return any(r.best_speedup is not None for r in rounds)


def _exhausted(ctx: Context, space: Space) -> bool:
    """A round in this space got nothing new to evaluate (every variant was generated earlier)."""
    return any(r.outcomes and all(o.reason.startswith("no usable source") for o in r.outcomes)
               for r in _rounds_in(ctx, space))


def best_speedup(ctx: Context) -> float | None:
    vals = [r.best_speedup for r in ctx.history if r.best_speedup is not None]
    return max(vals) if vals else None


# A best at this share of the task's speed of light is done: a round elsewhere cannot gain 10%.
AT_ROOFLINE = 0.9


def roofline_share(ctx: Context, w: Workload) -> float | None:
    """The best candidate's share of the task's speed of light (1.0: at the bound): the checker's figure from the
    task's graph and the device's measured ceilings (engine/evaluate/speed_of_light.py), when it gave one."""
    o = ctx.parent_outcome
    sol = o.speed_of_light if o is not None and o.valid else None
    return sol.fraction if sol is not None else None


def select_space(ctx: Context, fresh: Callable[[Space], bool] | None = None) -> SpaceChoice:
    """The round's space. fresh(space), when given, is a dry run saying whether a round there would write
    anything new; a space that would not is passed over like one whose generators said so in a round."""
    w = workload(ctx)
    ranking = [r for r in space_ranking(w, ctx.on_gpu) if r.space in ctx.allowed_spaces]
    # A space missing from the ranking but allowed (fixed-space runs) still gets a chance.
    for s in ctx.allowed_spaces:
        if all(r.space is not s for r in ranking):
            ranking.append(SpaceRank(s, "the only space this run allows"))
    head = f"Workload: {w.summary()}."
    if ctx.regions is not None and len(ctx.regions.regions) > 1:
        # Measured on the device (contracts/regions.py): which submodules hold eager's time.
        head += f" Where eager spends its time: {ctx.regions.summary()}."
    if len(ctx.allowed_spaces) == 1:
        only = ctx.allowed_spaces[0]
        why = next((r.why for r in ranking if r.space is only), "")
        return SpaceChoice(only, f"{head} This run is fixed to {only.value}: {why}.")
    choice = ranking[0]
    note = ""
    spent: dict[Space, bool] = {}

    def used_up(space: Space) -> bool:
        if space not in spent:
            spent[space] = _exhausted(ctx, space) or (fresh is not None and not fresh(space))
        return spent[space]

    # Leave a space that produced nothing valid, or whose generators have nothing new left (known from a
    # dry run before any slot is spent on it), for the next one in the ranking.
    for r in ranking:
        if _valid_in(ctx, r.space) is False or used_up(r.space):
            continue
        choice = r
        break
    if choice is not ranking[0]:
        why = "has nothing new to generate" if used_up(ranking[0].space) else \
            "produced no valid candidate in an earlier round"
        note = f" {ranking[0].space.value} {why}, so: {choice.space.value}."
    # Rounds count from 1. From the second-to-last round on (round 2 of 3), compare against the PyTorch-level
    # candidates once when the best so far is modest, so that a round is still left after it to refine
    # whichever space wins.
    best = best_speedup(ctx)
    last = ctx.round >= ctx.rounds - 1 if ctx.rounds else False
    at_bound = roofline_share(ctx, w)
    if at_bound is not None and at_bound >= AT_ROOFLINE:
        # A best already at the bound has nothing for torch.compile to find (it cannot move fewer bytes than
        # the bound counts); its candidates cost a compile each in the evaluator. Seen on the H200: a sigmoid
        # over 6.4 GB at 100% of the bound spent a round of 75 s verifying torch.compile variants.
        note += f" The best so far runs at {at_bound:.0%} of its speed of light, so no round goes to torch.compile."
    elif (last and ctx.history and Space.LIBRARIES_PYTORCH in ctx.allowed_spaces
            and _valid_in(ctx, Space.LIBRARIES_PYTORCH) is None and best is not None and best < 1.2
            and choice.space is not Space.LIBRARIES_PYTORCH and ctx.on_gpu and not used_up(Space.LIBRARIES_PYTORCH)):
        choice = next((r for r in ranking if r.space is Space.LIBRARIES_PYTORCH), choice)
        note += (f" The best so far is {best:.2f}x, so this round tries the PyTorch-level alternatives "
                 "(torch.compile, CUDA graphs) once.")
    return SpaceChoice(choice.space, f"{head} {choice.space.title}: {choice.why}.{note}")


# --- directions ---------------------------------------------------------------------------------------------

C, P, M, R, T = Direction.C, Direction.P, Direction.M, Direction.R, Direction.T


def _base_scores(w: Workload, space: Space, ctx: Context) -> tuple[dict[Direction, float], dict[Direction, list[str]]]:
    s, ev = _workload_scores(w, space, ctx)
    if w.attention is not None and space.allows(Space.LIBRARIES_PYTORCH):
        s[Direction.R] = max(s[Direction.R], 0.9)
        ev[Direction.R].insert(0, f"hand-written attention ({w.attention}): one scaled_dot_product_attention call "
                                  "reads q, k and v once instead of writing and reading the L x S scores")
    return s, ev


def _workload_scores(w: Workload, space: Space, ctx: Context
                     ) -> tuple[dict[Direction, float], dict[Direction, list[str]]]:
    s = dict.fromkeys(Direction, 0.1)
    ev: dict[Direction, list[str]] = {d: [] for d in Direction}
    prog = w.program
    gpu = ctx.on_gpu
    elems = max((op.shape and __import__("math").prod(op.shape)) or 0 for op in w.ops) if w.ops else 0
    if not gpu:
        s[P], s[R] = 0.7, 0.6
        ev[P].append("CPU: OpenMP over the outer loop keeps every core busy")
        if prog is not None and prog.gemms:
            s[R] = 0.75
            ev[R].append("cache-blocked GEMM with the epilogue applied while the block is in cache")
        elif prog is not None:
            ev[R].append(f"{len(prog.stages)} fused loop nest(s) instead of {w.n_compute} separate passes")
        if prog is None:
            s[R] = 0.6
            ev[R].append(f"no generator for {w.unsupported}: torch.compile (C++ backend)")
        return s, ev
    if w.stencil is not None and space.allows(Space.PURE_CUDA):
        return _stencil_scores(w, ctx, s, ev)
    if prog is None:
        # PyTorch-level only.
        if w.pattern == "conv" or w.counts.get("conv"):
            s[T], s[M], s[R], s[P] = 0.7, 0.55, 0.5, 0.35
            ev[T].append("convolution: cuDNN picks the fastest algorithm per shape only in benchmark mode")
            ev[M].append("channels_last is the layout of cuDNN's fastest fp32 kernels")
            ev[R].append("torch.compile fuses the pointwise ops after the convolution")
        else:
            s[R], s[P] = 0.7, 0.5
            ev[R].append(f"torch.compile can fuse what the generators cannot express ({w.unsupported})")
        if w.kind is WorkloadKind.LAUNCH_BOUND:
            s[P] = 0.8
            ev[P].append(f"{w.n_compute} small ops: estimated eager {w.eager_estimate_ms * 1e3:.1f} us is mostly "
                         "launch overhead; a CUDA graph replays them as one")
        return s, ev
    gemms = prog.gemms
    rows = [st for st in prog.fused if st.has_reduction]
    flat = [st for st in prog.fused if not st.has_reduction]
    if prog.convs:
        # Convolutions are cuDNN calls (pure CUDA has no generator for them): the algorithm choice is the
        # time (T); fusing what follows them saves a pass over their output per op (R).
        s[T], s[R], s[M] = 0.7, 0.65 if prog.fused else 0.4, 0.45
        ev[T].append(f"{len(prog.convs)} convolution(s), {w.flops / 1e9:.3g} GFLOP: the cuDNN algorithm decides the "
                     "time; the fastest is timed once per shape (FMA math, no TF32)")
        if prog.fused:
            ev[R].append(f"{len(prog.fused)} stage(s) around the convolutions fused into one kernel each "
                         f"({w.fusion_gain:.1f}x fewer bytes than eager)")
        ev[M].append("channels_last is the layout of cuDNN's fastest fp32 kernels (a PyTorch-level variant)")
        return s, ev
    if w.kind is WorkloadKind.LAUNCH_BOUND and space is Space.LIBRARIES_PYTORCH and len(prog.stages) > 2:
        s[P] = 0.85
        ev[P].append(f"{w.n_compute} small ops, estimated {w.eager_estimate_ms * 1e3:.1f} us eager: CUDA graph")
    if gemms:
        gflop = w.flops / 1e9
        if space is Space.PURE_CUDA:
            s[R], s[M], s[T] = 0.8, 0.45, 0.2
            ev[R].append(f"{gflop:.3g} GFLOP in {len(gemms)} product(s): shared-memory tiles and register blocking "
                         "are what a pure-CUDA SGEMM lives on")
        else:
            s[T], s[R] = 0.7, 0.75 if (rows or flat) else 0.5
            ev[T].append(f"{gflop:.3g} GFLOP in {len(gemms)} product(s), intensity {w.intensity:.0f} FLOP/B: "
                         "compute-bound, cuBLAS SGEMM (CUBLAS_COMPUTE_32F, no TF32) is the ceiling")
            if rows or flat:
                ev[R].append(f"{len(rows) + len(flat)} epilogue stage(s) fused into one kernel each after the "
                             f"library call ({w.fusion_gain:.1f}x fewer bytes than eager)")
            if ctx.precision is Precision.TF32:
                s[T] = 0.85
                ev[T].append("the tf32 policy allows TF32 tensor cores")
            elif any(gemm_split.worthwhile(g) for g in gemms):
                s[T] = 0.8
                ev[T].insert(0, "3xTF32 split: hi*hi + hi*lo + lo*hi on the TF32 tensor cores, 2.1-2.6x SGEMM's "
                                "rate on large layers (H200) and usually within the strict fp32 tolerance")
        return s, ev
    if rows:
        d = rows[0].row_len
        s[R], s[P], s[M], s[C] = 0.8, 0.6, 0.55, 0.25
        ev[R].append(f"{len(rows)} row-reduction stage(s) over rows of {d}: one pass with the row kept in "
                     "registers instead of one kernel per op")
        ev[P].append(f"{rows[0].rows} rows of {d}: threads per row and rows per block set the occupancy")
        ev[M].append("float4 loads along the row" if d % 4 == 0 else f"row length {d} is not a multiple of 4: "
                     "scalar access")
        if d % 4:
            s[M] = 0.3
            s[C] = 0.4
            ev[C].append(f"ragged rows ({d} % 4 != 0) need a tail path")
    if flat:
        s[R] = max(s[R], 0.8 if w.n_compute > 1 else 0.5)
        s[M] = max(s[M], 0.7)
        s[P] = max(s[P], 0.45)
        ev[R].append(f"{w.n_compute} op(s) over {elems} elements fused into one pass "
                     f"({w.fusion_gain:.1f}x fewer bytes than eager)")
        vecable = all(st.domain and st.domain[-1] % 4 == 0 for st in flat)
        ev[M].append("16-byte vector access (float4)" + ("" if vecable else ", scalar tail where the last dim "
                                                                            "is not a multiple of 4"))
        ev[P].append("block size and vectors per thread decide how many bytes are in flight")
        if w.n_compute <= 1:
            s[M] = 0.75
            ev[M].append("a single op: nothing to fuse, the access pattern is what is left")
        tr = transposed_stages(prog)
        if tr:
            # A gather strided along the output's last dim reads one sector per element: fixing the access
            # pattern beats any fusion or launch-shape knob.
            s[M] = max(s[M], 0.85)
            dims = ", ".join("x".join(map(str, st.domain)) for st in tr)
            ev[M].insert(0, f"{len(tr)} stage(s) ({dims}) read transposed, strided along the output's last dim: "
                            "a shared-memory tiled transpose makes both reads and writes coalesced")
    return s, ev


def _stencil_scores(w: Workload, ctx: Context, s: dict[Direction, float], ev: dict[Direction, list[str]]
                    ) -> tuple[dict[Direction, float], dict[Direction, list[str]]]:
    """A stencil: reuse (R: tiles with halos, register blocking) leads; then the tile shape for coalesced rows
    (M) and the block shape for occupancy (P). Which of R and M leads follows from the kernel's arithmetic
    intensity against the device's ridge point (fp64 at half the fp32 rate, as on the H100/H200 and A100)."""
    st = w.stencil
    assert st is not None
    peak = w.ceilings.fp32_tflops * 1e12 * (0.5 if st.dtype == "float64" else 1.0)
    bw = w.ceilings.copy_gbps * 1e9
    intensity = st.flops / st.min_bytes
    ridge = peak / bw
    compute_bound = intensity > ridge
    s[R], s[M], s[P], s[T], s[C] = (0.85, 0.6, 0.5, 0.3, 0.15) if compute_bound else (0.75, 0.7, 0.5, 0.3, 0.15)
    ev[R].append(f"{st.points}-point neighbourhood: each input is used by {st.points} outputs; a shared-memory tile "
                 f"with halo reads it once from DRAM, register blocking along axis 0 loads each neighbourhood value "
                 f"once for several outputs ({intensity:.1f} FLOP/B against a ridge of {ridge:.1f}: "
                 f"{'FMA-bound, so loads per FMA matter' if compute_bound else 'memory-bound'})")
    ev[M].append(f"rows of {st.grid[-1]} {st.dtype} values: a tile wide along the contiguous axis keeps loads and "
                 "stores coalesced and the halo's share small")
    ev[P].append("block shape and outputs per thread set the blocks resident per SM (shared memory and registers)")
    ev[T].append("cuDNN's convolution (the reference's library) with autotuning, as a PyTorch-level alternative")
    return s, ev


def _history_adjust(ctx: Context, space: Space, s: dict[Direction, float], ev: dict[Direction, list[str]]) -> None:
    prev_best: float | None = None
    for r in ctx.history:
        if r.space is space:
            d = r.direction
            if r.best_speedup is None:
                s[d] = max(0.0, s[d] - 0.35)
                ev[d].append(f"round {r.round}: {r.strategy} produced nothing valid")
            elif prev_best is not None and r.best_speedup <= prev_best * 1.01:
                s[d] = max(0.0, s[d] - 0.25)
                ev[d].append(f"round {r.round}: {r.strategy} did not improve ({r.best_speedup:.2f}x)")
            else:
                s[d] = max(0.0, s[d] - 0.12)
                ev[d].append(f"round {r.round}: {r.strategy} reached {r.best_speedup:.2f}x; try the next knob")
        if r.best_speedup is not None:
            prev_best = max(prev_best or 0.0, r.best_speedup)


def _profile_adjust(ctx: Context, s: dict[Direction, float], ev: dict[Direction, list[str]]) -> bool:
    prof = ctx.parent_profile  # contracts.profile.Profile: scores and evidence keyed by direction letter
    if prof is None or not prof.scores:
        return False
    for d in Direction:
        v = prof.scores.get(d.value)
        if v is None:
            continue
        s[d] = 0.5 * s[d] + 0.5 * float(v)
        for e in prof.evidence.get(d.value, [])[:2]:
            ev[d].append(f"profile: {e}")
    return True


def score_directions(ctx: Context, space: Space) -> DirectionScores:
    w = workload(ctx)
    s, ev = _base_scores(w, space, ctx)
    profiled = _profile_adjust(ctx, s, ev)
    _history_adjust(ctx, space, s, ev)
    s = {d: round(min(1.0, max(0.0, v)), 3) for d, v in s.items()}
    top = sorted(Direction, key=lambda d: -s[d])[:3]
    scores_txt = " ".join(f"{d.value} {s[d]:.2f}" for d in top)
    lead = ev[top[0]][0] if ev[top[0]] else ""
    what = {"pointwise": f"pointwise chain of {w.n_compute} op(s)", "row_reduction": "row reduction(s)",
            "gemm": "a matrix product", "gemm_epilogue": "a matrix product with an epilogue",
            "conv": "a convolution", "composite": "a composite model", "data_movement": "data movement",
            "reduction": "reductions"}.get(w.pattern, w.pattern)
    rationale = (f"{what}: {w.bound}-bound ({w.kind.value.replace('_', ' ')}) -> {space.value}, {scores_txt}"
                 + (f"; {lead}" if lead else "") + ("; blended with the parent's profile" if profiled else ""))
    return DirectionScores({d: s[d] for d in Direction}, {d: tuple(ev[d]) for d in Direction}, rationale)
