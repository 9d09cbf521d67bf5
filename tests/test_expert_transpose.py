"""Expert backend, tiled transposes: a copy or pointwise stage that reads transposed gets a shared-memory
tiled kernel (planned from the graph, not the task's name), the kernels compile with nvcc, index correctly
(run on the CPU through a CUDA emulation and the real evaluator), and the CPU path keeps working."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from contracts.vocabulary import Direction, Space
from engine.agents.base import Context, Invalid, RoundRecord
from engine.agents.expert import ExpertBackend
from engine.agents.expert.codegen.cpu import CpuParams, cpu_source
from engine.agents.expert.codegen.cuda_program import cuda_source
from engine.agents.expert.codegen.transpose import plane_of, transposed_stages
from engine.agents.expert.codegen.variants import TransposeParams, Variant
from engine.agents.expert.generate import TRANSPOSE
from engine.agents.expert.lowering import lower
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
from engine.evaluate.outcome import Precision, Status
from engine.task.contract import write_contract
from engine.task.spec import TaskSpec, load_task
from tests.cuda_emu import EMULATED_CALL_S, emulated_cpp
from tests.nvcc_kit import assert_all_compile, compile_command, nvcc

TASKS = Path(__file__).parent / "data" / "tasks"
# (3, 100, 70) -> (3, 70, 100); NCHW (2, 40, 5, 33) -> NHWC + bias + ReLU: no side a multiple of 32 or 64.
TRANSPOSE_TASKS = ["expert_transpose.py", "expert_permute_bias_relu.py"]


@cache
def spec(name: str) -> TaskSpec:
    return load_task(TASKS / name)


def ctx_for(s: TaskSpec, *, device: str = "cuda:0", history: tuple[RoundRecord, ...] = (), rnd: int = 1,
            contract_dir: Path = Path("/nonexistent")) -> Context:
    return Context(s, contract_dir, device, {}, Precision.FP32, rnd, 3, tuple(Space), None, None, None, history)


# --- planning --------------------------------------------------------------------------------------------------

def test_a_transposed_read_is_detected_from_the_graph_and_a_contiguous_chain_is_not() -> None:
    (stage,) = lower(spec("expert_transpose.py")).stages
    plane = plane_of(stage)
    assert plane is not None and stage.domain == (3, 70, 100) and plane.dim == 1
    (perm,) = lower(spec("expert_permute_bias_relu.py")).stages
    p2 = plane_of(perm)
    # NHWC domain (2, 5, 33, 40): x has unit stride along W (dim 2); the bias is read directly, not staged.
    assert p2 is not None and p2.dim == 2 and [v.buffer for v in p2.staged] == ["x"]
    assert not transposed_stages(lower(spec("expert_chain.py")))
    assert not transposed_stages(lower(spec("expert_softmax.py")))


@pytest.mark.parametrize("task", TRANSPOSE_TASKS)
def test_planner_picks_the_tiled_transpose_in_pure_cuda_and_its_variants_differ(task: str) -> None:
    s = spec(task)
    be = ExpertBackend()
    ctx = ctx_for(s)
    choice = be.ssda.select_space(ctx)
    scores = be.ssda.score_directions(ctx, choice.space)
    strategy = be.spa.plan(ctx, choice.space, scores)
    assert choice.space is Space.PURE_CUDA
    assert scores.best() is Direction.M and "tiled transpose" in scores.evidence[Direction.M][0]
    assert strategy.name == "M.smem_transpose" and strategy.params["focus"] == "transpose"
    cands = be.oa.generate(ctx, choice.space, strategy, 6)
    assert len(cands) == 6 and all(isinstance(c, Candidate) for c in cands)
    assert len({c.source for c in cands}) == 6 and len({c.note for c in cands}) == 6
    for c in cands:
        assert "__shared__ float s0[" in c.source and "__syncthreads();" in c.source
        # ragged tiles: both sides of the plane are bounds-checked
        assert "if (c < " in c.source and " && l < " in c.source
    assert any("[64][65]" in c.source for c in cands) and any("^ (j & 31)" in c.source for c in cands)


def test_default_variant_keeps_flat_kernels_for_a_contiguous_chain() -> None:
    s = spec("expert_chain.py")
    src = cuda_source(s, lower(s), Variant(), strategy="R.fuse_pointwise")
    assert "__shared__" not in src and "tiled transpose" not in src and "transpose tile" not in src


def test_cpu_run_of_a_transpose_task_plans_cpu_code() -> None:
    s = spec("expert_transpose.py")
    be = ExpertBackend()
    ctx = ctx_for(s, device="cpu")
    choice = be.ssda.select_space(ctx)
    strategy = be.spa.plan(ctx, choice.space, be.ssda.score_directions(ctx, choice.space))
    assert strategy.name != "M.smem_transpose"
    cands = be.oa.generate(ctx, choice.space, strategy, 2)
    assert cands and all(isinstance(c, Candidate) and c.kind is CandidateKind.CPP for c in cands)


def test_switch_to_libraries_pytorch_plays_torch_compile_for_a_copy() -> None:
    """A copy scores M highest, and M has no PyTorch-level strategy: the round the rules move to
    libraries_pytorch must still try torch.compile instead of replaying generated kernels."""
    s = spec("expert_transpose.py")
    be = ExpertBackend()
    hist = (RoundRecord(1, Space.PURE_CUDA, Direction.M, "M.smem_transpose", 1.05, ()),)
    ctx = ctx_for(s, history=hist, rnd=2)
    choice = be.ssda.select_space(ctx)
    assert choice.space is Space.LIBRARIES_PYTORCH  # best 1.05x < 1.2x: the rules compare against PyTorch
    scores = be.ssda.score_directions(ctx, choice.space)
    assert scores.best() is Direction.M
    strategy = be.spa.plan(ctx, choice.space, scores)
    assert strategy.name == "R.torch_compile" and strategy.params["family"] == "torch"
    cands = [c for c in be.oa.generate(ctx, choice.space, strategy, 6) if not isinstance(c, Invalid)]
    assert any("mode='default'" in c.note for c in cands)
    assert all(c.kind is CandidateKind.MODELNEW for c in cands)


# --- the CUDA source -------------------------------------------------------------------------------------------

@pytest.mark.skipif(nvcc() is None, reason="nvcc is not installed here")
def test_transpose_sources_compile_with_nvcc_without_warnings(tmp_path: Path) -> None:
    jobs = []
    for task, variants in (("expert_transpose.py", TRANSPOSE), ("expert_permute_bias_relu.py", TRANSPOSE[:4])):
        s = spec(task)
        d = tmp_path / s.name
        write_contract(s, d)
        for i, tp in enumerate(variants):
            f = d / f"v{i}.cu"
            src = cuda_source(s, lower(s), Variant(transpose=tp), strategy="M.smem_transpose")
            f.write_text(src)
            jobs.append((f, compile_command(f, d, src)))
    assert_all_compile(jobs)


def test_a_tile_that_is_not_a_multiple_of_the_warp_is_refused() -> None:
    s = spec("expert_transpose.py")
    with pytest.raises(ValueError, match="multiple of 32"):
        cuda_source(s, lower(s), Variant(transpose=TransposeParams(48, 8)), strategy="M.smem_transpose")


EMULATED = [TransposeParams(32, 8), TransposeParams(64, 8, swizzle=True), TransposeParams(64, 32),
            TransposeParams(32, 4, swizzle=True)]


@pytest.mark.parametrize("task", TRANSPOSE_TASKS)
def test_tiled_transpose_indexes_correctly_under_cpu_emulation(task: str, tmp_path: Path) -> None:
    """Each tile shape, padding and swizzle, run block by block on CPU threads (a real barrier for
    __syncthreads), is correct against PyTorch through the evaluator; a broken swizzle is caught."""
    s = spec(task)
    prog = lower(s)
    srcs = [cuda_source(s, prog, Variant(transpose=tp), strategy="M.smem_transpose") for tp in EMULATED]
    broken = srcs[1].replace("s0[i][j ^ (i & 31)]", "s0[i][j]")  # read back without the swizzle
    assert broken != srcs[1]
    cands = [Candidate(f"e{i}", CandidateKind.CPP, emulated_cpp(src), Space.PURE_CUDA, origin="test:emulated")
             for i, src in enumerate([*srcs, broken])]
    with Evaluator(s, tmp_path, EvalSettings(device="cpu", timing_trials=5, min_call_limit_s=EMULATED_CALL_S)) as ev:
        outs = ev.evaluate(cands)
    assert all(o.valid for o in outs[:-1]), [o.reason for o in outs]
    assert outs[-1].status is Status.INCORRECT, outs[-1].reason


@pytest.mark.parametrize("task", TRANSPOSE_TASKS)
def test_cpu_candidate_of_a_transpose_task_is_valid(task: str, tmp_path: Path) -> None:
    s = spec(task)
    src = cpu_source(s, lower(s), CpuParams(), strategy="P.cpu_threads")
    cand = Candidate("c0", CandidateKind.CPP, src, Space.PURE_CUDA, origin="expert:cpu")
    with Evaluator(s, tmp_path, EvalSettings(device="cpu", timing_trials=20)) as ev:
        (out,) = ev.evaluate([cand])
    assert out.valid, out.reason


def test_a_best_at_the_roofline_sends_no_round_to_torch_compile() -> None:
    """The same 1.05x, but measured at the task's speed of light: torch.compile cannot find more there (it moves
    the same bytes), so the round stays with the generated kernels."""
    from contracts.speed_of_light import SpeedOfLight
    from engine.evaluate.outcome import Outcome, Status, Timing

    s = spec("expert_transpose.py")
    be = ExpertBackend()
    hist = (RoundRecord(1, Space.PURE_CUDA, Direction.M, "M.smem_transpose", 1.05, ()),)
    ms = 0.1
    for share, lands in ((0.95, Space.PURE_CUDA), (0.5, Space.LIBRARIES_PYTORCH)):
        best = Outcome("r1c1", Status.VALID, "", candidate=Timing.from_samples([ms] * 5, "test"),
                       reference=Timing.from_samples([ms * 1.05] * 5, "test"),
                       speed_of_light=SpeedOfLight("memory", 1, 0, "DRAM", share, ms * share, ms))
        ctx = replace(ctx_for(s, history=hist, rnd=2), parent_outcome=best)
        choice = be.ssda.select_space(ctx)
        assert choice.space is lands, choice.rationale
