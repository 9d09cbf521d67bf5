"""Expert backend, pooling: max and average pools (1-, 2-, 3-D, module or functional, after a pointwise op)
lower to one fused stage over a windowed view, plan pure CUDA candidates, compile with nvcc and compute what
PyTorch does (on the CPU as C++, and as CUDA under the CPU emulation, through the real evaluator); padding is
refused with a reason instead of a wrong border."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from contracts.vocabulary import Space
from engine.agents.base import Context, RoundRecord
from engine.agents.expert import ExpertBackend
from engine.agents.expert.codegen.cpu import CpuParams, cpu_source
from engine.agents.expert.codegen.cuda_program import cuda_source
from engine.agents.expert.codegen.variants import Variant
from engine.agents.expert.ir import FusedStage
from engine.agents.expert.lowering import Unsupported, lower
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
from engine.evaluate.outcome import Precision
from engine.task.contract import write_contract
from engine.task.spec import TaskSpec, load_task
from tests.cuda_emu import EMULATED_CALL_S, emulated_cpp
from tests.nvcc_kit import assert_all_compile, compile_command

TASKS = Path(__file__).parent / "data" / "tasks"
POOLS = ["expert_relu_maxpool2d.py", "expert_avgpool_functional.py"]


@cache
def spec(name: str) -> TaskSpec:
    return load_task(TASKS / name)


def ctx_for(s: TaskSpec, device: str = "cuda:0", history: tuple[RoundRecord, ...] = ()) -> Context:
    return Context(s, Path("/nonexistent"), device, {}, Precision.FP32, 1, 3, tuple(Space), None, None, None, history)


def test_a_pool_is_one_fused_stage_per_output_over_the_window() -> None:
    (st,) = lower(spec("expert_relu_maxpool2d.py")).stages
    # (17 - 3) // 2 + 1 = 8, (23 - 3) // 2 + 1 = 11: the ReLU is read through the window, not written out.
    assert isinstance(st, FusedStage) and st.domain == (2, 5, 8, 11)
    a, b = lower(spec("expert_avgpool_functional.py")).stages
    assert a.domain == (3, 7, 16) and b.domain == (2, 3, 3, 4, 2)


def test_padding_is_refused_with_the_reason() -> None:
    with pytest.raises(Unsupported, match="padding"):
        lower(spec("expert_maxpool_padded.py"))


@pytest.mark.parametrize("task", POOLS)
def test_the_planner_writes_pure_cuda_for_a_pool(task: str) -> None:
    s = spec(task)
    be = ExpertBackend()
    ctx = ctx_for(s)
    choice = be.ssda.select_space(ctx)
    strategy = be.spa.plan(ctx, choice.space, be.ssda.score_directions(ctx, choice.space))
    cands = be.oa.generate(ctx, choice.space, strategy, 4)
    assert choice.space is Space.PURE_CUDA and cands
    assert all(c.kind is CandidateKind.CUDA and c.space is Space.PURE_CUDA for c in cands)


@pytest.mark.parametrize("task", POOLS)
def test_pool_kernels_compile(task: str, tmp_path: Path) -> None:
    s = spec(task)
    write_contract(s, tmp_path)
    f = tmp_path / "pool.cu"
    src = cuda_source(s, lower(s), Variant(), strategy="R.fuse_pointwise")
    f.write_text(src)
    assert_all_compile([(f, compile_command(f, tmp_path, src))])


@pytest.mark.parametrize("task", POOLS)
def test_pools_compute_what_pytorch_does_as_cpu_code_and_under_cuda_emulation(task: str, tmp_path: Path) -> None:
    s = spec(task)
    prog = lower(s)
    cands = [Candidate("cpu", CandidateKind.CPP, cpu_source(s, prog, CpuParams(), strategy="P.cpu_threads"),
                       Space.PURE_CUDA, origin="expert:cpu")]
    if task == POOLS[0]:  # the emulation runs a thread per CUDA thread: one task's worth is enough
        cands.append(Candidate("emu", CandidateKind.CPP,
                               emulated_cpp(cuda_source(s, prog, Variant(), strategy="R.fuse_pointwise")),
                               Space.PURE_CUDA, origin="test:emulated"))
    with Evaluator(s, tmp_path, EvalSettings(device="cpu", timing_trials=5, min_call_limit_s=EMULATED_CALL_S)) as ev:
        outs = ev.evaluate(cands)
    assert all(o.valid for o in outs), [o.reason for o in outs]
