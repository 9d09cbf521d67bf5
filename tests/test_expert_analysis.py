"""Expert backend, analysis side: operator classes, FLOP/byte counts, rooflines, lowering, SSDA rules."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch

from contracts.device import Device, DeviceFacts
from contracts.speed_of_light import Ceilings
from contracts.vocabulary import Direction, Space
from engine.agents.base import Context, RoundRecord
from engine.agents.expert import ExpertBackend
from engine.agents.expert.analysis import WorkloadKind, analyze
from engine.agents.expert.codegen.common import reduction_passes
from engine.agents.expert.ir import GemmStage, View
from engine.agents.expert.lowering import lower
from engine.agents.expert.space_direction import workload
from engine.evaluate.outcome import Precision
from engine.task.spec import TaskSpec, load_task

TASKS = Path(__file__).parent / "data" / "tasks"


@cache
def spec(name: str) -> TaskSpec:
    return load_task(TASKS / name)


def ctx_for(s: TaskSpec, *, device: str = "cuda:0", spaces: tuple[Space, ...] = tuple(Space),
            history: tuple[RoundRecord, ...] = (), profile: object = None, rnd: int = 0) -> Context:
    return Context(s, Path("/nonexistent"), device, {}, Precision.FP32, rnd, 3, spaces, None, None, profile,
                   history)


def test_pointwise_chain_is_memory_bound_fusable_with_counted_bytes_and_flops() -> None:
    s = spec("expert_chain.py")
    w = analyze(s, {}, on_gpu=True)
    assert w.pattern == "pointwise"
    assert w.kind is WorkloadKind.MEMORY_BOUND_FUSABLE or w.kind is WorkloadKind.LAUNCH_BOUND
    n = 256 * 512
    assert w.min_bytes == (2 * n + 512) * 4  # x read, out written, bias read
    assert w.flops >= 10 * n  # at least one FLOP per element per op, more for transcendentals
    assert w.counts["pointwise"] >= 10
    assert w.fusion_gain > 5  # eager writes and re-reads every intermediate
    assert w.program is not None and len(w.program.stages) == 1


def test_softmax_is_a_row_reduction_with_two_passes() -> None:
    s = spec("expert_softmax.py")
    w = analyze(s, {}, on_gpu=True)
    assert w.pattern == "row_reduction" and w.kb_kind == "reduction"
    (stage,) = w.program.stages
    assert stage.has_reduction and stage.row_len == 1000
    passes = reduction_passes([e for _, e in stage.outputs])
    assert [[r.op for r in p] for p in passes] == [["max"], ["sum"]]


def test_linear_epilogue_is_library_bound_and_counts_gemm_flops() -> None:
    s = spec("expert_linear_relu.py")
    w = analyze(s, {}, on_gpu=True)
    assert w.pattern == "gemm_epilogue" and w.kind is WorkloadKind.LIBRARY_BOUND
    assert 2 * 96 * 160 * 192 <= w.flops < 2 * 96 * 160 * 192 + 10 * 96 * 160
    (gemm,) = w.program.gemms
    # nn.Linear is x @ W^T: the weight is read transposed, never copied.
    assert (gemm.m, gemm.n, gemm.k) == (96, 160, 192)
    assert gemm.b.buffer == "fc.weight" and gemm.b.strides == (1, 192)


def test_convolution_is_library_bound_a_cudnn_call_on_the_gpu_and_unsupported_on_the_cpu() -> None:
    s = spec("expert_conv_relu.py")
    w = analyze(s, {}, on_gpu=True)
    assert w.pattern == "conv" and w.kind is WorkloadKind.LIBRARY_BOUND
    assert w.program is not None and len(w.program.convs) == 1 and len(w.program.fused) == 1
    cpu = analyze(s, {}, on_gpu=False)
    assert cpu.program is None and "convolution" in (cpu.unsupported or "")
    assert w.flops == 2 * (2 * 8 * 16 * 16) * (4 * 3 * 3) + 2 * 8 * 16 * 16  # conv MACs x2, plus the ReLU


def test_roofline_uses_measured_ceilings_when_given() -> None:
    s = spec("expert_linear_relu.py")
    measured = Ceilings(key="test", device="cuda:0 (a test's)", dram_gbps=1000.0, fp32_gflops=10000.0, pinned=True)
    w = analyze(s, DeviceFacts(Device("cuda", 0), "a test's", ceilings=measured), on_gpu=True)
    assert w.ceilings.source == "measured" and w.ceilings.copy_gbps == 1000.0 and w.ceilings.fp32_tflops == 10.0
    expected = max(w.min_bytes / 1e12, w.flops / 1e13) * 1e3
    assert w.roofline_ms == pytest.approx(expected)
    cpu = analyze(s, {}, on_gpu=False)
    assert cpu.ceilings.source == "default (CPU)" and cpu.roofline_ms > w.roofline_ms


def test_many_tiny_ops_are_launch_bound(tmp_path: Path) -> None:
    task = tmp_path / "tiny_chain.py"
    task.write_text(
        "import torch\nfrom torch import nn\n\n"
        "class Model(nn.Module):\n"
        "    def forward(self, x):\n"
        "        return torch.tanh(torch.sigmoid(x * 2.0 + 1.0) - 0.5).abs() + x\n\n"
        "def get_inputs():\n    return [torch.randn(8, 8)]\n\n"
        "def get_init_inputs():\n    return []\n")
    w = analyze(load_task(task), {}, on_gpu=True)
    assert w.kind is WorkloadKind.LAUNCH_BOUND
    assert w.eager_estimate_ms > 10 * w.roofline_ms


def test_view_reshape_agrees_with_torch_view() -> None:
    rnd = random.Random(0)
    for _ in range(300):
        shape = [rnd.choice([1, 2, 3, 4, 6]) for _ in range(rnd.randint(1, 4))]
        base = torch.arange(int(torch.tensor(shape).prod())).reshape(shape)
        perm = list(range(len(shape)))
        rnd.shuffle(perm)
        t = base.permute(perm)
        v = View("x", tuple(t.shape), tuple(t.stride()), t.storage_offset())
        n = t.numel()
        a = rnd.choice([d for d in range(1, n + 1) if n % d == 0])
        new = rnd.choice([(a, n // a), (n,), (1, a, n // a)])
        got = v.reshape(new)
        try:
            want = t.view(new)
        except RuntimeError:
            assert got is None
            continue
        assert got is not None
        assert torch.equal(torch.as_strided(base.flatten(), new, got.strides, got.offset), want)


def test_lowering_fuses_layernorm_and_residual_into_one_stage() -> None:
    prog = lower(spec("expert_layernorm.py"))
    assert len(prog.stages) == 1 and prog.stages[0].has_reduction
    assert prog.stages[0].domain == (4, 64, 256)
    assert not prog.temps


def test_lowering_middle_dim_reduction_gets_its_own_stage() -> None:
    prog = lower(spec("expert_sum_middle.py"))
    assert all(not isinstance(st, GemmStage) for st in prog.stages)
    assert any(st.has_reduction and st.row_len == 200 for st in prog.stages)  # mean over dim 1, moved last


# --- SSDA rules ----------------------------------------------------------------------------------------------

def test_space_choice_follows_the_workload_and_explains_it() -> None:
    be = ExpertBackend()
    chain = be.ssda.select_space(ctx_for(spec("expert_chain.py")))
    assert chain.space is Space.PURE_CUDA and "fuses into 1 generated kernel" in chain.rationale
    gemm = be.ssda.select_space(ctx_for(spec("expert_linear_relu.py")))
    assert gemm.space is Space.CUDA_LIBRARIES and "cuBLAS" in gemm.rationale
    conv = be.ssda.select_space(ctx_for(spec("expert_conv_relu.py")))
    assert conv.space is Space.CUDA_LIBRARIES and "cuDNN" in conv.rationale
    conv_cpu = be.ssda.select_space(ctx_for(spec("expert_conv_relu.py"), device="cpu"))
    assert conv_cpu.space is Space.LIBRARIES_PYTORCH and "torch.compile" in conv_cpu.rationale
    cpu = be.ssda.select_space(ctx_for(spec("expert_softmax.py"), device="cpu"))
    assert cpu.space is Space.PURE_CUDA and "C++" in cpu.rationale


def test_fixed_space_run_gets_that_space() -> None:
    be = ExpertBackend()
    choice = be.ssda.select_space(ctx_for(spec("expert_linear_relu.py"), spaces=(Space.PURE_CUDA,)))
    assert choice.space is Space.PURE_CUDA and "fixed" in choice.rationale
    scores = be.ssda.score_directions(ctx_for(spec("expert_linear_relu.py"), spaces=(Space.PURE_CUDA,)),
                                      Space.PURE_CUDA)
    strategy = be.spa.plan(ctx_for(spec("expert_linear_relu.py"), spaces=(Space.PURE_CUDA,)), Space.PURE_CUDA,
                           scores)
    assert strategy.params["family"] in ("tiled", "program")  # no library in pure CUDA


def test_direction_scores_have_evidence_and_a_readable_rationale() -> None:
    be = ExpertBackend()
    ds = be.ssda.score_directions(ctx_for(spec("expert_chain.py")), Space.PURE_CUDA)
    assert ds.best() is Direction.R
    assert all(0.0 <= v <= 1.0 for v in ds.scores.values())
    assert ds.evidence[Direction.R] and "fused" in ds.evidence[Direction.R][0]
    assert ds.rationale.startswith("pointwise chain of") and "pure_cuda" in ds.rationale


def test_a_space_that_produced_nothing_valid_is_left() -> None:
    be = ExpertBackend()
    s = spec("expert_chain.py")
    failed = (RoundRecord(0, Space.PURE_CUDA, Direction.R, "R.fuse_pointwise", None, ()),)
    choice = be.ssda.select_space(ctx_for(s, history=failed, rnd=1))
    assert choice.space is not Space.PURE_CUDA and "no valid candidate" in choice.rationale


def test_a_direction_that_did_not_improve_is_demoted_and_the_profile_is_blended() -> None:
    be = ExpertBackend()
    s = spec("expert_chain.py")
    base = be.ssda.score_directions(ctx_for(s), Space.PURE_CUDA)
    hist = (RoundRecord(0, Space.PURE_CUDA, Direction.R, "R.fuse_pointwise", 2.0, ()),
            RoundRecord(1, Space.PURE_CUDA, Direction.R, "R.fuse_pointwise", 2.0, ()))
    later = be.ssda.score_directions(ctx_for(s, history=hist, rnd=2), Space.PURE_CUDA)
    assert later.scores[Direction.R] < base.scores[Direction.R]
    prof = SimpleNamespace(scores={"P": 1.0}, evidence={"P": ["achieved occupancy 20%"]})
    blended = be.ssda.score_directions(ctx_for(s, profile=prof), Space.PURE_CUDA)
    assert blended.scores[Direction.P] > base.scores[Direction.P]
    assert any("occupancy" in e for e in blended.evidence[Direction.P])


def test_a_space_with_nothing_new_to_generate_is_left_for_the_next(tmp_path) -> None:
    from engine.agents.expert.space_direction import select_space
    from engine.evaluate.outcome import Outcome, Status

    s = spec("expert_chain.py")
    spent = Outcome("r2c1", Status.BUILD_FAILED, "no usable source: every variant of P.work_per_thread was "
                                                  "generated in an earlier round")
    history = (RoundRecord(1, Space.PURE_CUDA, Direction.P, "P.cpu_threads", 0.9, ()),
               RoundRecord(2, Space.PURE_CUDA, Direction.P, "P.work_per_thread", None, (spent,)))
    choice = select_space(ctx_for(s, device="cpu", history=history, rnd=3))
    assert choice.space is Space.LIBRARIES_PYTORCH
    assert "nothing new to generate" in choice.rationale


def test_the_ceilings_the_evaluator_measured_reach_the_planner() -> None:
    """The worker's facts carry the measured ceilings (Evaluator.speed_of_light adds them) into every round's
    context; the planner's workload is computed from them, not from the defaults (before issue 40 it read keys
    nobody wrote, and always used the defaults)."""
    s = spec("expert_linear_relu.py")
    measured = Ceilings(key="test", device="cpu (a test's)", dram_gbps=7.0, fp32_gflops=3.0, pinned=True)
    facts = DeviceFacts.from_json(DeviceFacts(Device("cpu"), "a test's", threads=2, ceilings=measured).to_json())
    assert facts.ceilings == measured  # across the worker's process boundary and back
    ctx = Context(s, Path("/nonexistent"), "cpu", facts, Precision.FP32, 1, 3, tuple(Space), None, None, None)
    w = workload(ctx)
    assert w.ceilings.source == "measured" and w.ceilings.copy_gbps == 7.0 and w.ceilings.fp32_tflops == 0.003
    bare = Context(s, Path("/nonexistent"), "cpu", {}, Precision.FP32, 1, 3, tuple(Space), None, None, None)
    assert workload(bare).ceilings.source == "default (CPU)"
