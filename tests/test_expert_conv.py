"""Convolutions in the CUDA-libraries space: cuDNN calls with the ops after them fused (no GPU needed here).

The generated candidates are checked three ways on this machine: the lowering (what becomes a cuDNN call
and what the epilogue computes), the planner (which space and strategy, and why pure CUDA has nothing),
and the whole candidate under a CPU emulation of cuDNN (tests/cuda_emu.py), verified by the real
evaluator against the PyTorch reference. nvcc compiles and links them when cuDNN's headers are found.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from contracts.vocabulary import Space
from engine.agents.base import Context, Invalid
from engine.agents.expert import ExpertBackend
from engine.agents.expert.analysis import analyze
from engine.agents.expert.codegen.cpu import CpuParams, cpu_source
from engine.agents.expert.codegen.cuda_program import cuda_source
from engine.agents.expert.codegen.variants import ConvParams, Variant
from engine.agents.expert.ir import ConvStage, FusedStage, loads
from engine.agents.expert.lowering import Unsupported, lower
from engine.agents.expert.planner import implementable
from engine.agents.expert.space_direction import workload
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
from engine.evaluate import build as build_mod
from engine.evaluate.outcome import Precision, Status
from engine.task.contract import write_contract
from engine.task.spec import TaskSpec, load_task
from tests.conftest import fake_cudnn
from tests.cuda_emu import EMULATED_CALL_S, emulated_cpp
from tests.nvcc_kit import nvcc

TASKS = Path(__file__).parent / "data" / "tasks"
CONV_TASKS = ["expert_conv_block.py", "expert_conv_functional.py", "expert_conv_relu.py"]


@cache
def spec(name: str) -> TaskSpec:
    return load_task(TASKS / name)


def ctx_for(s: TaskSpec, *, device: str = "cuda:0", spaces: tuple[Space, ...] = tuple(Space),
            precision: Precision = Precision.FP32) -> Context:
    return Context(s, Path("/nonexistent"), device, {}, precision, 1, 3, spaces, None, None, None)


# --- lowering -------------------------------------------------------------------------------------------------

def test_a_resnet_block_lowers_to_two_cudnn_calls_each_followed_by_one_fused_epilogue() -> None:
    prog = lower(spec("expert_conv_block.py"), convs=True)
    kinds = [type(st).__name__ for st in prog.stages]
    assert kinds == ["ConvStage", "FusedStage", "ConvStage", "FusedStage"]
    c1, e1, c2, e2 = prog.stages
    assert isinstance(c1, ConvStage) and isinstance(c2, ConvStage)
    assert (c1.x, c1.weight) == ("x", "conv1.weight") and c1.padding == (1, 1) and c1.out_shape == (2, 6, 9, 11)
    assert isinstance(e1, FusedStage) and isinstance(e2, FusedStage)
    # BN1 + ReLU read conv1's output once; conv2 reads that epilogue's output; BN2 + residual + ReLU write out.
    assert {ld.view.buffer for _, e in e1.outputs for ld in loads(e)} == {c1.out, "bn1_mean", "bn1_var",
                                                                          "bn1_weight", "bn1_bias"}
    assert c2.x == e1.outputs[0][0]
    assert e2.outputs[0][0] == "out" and "x" in {ld.view.buffer for _, e in e2.outputs for ld in loads(e)}


def test_functional_conv_keeps_stride_padding_dilation_and_groups() -> None:
    (conv, epi) = lower(spec("expert_conv_functional.py"), convs=True).stages
    assert isinstance(conv, ConvStage)
    assert (conv.stride, conv.padding, conv.dilation, conv.groups) == ((2, 1), (1, 2), (1, 2), 2)
    assert conv.out_shape == (3, 8, 7, 12)  # what torch computes (the graph's recorded shape)
    assert "bias" in {ld.view.buffer for _, e in epi.outputs for ld in loads(e)}  # the bias add is fused after


def test_what_the_cudnn_stage_does_not_cover_is_unsupported_with_its_own_reason(tmp_path: Path) -> None:
    for body, reason in (("nn.Conv2d(4, 8, 3, padding=1, padding_mode='reflect')", "padding_mode='reflect'"),
                         ("nn.ConvTranspose2d(4, 8, 3)", "Conv2d only"), ("nn.Conv1d(4, 8, 3)", "Conv2d only")):
        x = "torch.randn(2, 4, 16)" if "1d" in body else "torch.randn(2, 4, 9, 9)"
        src = (f"import torch\nfrom torch import nn\n\n\nclass Model(nn.Module):\n    def __init__(self):\n"
               f"        super().__init__()\n        self.conv = {body}\n\n    def forward(self, x):\n"
               f"        return torch.relu(self.conv(x))\n\n\ndef get_inputs():\n    return [{x}]\n\n\n"
               f"def get_init_inputs():\n    return []\n")
        path = tmp_path / f"t{len(reason)}.py"
        path.write_text(src)
        with pytest.raises(Unsupported, match=reason.replace("(", r"\(")):
            lower(load_task(path), convs=True)


def test_convolutions_are_unsupported_without_a_library_and_on_the_cpu() -> None:
    with pytest.raises(Unsupported, match="convolution"):
        lower(spec("expert_conv_block.py"))
    w = analyze(spec("expert_conv_block.py"), {}, on_gpu=False)
    assert w.program is None and "convolution" in (w.unsupported or "")
    gpu = analyze(spec("expert_conv_block.py"), {}, on_gpu=True)
    assert gpu.program is not None and len(gpu.program.convs) == 2
    with pytest.raises(ValueError, match="convolution"):
        cpu_source(spec("expert_conv_block.py"), gpu.program, CpuParams(), strategy="P.cpu_threads")


# --- planning -------------------------------------------------------------------------------------------------

def test_planner_calls_cudnn_in_cuda_libraries_and_explains_why_pure_cuda_has_nothing() -> None:
    be = ExpertBackend()
    s = spec("expert_conv_relu.py")
    choice = be.ssda.select_space(ctx_for(s))
    assert choice.space is Space.CUDA_LIBRARIES and "cuDNN" in choice.rationale
    ctx = ctx_for(s)
    strategy = be.spa.plan(ctx, Space.CUDA_LIBRARIES, be.ssda.score_directions(ctx, Space.CUDA_LIBRARIES))
    assert strategy.name in ("T.cudnn_algos", "R.library_epilogue")
    cands = be.oa.generate(ctx, Space.CUDA_LIBRARIES, strategy, 6)
    assert len(cands) == 6 and all(isinstance(c, Candidate) for c in cands)
    assert all(c.space is Space.CUDA_LIBRARIES and "cudnnConvolutionForward" in c.source for c in cands)
    assert len({c.source for c in cands}) == 6  # six different algorithm choices / epilogue shapes
    pure = ctx_for(s, spaces=(Space.PURE_CUDA,))
    plan = be.spa.plan(pure, Space.PURE_CUDA, be.ssda.score_directions(pure, Space.PURE_CUDA))
    (res,) = be.oa.generate(pure, Space.PURE_CUDA, plan, 6)
    assert isinstance(res, Invalid) and "convolution" in res.reason and "cuDNN" in res.reason


def test_library_strategies_need_a_space_that_allows_libraries() -> None:
    for task in ("expert_conv_relu.py", "expert_linear_relu.py"):
        s = spec(task)
        w = workload(ctx_for(s))
        for key in ("T.cudnn_algos", "T.cublas_sgemm", "R.library_epilogue"):
            assert not implementable(key, w, ctx_for(s, spaces=(Space.PURE_CUDA,)), Space.PURE_CUDA), (task, key)
        assert implementable("R.library_epilogue", w, ctx_for(s), Space.CUDA_LIBRARIES)
    conv, lin = workload(ctx_for(spec("expert_conv_relu.py"))), workload(ctx_for(spec("expert_linear_relu.py")))
    assert implementable("T.cudnn_algos", conv, ctx_for(spec("expert_conv_relu.py")), Space.CUDA_LIBRARIES)
    assert not implementable("T.cudnn_algos", lin, ctx_for(spec("expert_linear_relu.py")), Space.CUDA_LIBRARIES)
    assert not implementable("T.cublas_sgemm", conv, ctx_for(spec("expert_conv_relu.py")), Space.CUDA_LIBRARIES)


def test_strict_fp32_takes_only_fma_math_and_tf32_policy_allows_default_math() -> None:
    s = spec("expert_conv_relu.py")
    prog = lower(s, convs=True)
    strict = cuda_source(s, prog, Variant(), strategy="T.cudnn_algos")
    assert "cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH)" in strict
    assert "perf[i].mathType == CUDNN_FMA_MATH" in strict
    tf32 = cuda_source(s, prog, Variant(), strategy="T.cudnn_algos", tf32=True)
    assert "CUDNN_DEFAULT_MATH" in tf32 and "perf[i].mathType == CUDNN_FMA_MATH" not in tf32
    named = cuda_source(s, prog, Variant(conv=ConvParams("winograd_nonfused")), strategy="T.cudnn_algos")
    assert "p.algo = CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED;" in named
    exact = cuda_source(s, prog, Variant(conv=ConvParams("find_exact")), strategy="T.cudnn_algos")
    assert "perf[i].algo == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM" in exact and "ALGO_FFT" not in exact
    with pytest.raises(ValueError, match="unknown cuDNN algorithm"):
        cuda_source(s, prog, Variant(conv=ConvParams("fastest_please")), strategy="T.cudnn_algos")


# --- the whole candidate, run under the cuDNN emulation ----------------------------------------------------

@pytest.mark.parametrize("task", CONV_TASKS)
def test_cudnn_candidates_match_the_reference_under_cpu_emulation(task: str, tmp_path: Path) -> None:
    s = spec(task)
    prog = lower(s, convs=True)
    variants = [Variant(conv=ConvParams(a)) for a in ("find", "find_exact", "heuristic", "implicit_gemm")]
    srcs = [cuda_source(s, prog, v, strategy="T.cudnn_algos") for v in variants]
    # TF32 leaking in: the descriptor left at cuDNN's default math type lets it use TF32 tensor cores for fp32
    # data (the emulation rounds to TF32 then, as the GPU does); strict verification must catch both the
    # named algorithm and Find (which then lists a tensor-op algorithm first) without the math-type filter.
    strict = "cudnnSetConvolutionMathType(p.conv, CUDNN_FMA_MATH)"
    leaky = [srcs[3].replace(strict, strict.replace("FMA", "DEFAULT")),
             srcs[0].replace(strict, strict.replace("FMA", "DEFAULT")).replace("perf[i].mathType == CUDNN_FMA_MATH",
                                                                              "true")]
    assert all(src not in srcs for src in leaky)
    cands = [Candidate(f"e{i}", CandidateKind.CPP, emulated_cpp(src), Space.CUDA_LIBRARIES, origin="test:emulated")
             for i, src in enumerate([*srcs, *leaky])]
    with Evaluator(s, tmp_path, EvalSettings(device="cpu", timing_trials=5, min_call_limit_s=EMULATED_CALL_S)) as ev:
        outs = ev.evaluate(cands)
    assert all(o.valid for o in outs[:4]), [o.reason for o in outs]
    assert [o.status for o in outs[4:]] == [Status.INCORRECT] * 2, [o.reason for o in outs[4:]]


def test_an_algorithm_cudnn_cannot_run_fails_with_a_clear_code(tmp_path: Path) -> None:
    s = spec("expert_conv_relu.py")
    src = cuda_source(s, lower(s, convs=True), Variant(conv=ConvParams("fft")), strategy="T.cudnn_algos")
    cand = Candidate("fft", CandidateKind.CPP, emulated_cpp(src), Space.CUDA_LIBRARIES, origin="test:emulated")
    with Evaluator(s, tmp_path, EvalSettings(device="cpu", timing_trials=5, min_call_limit_s=EMULATED_CALL_S)) as ev:
        (out,) = ev.evaluate([cand])
    assert not out.valid and "returned 6" in out.reason and "cuDNN call failed" in out.reason, out.reason


# --- building -------------------------------------------------------------------------------------------------

def test_cudnn_flags_name_the_wheels_versioned_library_and_its_rpath(tmp_path: Path, monkeypatch) -> None:
    root = fake_cudnn(tmp_path / "cudnn")
    monkeypatch.setenv("CUDNN_HOME", str(root))
    build_mod.cudnn_flags.cache_clear()
    try:
        flags = build_mod.cudnn_flags()
        assert flags == (f"-I{root / 'include'}", f"-L{root / 'lib'}", "-l:libcudnn.so.9", "-Xlinker",
                         f"-rpath={root / 'lib'}")
        assert all(f in build_mod._libraries_for("cudnnCreate(&h);") for f in flags)
        assert build_mod._libraries_for("cublasSgemm(h);") == ["-lcublas"]
    finally:
        build_mod.cudnn_flags.cache_clear()


def test_find_cudnn_takes_the_newest_versioned_library(tmp_path: Path, monkeypatch) -> None:
    from engine.task.libraries import find_cudnn

    root = fake_cudnn(tmp_path / "cudnn", "libcudnn.so.8", "libcudnn.so.10", "libcudnn.so.9")
    monkeypatch.setenv("CUDNN_HOME", str(root))
    assert find_cudnn() == (str(root / "include"), str(root / "lib"), ":libcudnn.so.10")  # not .so.8, not by text


@pytest.mark.skipif(nvcc() is None, reason="nvcc not installed")
def test_cudnn_candidates_compile_and_link_with_nvcc(tmp_path: Path) -> None:
    build_mod.cudnn_flags.cache_clear()
    if not build_mod.cudnn_flags():
        pytest.skip("no cudnn.h here (set CUDNN_HOME to an unpacked nvidia-cudnn wheel's nvidia/cudnn)")
    for task in ("expert_conv_block.py", "expert_conv_functional.py"):
        s = spec(task)
        cdir = tmp_path / s.name / "contract"
        write_contract(s, cdir)
        cfg = build_mod.BuildConfig(cdir, tmp_path / s.name / "cache", cuda_arch="90")
        for algo in ("find", "heuristic", "winograd"):
            src = cuda_source(s, lower(s, convs=True), Variant(conv=ConvParams(algo)), strategy="T.cudnn_algos")
            res = build_mod.build_one(Candidate(algo, CandidateKind.CUDA, src, Space.CUDA_LIBRARIES), cfg)
            assert res.ok, res.log[-2000:]
            assert "warning" not in res.log.lower(), res.log[-2000:]
