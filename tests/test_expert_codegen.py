"""Expert backend, generator side: generated candidates build and pass the real evaluator on the CPU, the
CUDA sources compile with nvcc, the PyTorch-level ModelNew files import and run, and the backend speaks the
Backend protocol."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

import pytest
import torch

from contracts.vocabulary import Space
from engine.agents import knowledge
from engine.agents.base import Context, Invalid
from engine.agents.expert import ExpertBackend
from engine.agents.expert.codegen.cpu import CpuParams, cpu_source
from engine.agents.expert.codegen.cuda_program import cuda_source
from engine.agents.expert.codegen.torch_variants import TorchVariant, modelnew_source
from engine.agents.expert.codegen.variants import FlatParams, GemmParams, RowParams, Variant
from engine.agents.expert.lowering import lower
from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
from engine.evaluate.outcome import Precision
from engine.task.contract import write_contract
from engine.task.spec import TaskSpec, load_task
from tests.nvcc_kit import assert_all_compile, compile_command, cublas_include, nvcc

TASKS = Path(__file__).parent / "data" / "tasks"
CPU_TASKS = ["expert_chain.py", "expert_softmax.py", "expert_layernorm.py", "expert_linear_relu.py",
             "expert_rmsnorm_rows.py", "expert_sum_middle.py"]


@cache
def spec(name: str) -> TaskSpec:
    return load_task(TASKS / name)


def cpu_ctx(s: TaskSpec, contract_dir: Path, spaces: tuple[Space, ...] = tuple(Space)) -> Context:
    return Context(s, contract_dir, "cpu", {}, Precision.FP32, 0, 3, spaces, None, None, None)


@pytest.mark.parametrize("task", CPU_TASKS)
def test_cpu_candidate_is_valid_through_the_evaluator(task: str, tmp_path: Path) -> None:
    """Pointwise chains, softmax, layer/RMS norm (with a second, per-row output), a middle-dim reduction and
    linear+ReLU: the generated C++ is correct against PyTorch at atol=rtol=1e-4 on fresh inputs."""
    s = spec(task)
    src = cpu_source(s, lower(s), CpuParams(), strategy="R.fuse_pointwise")
    cand = Candidate("c0", CandidateKind.CPP, src, Space.PURE_CUDA, origin="expert:cpu")
    with Evaluator(s, tmp_path, EvalSettings(device="cpu", timing_trials=100)) as ev:
        (out,) = ev.evaluate([cand])
    assert out.valid, out.reason
    assert out.speedup is not None and out.speedup > 0


def test_backend_round_on_cpu_gives_valid_cpp_candidates_and_zero_token_usage(tmp_path: Path) -> None:
    s = spec("expert_chain.py")
    be = ExpertBackend()
    with Evaluator(s, tmp_path, EvalSettings(device="cpu", timing_trials=20)) as ev:
        ctx = cpu_ctx(s, ev.contract_dir)
        choice = be.ssda.select_space(ctx)
        scores = be.ssda.score_directions(ctx, choice.space)
        strategy = be.spa.plan(ctx, choice.space, scores)
        cands = be.oa.generate(ctx, choice.space, strategy, 2)
        assert strategy.name in {e.key for e in knowledge.ENTRIES}
        assert len(cands) == 2 and all(isinstance(c, Candidate) for c in cands)
        assert all(c.kind is CandidateKind.CPP and c.origin.startswith("expert:") for c in cands)
        assert len({c.id for c in cands}) == 2 and len({c.source for c in cands}) == 2
        outs = ev.evaluate([c for c in cands if isinstance(c, Candidate)])
    assert all(o.valid for o in outs), [o.reason for o in outs]
    usage = be.drain_usage()
    assert [u.role for u in usage] == ["ssda", "ssda", "spa", "oa"]
    assert all(u.prompt_tokens == 0 and u.completion_tokens == 0 and u.model is None for u in usage)
    assert be.drain_usage() == []


def test_unsupported_graph_in_pure_cuda_is_an_invalid_with_the_reason() -> None:
    s = spec("expert_conv_relu.py")
    be = ExpertBackend()
    ctx = Context(s, Path("/nonexistent"), "cuda:0", {}, Precision.FP32, 0, 3, (Space.PURE_CUDA,), None, None, None)
    choice = be.ssda.select_space(ctx)
    strategy = be.spa.plan(ctx, choice.space, be.ssda.score_directions(ctx, choice.space))
    (res,) = be.oa.generate(ctx, choice.space, strategy, 6)
    assert isinstance(res, Invalid) and "convolution" in res.reason


# --- PyTorch-level candidates ----------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", [TorchVariant("eager"), TorchVariant("cudnn"),
                                     TorchVariant("cudnn", channels_last=True), TorchVariant("cudagraph")])
def test_modelnew_variant_imports_and_matches_the_reference_on_cpu(variant: TorchVariant, tmp_path: Path) -> None:
    s = spec("expert_conv_relu.py")
    path = tmp_path / "cand.py"
    path.write_text(modelnew_source(s, variant, strategy="T.cudnn_benchmark"))
    mod_spec = importlib.util.spec_from_file_location("expert_modelnew_under_test", path)
    assert mod_spec and mod_spec.loader
    mod = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(mod)
    torch.manual_seed(0)
    ref = mod.Model(*mod.get_init_inputs()).eval()
    new = mod.ModelNew(*mod.get_init_inputs())
    assert set(new.state_dict()) == set(ref.state_dict())  # the evaluator loads the reference's weights
    new.load_state_dict(ref.state_dict())
    x = mod.get_inputs()
    with torch.no_grad():
        torch.testing.assert_close(new.eval()(*x), ref(*x), atol=1e-4, rtol=1e-4)


def test_modelnew_candidate_is_valid_through_the_evaluator(tmp_path: Path) -> None:
    s = spec("expert_conv_relu.py")
    cands = [Candidate(f"t{i}", CandidateKind.MODELNEW, modelnew_source(s, v, strategy="T.cudnn_benchmark"),
                       Space.LIBRARIES_PYTORCH) for i, v in enumerate([TorchVariant("cudnn"), TorchVariant("eager")])]
    with Evaluator(s, tmp_path, EvalSettings(device="cpu", timing_trials=20)) as ev:
        outs = ev.evaluate(cands)
    assert all(o.valid for o in outs), [o.reason for o in outs]


# --- CUDA sources compile --------------------------------------------------------------------------------------

def _variants(with_library: bool) -> list[Variant]:
    out = [Variant(FlatParams(256, 4, 2), RowParams(), GemmParams("tiled")),
           Variant(FlatParams(128, 1, 1), RowParams(vec=1, cache=False, scale=2.0),
                   GemmParams("tiled", tile=(64, 64, 8, 4, 4), fuse_epilogue=False))]
    if with_library:
        out += [Variant(FlatParams(), RowParams(threads=32, rows_per_block=4), GemmParams("cublas")),
                Variant(FlatParams(), RowParams(), GemmParams("cublaslt", 1))]
    return out


@pytest.mark.skipif(nvcc() is None, reason="nvcc is not installed here")
def test_cuda_sources_compile_with_nvcc(tmp_path: Path) -> None:
    with_library = cublas_include() is not None
    jobs = []
    for task in ["expert_chain.py", "expert_softmax.py", "expert_layernorm.py", "expert_linear_relu.py",
                 "expert_rmsnorm_rows.py", "expert_sum_middle.py"]:
        s = spec(task)
        d = tmp_path / s.name
        write_contract(s, d)
        prog = lower(s)
        seen = set()
        for i, v in enumerate(_variants(with_library)):
            src = cuda_source(s, prog, v, strategy="test")
            if src in seen:
                continue
            seen.add(src)
            assert "hiera_forward" in src and "hiera_s" in src
            f = d / f"v{i}.cu"
            f.write_text(src)
            jobs.append((f, compile_command(f, d, src)))
    assert_all_compile(jobs)


def test_cuda_source_names_strategy_and_variant_in_its_header() -> None:
    s = spec("expert_linear_relu.py")
    src = cuda_source(s, lower(s), Variant(gemm=GemmParams("cublaslt", 0)), strategy="R.library_epilogue")
    head = src.split("#include")[0]
    assert "strategy: R.library_epilogue" in head and "cuBLASLt algo #0" in head
    assert "strict fp32" in head and "CUBLAS_COMPUTE_32F," in src and "TF32" not in src.split("#include")[1][:0]
    # bias and ReLU folded into cuBLASLt's epilogue; the scale stays in one generated kernel
    assert "CUBLASLT_EPILOGUE_RELU_BIAS" in src and "__global__" in src
    tf32 = cuda_source(s, lower(s), Variant(gemm=GemmParams("cublaslt", 0)), strategy="T.tf32_tensor_cores",
                       tf32=True)
    assert "CUBLAS_COMPUTE_32F_FAST_TF32" in tf32
